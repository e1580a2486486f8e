// S2 fp32 matrix multiply C = A * B, row-major N x N operands: the lesson's progression
// (naive, coalesced, shared-memory tiles, padding, 2x/4x outputs per thread) and a
// register-tiled kernel. Host-compilable: operand values, the index maps and per-thread
// steps every kernel is built from (the host tests run them block by block), the exact host
// reference, the error bound, FLOP and byte formulas, grids, the device's fp32 peak.
//
// Every kernel here accumulates c_ij with one fmaf per term in k order 0..N-1 (the tiles
// only stage the operands; zero-filled tails add exact zeros), so each computes exactly
// matmul_dot(); cuBLAS sums in its own order. All are checked against the same bound.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

#if defined(__CUDA_ARCH__)
#define MEMBENCH_MATMUL_UNROLL _Pragma("unroll")
#else
#define MEMBENCH_MATMUL_UNROLL
#endif

namespace membench::compute {

// ---- the progression ----------------------------------------------------------------------

enum class matmul_variant { naive, coalesced, tile16, tile32, tile32_padded, ilp2, ilp4, regtile, cublas };

/// Progression order: registration order within one N, and the order `speedup_vs_prev` follows.
inline constexpr std::array<matmul_variant, 9> matmul_variants{
    matmul_variant::naive, matmul_variant::coalesced, matmul_variant::tile16,  matmul_variant::tile32, matmul_variant::tile32_padded,
    matmul_variant::ilp2,  matmul_variant::ilp4,      matmul_variant::regtile, matmul_variant::cublas};

/// Matrix orders: three powers of two, and 1000 (not a multiple of 16, 32 or 128) for the
/// kernels with bounds checks, so their partial edge tiles are exercised and timed.
inline constexpr std::array<unsigned, 4> matmul_sizes{1000, 1024, 2048, 4096};

constexpr const char* to_string(matmul_variant v) {
  switch (v) {
    case matmul_variant::naive: return "naive";
    case matmul_variant::coalesced: return "coalesced";
    case matmul_variant::tile16: return "tile16";
    case matmul_variant::tile32: return "tile32";
    case matmul_variant::tile32_padded: return "tile32_padded";
    case matmul_variant::ilp2: return "ilp2";
    case matmul_variant::ilp4: return "ilp4";
    case matmul_variant::regtile: return "regtile";
    case matmul_variant::cublas: return "cublas";
  }
  return "?";
}

// ---- operands -----------------------------------------------------------------------------

inline constexpr std::uint32_t matmul_seed_a = 201;
inline constexpr std::uint32_t matmul_seed_b = 202;

/// Element `index` (row-major) of an operand as an integer: odd, in [-65535, 65535], never 0.
MEMBENCH_HD std::int32_t matmul_int(std::uint64_t index, std::uint32_t seed) {
  return static_cast<std::int32_t>(pattern_word(index, seed) & 0xFFFFu) * 2 - 65535;
}

/// The operand value matmul_int * 2^-16: in (-1, 1), never 0, exact in float (17 bits),
/// mixed signs so that the sums cancel like real data.
MEMBENCH_HD float matmul_value(std::uint64_t index, std::uint32_t seed) {
  return static_cast<float>(matmul_int(index, seed)) * 0x1p-16f;
}

/// Element (r, col) of an N x N row-major matrix, or 0 outside it (the tiles' zero fill).
MEMBENCH_HD float matmul_load(const float* m, unsigned n, unsigned r, unsigned col) {
  return r < n && col < n ? m[static_cast<std::uint64_t>(r) * n + col] : 0.0f;
}

/// The element function: c_ij = sum_k a_ik b_kj, one fmaf per term, k = 0..n-1.
MEMBENCH_HD float matmul_dot(const float* a, const float* b, unsigned n, unsigned i, unsigned j) {
  float acc = 0.0f;
  for (unsigned k = 0; k < n; ++k) acc = fmaf(a[static_cast<std::uint64_t>(i) * n + k], b[static_cast<std::uint64_t>(k) * n + j], acc);
  return acc;
}

// ---- naive and coalesced: one output per thread, operands straight from global memory -----

inline constexpr unsigned matmul_simple_block = 32;  ///< 32 x 32 threads, as in the lesson

struct matmul_coord {
  unsigned row, col;
};

/// The lesson's first kernel: threadIdx.x walks rows, so the 32 lanes of a warp read A 32
/// rows (N * 4 bytes) apart and write C a column at a time: uncoalesced.
MEMBENCH_HD matmul_coord matmul_naive_coord(unsigned tx, unsigned ty, unsigned bx, unsigned by) {
  return {bx * matmul_simple_block + tx, by * matmul_simple_block + ty};
}

/// threadIdx.x walks columns: a warp reads one A element (broadcast) and 32 consecutive B
/// elements, and writes 32 consecutive C elements.
MEMBENCH_HD matmul_coord matmul_coalesced_coord(unsigned tx, unsigned ty, unsigned bx, unsigned by) {
  return {by * matmul_simple_block + ty, bx * matmul_simple_block + tx};
}

// ---- shared-memory tiles (tile16 ... ilp4) ---------------------------------------------------

/// A block computes a tile x tile block of C; per step it stages a tile x tile slice of A
/// and of B in shared memory. Thread (tx, ty) computes column tx, rows ty + r * tile / ilp.
struct matmul_tile_shape {
  unsigned tile;     ///< edge of the C block and of the staged slices
  unsigned pad;      ///< extra words per shared row ([32][33] = pad 1)
  unsigned ilp;      ///< outputs per thread (Volkov: more independent work per thread)
  bool transpose_a;  ///< A staged k-major, As[k][m] (the layout register tiles read as vectors)

  MEMBENCH_HD constexpr unsigned row_words() const { return tile + pad; }
  MEMBENCH_HD constexpr unsigned block_x() const { return tile; }
  MEMBENCH_HD constexpr unsigned block_y() const { return tile / ilp; }
  MEMBENCH_HD constexpr unsigned threads() const { return tile * tile / ilp; }
  MEMBENCH_HD constexpr unsigned shared_words() const { return tile * (tile + pad); }
};

/// The lesson's tiled kernel: as[ty][k] (a broadcast), bs[k][tx] (consecutive): no conflict.
inline constexpr matmul_tile_shape tile16_shape{16, 0, 1, false};
/// 32 x 32 tiles, A staged transposed: the store As[tx][ty] puts a warp's 32 lanes 32
/// words apart, all in bank ty: a 32-way conflict on every staging store of A.
inline constexpr matmul_tile_shape tile32_shape{32, 0, 1, true};
/// The same with rows of 33 words: lane tx stores to bank (tx + ty) mod 32, conflict-free.
inline constexpr matmul_tile_shape tile32_padded_shape{32, 1, 1, true};
/// 2 and 4 outputs per thread (rows 16 and 8 apart): one B read feeds 2 and 4 FMAs.
inline constexpr matmul_tile_shape ilp2_shape{32, 1, 2, true};
inline constexpr matmul_tile_shape ilp4_shape{32, 1, 4, true};

/// Shared word of element (m, k) of the staged A slice (m: row of C, k: inner index).
template <matmul_tile_shape S>
MEMBENCH_HD unsigned matmul_tile_a_word(unsigned m, unsigned k) {
  return S.transpose_a ? k * S.row_words() + m : m * S.row_words() + k;
}

/// Shared word of element (k, j) of the staged B slice.
template <matmul_tile_shape S>
MEMBENCH_HD unsigned matmul_tile_b_word(unsigned k, unsigned j) {
  return k * S.row_words() + j;
}

/// Thread (tx, ty) stages its elements of the slices starting at inner index k0: A rows
/// row0 + ty + r * block_y at column k0 + tx, B rows k0 + ty + r * block_y at column
/// col0 + tx (coalesced reads), zero outside the matrices.
template <matmul_tile_shape S>
MEMBENCH_HD void matmul_tile_stage(const float* a, const float* b, unsigned n, unsigned row0, unsigned col0, unsigned k0, unsigned tx,
                            unsigned ty, float* as, float* bs) {
  for (unsigned r = 0; r < S.ilp; ++r) {
    const unsigned y = ty + r * S.block_y();
    as[matmul_tile_a_word<S>(y, tx)] = matmul_load(a, n, row0 + y, k0 + tx);
    bs[matmul_tile_b_word<S>(y, tx)] = matmul_load(b, n, k0 + y, col0 + tx);
  }
}

/// Thread (tx, ty) accumulates the staged slices into its `ilp` outputs, k in order.
template <matmul_tile_shape S>
MEMBENCH_HD void matmul_tile_accumulate(const float* as, const float* bs, unsigned tx, unsigned ty, float* acc) {
  MEMBENCH_MATMUL_UNROLL
  for (unsigned k = 0; k < S.tile; ++k) {
    const float bk = bs[matmul_tile_b_word<S>(k, tx)];
    MEMBENCH_MATMUL_UNROLL
    for (unsigned r = 0; r < S.ilp; ++r) acc[r] = fmaf(as[matmul_tile_a_word<S>(ty + r * S.block_y(), k)], bk, acc[r]);
  }
}

/// Thread (tx, ty) writes its outputs inside the matrix.
template <matmul_tile_shape S>
MEMBENCH_HD void matmul_tile_store(float* c, unsigned n, unsigned row0, unsigned col0, unsigned tx, unsigned ty, const float* acc) {
  for (unsigned r = 0; r < S.ilp; ++r) {
    const unsigned row = row0 + ty + r * S.block_y(), col = col0 + tx;
    if (row < n && col < n) c[static_cast<std::uint64_t>(row) * n + col] = acc[r];
  }
}

// ---- register tiles (regtile) ---------------------------------------------------------------
//
// 128 x 128 block tile, k-steps of 8, 256 threads, 8 x 8 outputs per thread held in
// registers. Per k-tile each thread reads one float4 of A and one of B from global memory
// (prefetched into registers while the previous tile is computed: two shared buffers, one
// barrier per k-tile). A is staged k-major with rows of 132 words: the 4 padding words move
// the odd lanes' stores 16 banks over (without them the two lanes sharing a row m collide,
// 2-way) and keep every row 16-byte aligned for the float4 reads. Warps are 4 x 2 over the
// tile (32 x 64 each), lanes 4 x 8 in a warp, and each lane owns 2 x 2 blocks of 4 x 4
// outputs, 16 rows and 32 columns apart: a warp's float4 reads of a k-row touch 64 bytes of
// A and 128 contiguous bytes of B, one wavefront each. Per k step a thread issues 4 LDS.128
// for 64 FMAs. N must be a multiple of 128 (no bounds checks in the inner loop).

inline constexpr unsigned regtile_bm = 128, regtile_bn = 128, regtile_bk = 8;
inline constexpr unsigned regtile_tm = 8, regtile_tn = 8;
inline constexpr unsigned regtile_threads = (regtile_bm / regtile_tm) * (regtile_bn / regtile_tn);
inline constexpr unsigned regtile_warps_n = 2;
inline constexpr unsigned regtile_warps_m = regtile_threads / 32 / regtile_warps_n;
inline constexpr unsigned regtile_lanes_n = 8, regtile_lanes_m = 32 / regtile_lanes_n;
inline constexpr unsigned regtile_a_pad = 4;
inline constexpr unsigned regtile_a_row_words = regtile_bm + regtile_a_pad;
inline constexpr unsigned regtile_a_words = regtile_bk * regtile_a_row_words;
inline constexpr unsigned regtile_b_words = regtile_bk * regtile_bn;
static_assert(regtile_threads == 256);
static_assert(regtile_warps_m * regtile_lanes_m * regtile_tm == regtile_bm, "warps x lanes x 8 rows cover the tile");
static_assert(regtile_warps_n * regtile_lanes_n * regtile_tn == regtile_bn, "warps x lanes x 8 columns cover the tile");
static_assert(regtile_tm == 8 && regtile_tn == 8, "each thread owns 2 x 2 blocks of 4 x 4");
static_assert(regtile_bm * regtile_bk == 4 * regtile_threads, "one float4 of A per thread per k-tile");
static_assert(regtile_bk * regtile_bn == 4 * regtile_threads, "one float4 of B per thread per k-tile");
static_assert(regtile_a_row_words % 4 == 0, "float4 reads of As stay 16-byte aligned");

/// N the register-tiled kernel handles: whole 128 x 128 tiles, no bounds checks.
constexpr bool matmul_regtile_supports(unsigned n) { return n > 0 && n % regtile_bm == 0 && n % regtile_bn == 0; }

/// Four floats moved with one 128-bit access.
struct alignas(16) matmul_f4 {
  float x, y, z, w;
};

/// 16-byte load/store (LDG.128, LDS.128, STS.128, STG.128 on the device). `p` 16-byte aligned.
MEMBENCH_HD matmul_f4 matmul_load4(const float* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const matmul_f4*>(p);
#else
  matmul_f4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
#endif
}
MEMBENCH_HD void matmul_store4(float* p, matmul_f4 v) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<matmul_f4*>(p) = v;
#else
  std::memcpy(p, &v, sizeof v);
#endif
}

/// Accumulator row r (0..7) of thread tid, as a row of the block tile.
MEMBENCH_HD unsigned regtile_row(unsigned tid, unsigned r) {
  const unsigned warp = tid / 32, lane = tid % 32;
  return (warp / regtile_warps_n) * (regtile_lanes_m * regtile_tm) + (r / 4) * (regtile_lanes_m * 4) + (lane / regtile_lanes_n) * 4 + r % 4;
}

/// Accumulator column c (0..7) of thread tid, as a column of the block tile.
MEMBENCH_HD unsigned regtile_col(unsigned tid, unsigned c) {
  const unsigned warp = tid / 32, lane = tid % 32;
  return (warp % regtile_warps_n) * (regtile_lanes_n * regtile_tn) + (c / 4) * (regtile_lanes_n * 4) + (lane % regtile_lanes_n) * 4 + c % 4;
}

/// Where thread tid's float4 of a slice comes from: row, first of 4 consecutive columns.
struct regtile_piece {
  unsigned row, col;
};
/// The A slice (128 rows x 8 k): two threads per row, k 0-3 and 4-7.
MEMBENCH_HD regtile_piece regtile_a_piece(unsigned tid) { return {tid / (regtile_bk / 4), (tid % (regtile_bk / 4)) * 4}; }
/// The B slice (8 k x 128 columns): a warp reads one 512-byte row segment.
MEMBENCH_HD regtile_piece regtile_b_piece(unsigned tid) { return {tid / (regtile_bn / 4), (tid % (regtile_bn / 4)) * 4}; }

/// Shared word of element (m, k) of the staged A slice: k-major, rows of `row_words`.
MEMBENCH_HD unsigned regtile_a_word(unsigned m, unsigned k, unsigned row_words = regtile_a_row_words) { return k * row_words + m; }
/// Shared word of element (k, j) of the staged B slice.
MEMBENCH_HD unsigned regtile_b_word(unsigned k, unsigned j) { return k * regtile_bn + j; }

/// Thread tid's global reads for the k-tile starting at k0 (block tile at row0, col0).
MEMBENCH_HD void regtile_fetch(const float* a, const float* b, unsigned n, unsigned row0, unsigned col0, unsigned k0, unsigned tid,
                               matmul_f4& fa, matmul_f4& fb) {
  const regtile_piece pa = regtile_a_piece(tid), pb = regtile_b_piece(tid);
  fa = matmul_load4(a + static_cast<std::uint64_t>(row0 + pa.row) * n + k0 + pa.col);
  fb = matmul_load4(b + static_cast<std::uint64_t>(k0 + pb.row) * n + col0 + pb.col);
}

/// Thread tid's shared stores of what it fetched: A transposed (4 scalar stores), B as one float4.
MEMBENCH_HD void regtile_stage(float* as, float* bs, unsigned tid, const matmul_f4& fa, const matmul_f4& fb) {
  const regtile_piece pa = regtile_a_piece(tid), pb = regtile_b_piece(tid);
  as[regtile_a_word(pa.row, pa.col + 0)] = fa.x;
  as[regtile_a_word(pa.row, pa.col + 1)] = fa.y;
  as[regtile_a_word(pa.row, pa.col + 2)] = fa.z;
  as[regtile_a_word(pa.row, pa.col + 3)] = fa.w;
  matmul_store4(bs + regtile_b_word(pb.row, pb.col), fb);
}

/// Thread tid's outer products over one staged k-tile, k in order.
MEMBENCH_HD void regtile_accumulate(const float* as, const float* bs, unsigned tid, float (&acc)[regtile_tm][regtile_tn]) {
  const unsigned r0 = regtile_row(tid, 0), r1 = regtile_row(tid, 4);
  const unsigned c0 = regtile_col(tid, 0), c1 = regtile_col(tid, 4);
  MEMBENCH_MATMUL_UNROLL
  for (unsigned k = 0; k < regtile_bk; ++k) {
    const matmul_f4 a0 = matmul_load4(as + regtile_a_word(r0, k)), a1 = matmul_load4(as + regtile_a_word(r1, k));
    const matmul_f4 b0 = matmul_load4(bs + regtile_b_word(k, c0)), b1 = matmul_load4(bs + regtile_b_word(k, c1));
    const float fa[regtile_tm] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
    const float fb[regtile_tn] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
    MEMBENCH_MATMUL_UNROLL
    for (unsigned i = 0; i < regtile_tm; ++i) {
      MEMBENCH_MATMUL_UNROLL
      for (unsigned j = 0; j < regtile_tn; ++j) acc[i][j] = fmaf(fa[i], fb[j], acc[i][j]);
    }
  }
}

/// Thread tid writes its 8 x 8 outputs as 16 float4 stores.
MEMBENCH_HD void regtile_store(float* c, unsigned n, unsigned row0, unsigned col0, unsigned tid, const float (&acc)[regtile_tm][regtile_tn]) {
  MEMBENCH_MATMUL_UNROLL
  for (unsigned i = 0; i < regtile_tm; ++i) {
    float* row = c + static_cast<std::uint64_t>(row0 + regtile_row(tid, i)) * n + col0;
    matmul_store4(row + regtile_col(tid, 0), matmul_f4{acc[i][0], acc[i][1], acc[i][2], acc[i][3]});
    matmul_store4(row + regtile_col(tid, 4), matmul_f4{acc[i][4], acc[i][5], acc[i][6], acc[i][7]});
  }
}

// ---- grids ------------------------------------------------------------------------------

struct matmul_launch_shape {
  unsigned grid_x = 0, grid_y = 0, block_x = 0, block_y = 0;
  constexpr unsigned threads() const { return block_x * block_y; }
};

constexpr unsigned matmul_blocks(unsigned n, unsigned per_block) { return (n + per_block - 1) / per_block; }

constexpr matmul_tile_shape matmul_tile_shape_of(matmul_variant v) {
  switch (v) {
    case matmul_variant::tile16: return tile16_shape;
    case matmul_variant::tile32: return tile32_shape;
    case matmul_variant::tile32_padded: return tile32_padded_shape;
    case matmul_variant::ilp2: return ilp2_shape;
    case matmul_variant::ilp4: return ilp4_shape;
    default: return {0, 0, 1, false};
  }
}

/// Grid and block of a kernel variant (square grids; the coordinate maps above say which
/// index walks rows); all zero for cublas.
constexpr matmul_launch_shape matmul_launch_shape_of(matmul_variant v, unsigned n) {
  switch (v) {
    case matmul_variant::naive:
    case matmul_variant::coalesced: {
      const unsigned g = matmul_blocks(n, matmul_simple_block);
      return {g, g, matmul_simple_block, matmul_simple_block};
    }
    case matmul_variant::tile16:
    case matmul_variant::tile32:
    case matmul_variant::tile32_padded:
    case matmul_variant::ilp2:
    case matmul_variant::ilp4: {
      const matmul_tile_shape s = matmul_tile_shape_of(v);
      const unsigned g = matmul_blocks(n, s.tile);
      return {g, g, s.block_x(), s.block_y()};
    }
    case matmul_variant::regtile: return {n / regtile_bn, n / regtile_bm, regtile_threads, 1};
    case matmul_variant::cublas: return {};
  }
  return {};
}

/// Whether `v` is registered for order n: every variant handles any n except regtile.
constexpr bool matmul_supports(matmul_variant v, unsigned n) {
  return n > 0 && (v != matmul_variant::regtile || matmul_regtile_supports(n));
}

/// The variant before `v` in the progression that is registered for n; none for naive.
constexpr std::optional<matmul_variant> matmul_previous(matmul_variant v, unsigned n) {
  std::optional<matmul_variant> prev;
  for (matmul_variant w : matmul_variants) {
    if (w == v) return prev;
    if (matmul_supports(w, n)) prev = w;
  }
  return std::nullopt;
}

// ---- work, traffic, peak ----------------------------------------------------------------------

/// 2 N^3: one multiply and one add per term.
constexpr double matmul_flops(unsigned n) { return 2.0 * n * static_cast<double>(n) * n; }

/// The compulsory traffic: A and B read once, C written once (3 N^2 floats). What the tiled
/// kernels re-read from L2 and L1 is not counted.
constexpr std::uint64_t matmul_bytes(unsigned n) { return std::uint64_t{3} * n * n * sizeof(float); }

/// FP32 lanes (FMA units) per SM; 0 when unknown. sm_60, sm_70/72/75 and sm_80 have 64;
/// sm_61/62, sm_86/87/89, sm_90 and later 128 (Kepler 192, Maxwell 128).
constexpr int fp32_lanes_per_sm(int cc_major, int cc_minor) {
  switch (cc_major) {
    case 3: return 192;
    case 5: return 128;
    case 6: return cc_minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return cc_minor == 0 ? 64 : 128;
    default: return cc_major >= 9 ? 128 : 0;
  }
}

/// FP32 FMA peak in FLOP/s: 2 FLOP per lane per clock; 0 when a figure is unknown.
constexpr double fp32_peak_flops(int sm_count, int lanes_per_sm, int sm_clock_khz) {
  return 2.0 * sm_count * lanes_per_sm * (sm_clock_khz * 1e3);
}

// ---- verification ---------------------------------------------------------------------------

/// gamma_n = n u / (1 - n u) (Higham, Accuracy and Stability of Numerical Algorithms, 3.1).
constexpr double matmul_gamma(double n, double unit_roundoff) { return n * unit_roundoff / (1.0 - n * unit_roundoff); }

/// The relative bound every variant is held to: |c - c_exact| <= tol(N) * sum_k |a_ik b_kj|.
/// An fp32 dot product of N terms, in any summation order (sequential, tiled, split-K), with
/// or without FMA, is within gamma_N(2^-24) of the exact value times that magnitude (Higham
/// 3.5); the host reference below is exact, so no other term enters. About N * 6e-8:
/// 2.4e-4 at N = 4096. The worst case: real errors are far smaller, and a kernel that
/// skips or repeats a tile, reads a wrong element or leaves an output unwritten (NaN poison)
/// is off by O(|c|) ~ O(magnitude / sqrt(N)), far outside it.
constexpr double matmul_tolerance(unsigned n) { return matmul_gamma(n, 0x1p-24); }

/// got is within the bound of the exact value `ref` with magnitude `mag` (NaN fails).
inline bool matmul_within_bound(float got, double ref, double mag, unsigned n) {
  return std::fabs(static_cast<double>(got) - ref) <= matmul_tolerance(n) * mag;
}

/// "ref +- bound" for a mismatch message.
inline std::string matmul_describe_expected(double ref, double mag, unsigned n) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.9g +- %.3g", ref, matmul_tolerance(n) * mag);
  return buf;
}

/// Largest N whose reference is exact in double: products of two operands are integers
/// times 2^-32 below 2^32 in those units, their sums below N * 2^32 <= 2^53.
inline constexpr unsigned matmul_max_exact_n = 1u << 21;

/// Row i of C, exactly: ref[j] = sum_k a_ik b_kj and mag[j] = sum_k |a_ik b_kj|, from the
/// integer operands (row-major n x n matmul_int values). Doubles holding integers (units
/// of 2^-32) make every product and partial sum exact for n <= matmul_max_exact_n.
inline void matmul_reference_row(const std::int32_t* a, const std::int32_t* b, unsigned n, unsigned i, double* ref, double* mag) {
  std::fill(ref, ref + n, 0.0);
  std::fill(mag, mag + n, 0.0);
  for (unsigned k = 0; k < n; ++k) {
    const double aik = a[static_cast<std::uint64_t>(i) * n + k], abs_aik = std::fabs(aik);
    const std::int32_t* bk = b + static_cast<std::uint64_t>(k) * n;
    for (unsigned j = 0; j < n; ++j) {
      const double bkj = bk[j];
      ref[j] += aik * bkj;
      mag[j] += abs_aik * std::fabs(bkj);
    }
  }
  for (unsigned j = 0; j < n; ++j) {
    ref[j] *= 0x1p-32;
    mag[j] *= 0x1p-32;
  }
}

/// Every row up to this order is checked; above, matmul_check_rows samples.
inline constexpr unsigned matmul_full_check_max = 1024;
inline constexpr unsigned matmul_sample_rows = 128;
inline constexpr unsigned matmul_sample_step = 131;

/// Rows of C compared with the reference, ascending: all of them up to 1024; above, rows
/// 131 t mod N for t < 128 (131 is odd and 3 mod 128: distinct rows covering every residue
/// mod 128, so every accumulator row of every thread of the 128-row register tiles) plus
/// the last row. Every checked row is checked in full (all columns).
inline std::vector<unsigned> matmul_check_rows(unsigned n) {
  std::vector<unsigned> rows;
  if (n <= matmul_full_check_max) {
    for (unsigned i = 0; i < n; ++i) rows.push_back(i);
    return rows;
  }
  for (unsigned t = 0; t < matmul_sample_rows; ++t) rows.push_back(static_cast<unsigned>(std::uint64_t{t} * matmul_sample_step % n));
  rows.push_back(n - 1);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

}  // namespace membench::compute
