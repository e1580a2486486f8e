// S2: fp32 matrix multiply C = A * B (row-major N x N), the ru lecture's progression on a
// current GPU, with cuBLAS SGEMM as the in-suite reference:
//   naive          the lesson's kernel: threadIdx.x walks rows of C, so a warp reads A 32 rows
//                  apart (32 sectors per load) and writes C a column at a time;
//   coalesced      threadIdx.x walks columns: A broadcast, B and C coalesced;
//   tile16         the lesson's shared-memory tiles, 16 x 16 (as[ty][k], bs[k][tx]: no conflicts);
//   tile32         32 x 32 tiles with A staged k-major (As[k][m], the layout register tiles
//                  read as vectors): the staging store As[tx][ty] is a 32-way bank conflict;
//   tile32_padded  rows of 33 words: the same store spreads over all 32 banks. Padding
//                  fixes that store only; the inner loop's reads (As[k][ty] a broadcast,
//                  Bs[k][tx] consecutive) never conflicted;
//   ilp2, ilp4     2 and 4 outputs per thread on the padded tiles (Volkov; the lesson's "x2
//                  inst", "x4 inst"): one B read feeds 2 and 4 FMAs, fewer threads;
//   regtile        128 x 128 block tile, 8 x 8 outputs per thread in registers, float4
//                  global and shared loads, register prefetch into two shared buffers
//                  (see kernels/compute/matmul.hpp); only N multiple of 128, since its
//                  inner loop has no bounds checks;
//   cublas         cublasSgemm, CUBLAS_PEDANTIC_MATH (no TF32), row-major by swapping the
//                  operands (C^T = B^T A^T in column-major terms). cuBLAS is loaded at run
//                  time: where it cannot be, this row is skipped and the others have no
//                  pct_cublas (stderr says why, once).
// Expected: naive < coalesced < tile16. The k-major tiles read A a scalar per k (2 shared
// loads per FMA, SASS: 64 LDS for 32 FFMA) where tile16 reads as[ty][k..k+3] as one
// 16-byte broadcast (1.25 per FMA), so tile32 is expected below tile16, its store conflict
// adding to that (97 shared wavefronts per warp and k-tile against tile32_padded's 66).
// From tile32 on each step should beat the last: ilp2 and ilp4 cut the shared loads to 1.5
// and 1.25 per FMA with 2 and 4 independent accumulators, regtile to 1/16 (4 LDS.128 per
// 64 FMAs); regtile should reach well over half of cuBLAS at N = 4096, less at 1024, where
// its 64 blocks leave SMs idle. `gflop_per_s` = 2 N^3 / median; `pct_cublas` = the cublas
// row's time (same N, same run) over this row's, in percent; `speedup_vs_prev` = the
// previous registered variant's time (same N) over this row's (none on naive);
// `pct_fp32_peak` = against 2 * SMs * FP32 lanes per SM * max SM clock.
// Every variant's C is checked once against the exact host reference of every row (N <=
// 1024) or of 129 sampled rows (every residue mod 128, and the last), each element within
// gamma_N(2^-24) * sum_k |a_ik b_kj| (matmul_tolerance). Outputs are poisoned with NaN first.
// Bytes per launch: matmul_bytes = 3 N^2 * 4 (A and B read once, C written once: the
// compulsory traffic); the rows are compute bound, so no DRAM pct_peak. L2 warm: repeated
// GEMMs on the same operands (at N = 4096 they exceed the L2 anyway).
// Sizes: 1024, 2048, 4096 and 1000, a non-multiple of every tile (partial edge tiles, not
// run by regtile). Rows are registered N by N so that one N's buffers, cuBLAS handle and
// host reference serve all its variants.
// Tiers: quick has naive, tile16, regtile and cublas at N = 1024 (the progression's ends);
// the default tier every variant at N = 1000, 1024 and 2048; N = 4096 (naive alone takes
// 0.27 s a launch there, and its host reference is the largest) only in the full tier.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/parallel.hpp"
#include "harness/core/cublas.hpp"
#include "harness/family/family.hpp"
#include "kernels/common/fill.cuh"
#include "kernels/compute/matmul.cuh"

namespace membench::compute {
namespace {

/// cublasSetWorkspace: 32 MiB, the size the cuBLAS guide recommends for Hopper.
constexpr std::size_t blas_workspace_bytes = std::size_t{32} << 20;

/// The exact reference of the checked rows, in row order, n values per row.
struct matmul_reference {
  std::vector<unsigned> rows;
  std::vector<double> ref, mag;
};

struct matmul_workspace {
  unsigned n = 0;
  device_buffer<float> a, b, c;
  device_buffer<std::byte> blas_space;
  // After blas_space: destroyed before its workspace is freed. None without cuBLAS.
  std::optional<cublas_handle> blas;
  std::optional<matmul_reference> reference;  // made at the first verification of this N
};

std::vector<name_param> matmul_params(matmul_variant v, unsigned n) {
  return {{"variant", to_string(v)}, {"n", std::to_string(n)}};
}

/// The rows a variant's counters compare with (same N, same run).
struct matmul_references {
  std::string cublas;
  std::optional<matmul_variant> prev;
  std::string prev_name;
};

void fill_operand(float* v, std::uint64_t count, std::uint32_t seed, cudaStream_t s) {
  fill_device<matmul_value>(v, count, s, seed);
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

matmul_workspace make_workspace(bench_context& ctx, unsigned n) {
  const std::uint64_t elems = std::uint64_t{n} * n;
  ctx.require_device_bytes(3 * elems * sizeof(float) + blas_workspace_bytes);
  matmul_workspace w{n,
                     device_buffer<float>(elems),
                     device_buffer<float>(elems),
                     device_buffer<float>(elems),
                     device_buffer<std::byte>(blas_workspace_bytes),
                     std::nullopt,
                     std::nullopt};
  if (!cublas_unavailable()) {
    w.blas.emplace();
    MEMBENCH_CUBLAS_CHECK(cublas().set_math_mode(w.blas->get(), CUBLAS_PEDANTIC_MATH));
  }
  fill_operand(w.a.data(), elems, matmul_seed_a, ctx.stream());
  fill_operand(w.b.data(), elems, matmul_seed_b, ctx.stream());
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  return w;
}

matmul_reference make_reference(unsigned n) {
  if (n > matmul_max_exact_n) throw std::invalid_argument("matmul: N too large for the exact reference");
  const std::uint64_t elems = std::uint64_t{n} * n;
  std::vector<std::int32_t> a(elems), b(elems);
  parallel_parts(elems, [&](std::size_t lo, std::size_t hi, std::size_t) {
    for (std::size_t i = lo; i < hi; ++i) {
      a[i] = matmul_int(i, matmul_seed_a);
      b[i] = matmul_int(i, matmul_seed_b);
    }
  });
  matmul_reference r;
  r.rows = matmul_check_rows(n);
  r.ref.resize(r.rows.size() * std::size_t{n});
  r.mag.resize(r.rows.size() * std::size_t{n});
  parallel_parts(
      r.rows.size(),
      [&](std::size_t lo, std::size_t hi, std::size_t) {
        for (std::size_t q = lo; q < hi; ++q)
          matmul_reference_row(a.data(), b.data(), n, r.rows[q], r.ref.data() + q * n, r.mag.data() + q * n);
      },
      1);
  return r;
}

/// Copies the checked rows of C back and holds each element to the bound.
/// throws verification_error, cuda_error
void verify_matmul(bench_context& ctx, matmul_workspace& ws) {
  if (!ws.reference) ws.reference = make_reference(ws.n);
  const matmul_reference& r = *ws.reference;
  const unsigned n = ws.n;
  std::vector<float> got(r.ref.size());
  // One copy per run of consecutive rows (all of C when every row is checked).
  for (std::size_t q = 0; q < r.rows.size();) {
    std::size_t e = q + 1;
    while (e < r.rows.size() && r.rows[e] == r.rows[e - 1] + 1) ++e;
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(got.data() + q * n, ws.c.data() + std::size_t{r.rows[q]} * n, (e - q) * n * sizeof(float),
                                        cudaMemcpyDeviceToHost, ctx.stream()));
    q = e;
  }
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  std::size_t bad = 0, first = 0;
  for (std::size_t e = 0; e < got.size(); ++e) {
    if (!matmul_within_bound(got[e], r.ref[e], r.mag[e], n)) {
      if (bad++ == 0) first = e;
    }
  }
  if (bad > 0) {
    const std::size_t row = r.rows[first / n], col = first % n;
    throw_mismatch("c", row * n + col, std::to_string(got[first]), matmul_describe_expected(r.ref[first], r.mag[first], n), bad,
                   got.size());
  }
}

template <matmul_tile_shape S>
void launch_tile(const matmul_workspace& ws, cudaStream_t s) {
  const unsigned g = matmul_blocks(ws.n, S.tile);
  matmul_tile_kernel<S.tile, S.pad, S.ilp, S.transpose_a><<<dim3(g, g), dim3(S.block_x(), S.block_y()), 0, s>>>(ws.a.data(), ws.b.data(), ws.c.data(), ws.n);
}

void launch_cublas(const matmul_workspace& ws, cudaStream_t s) {
  const cublas_api& blas = cublas();  // throws infeasible without cuBLAS (then ws.blas is empty)
  const cublasHandle_t h = ws.blas->get();
  // cublasSetStream resets the workspace to the library's pool: set ours after it.
  MEMBENCH_CUBLAS_CHECK(blas.set_stream(h, s));
  MEMBENCH_CUBLAS_CHECK(blas.set_workspace(h, ws.blas_space.data(), ws.blas_space.bytes()));
  const float one = 1.0f, zero = 0.0f;
  const int n = static_cast<int>(ws.n);
  // Row-major C = A B is column-major C^T = B^T A^T: B first.
  MEMBENCH_CUBLAS_CHECK(
      blas.sgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, ws.b.data(), n, ws.a.data(), n, &zero, ws.c.data(), n));
}

void launch_matmul(matmul_variant v, const matmul_workspace& ws, cudaStream_t s) {
  const matmul_launch_shape shape = matmul_launch_shape_of(v, ws.n);
  const dim3 grid(shape.grid_x, shape.grid_y), block(shape.block_x, shape.block_y);
  const float* a = ws.a.data();
  const float* b = ws.b.data();
  float* c = ws.c.data();
  switch (v) {
    case matmul_variant::naive: matmul_naive_kernel<<<grid, block, 0, s>>>(a, b, c, ws.n); break;
    case matmul_variant::coalesced: matmul_coalesced_kernel<<<grid, block, 0, s>>>(a, b, c, ws.n); break;
    case matmul_variant::tile16: launch_tile<tile16_shape>(ws, s); break;
    case matmul_variant::tile32: launch_tile<tile32_shape>(ws, s); break;
    case matmul_variant::tile32_padded: launch_tile<tile32_padded_shape>(ws, s); break;
    case matmul_variant::ilp2: launch_tile<ilp2_shape>(ws, s); break;
    case matmul_variant::ilp4: launch_tile<ilp4_shape>(ws, s); break;
    case matmul_variant::regtile: matmul_regtile_kernel<<<grid, block, 0, s>>>(a, b, c, ws.n); break;
    case matmul_variant::cublas: launch_cublas(ws, s); break;
  }
}

void run_matmul(bench_context& ctx, matmul_variant v, unsigned n, const matmul_references& refs) {
  if (!matmul_supports(v, n)) throw std::invalid_argument(std::string("matmul: ") + to_string(v) + " needs N a multiple of 128");
  // Without cuBLAS its own row is skipped; the others are timed without pct_cublas.
  const std::optional<std::string>& no_cublas = cublas_unavailable();
  if (v == matmul_variant::cublas && no_cublas) throw infeasible(*no_cublas);
  auto& ws = ctx.workspace<matmul_workspace>({"n"}, [&] { return make_workspace(ctx, n); });
  auto launch_of = [&ws](matmul_variant which) {
    return [&ws, which](cudaStream_t s) { launch_matmul(which, ws, s); };
  };
  // All-ones bytes are NaN: an element the kernel does not write fails the bound.
  const output_check check{[&ws](cudaStream_t s) { MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.c.data(), 0xFF, ws.c.bytes(), s)); },
                           [&] { verify_matmul(ctx, ws); }};
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;  // compute bound: no DRAM ceiling describes these rows
  const double median = ctx.verify_and_time(opt, matmul_bytes(n), launch_of(v), check);
  const double flops = matmul_flops(n);
  ctx.set_counter(schema::counter("gflop_per_s"), flops / median / 1e9);
  if (!no_cublas) {
    const double blas = ctx.reference_seconds(refs.cublas, opt, launch_of(matmul_variant::cublas));
    ctx.set_counter(schema::counter("pct_cublas"), 100 * blas / median);
  }
  if (refs.prev) {
    const double prev = ctx.reference_seconds(refs.prev_name, opt, launch_of(*refs.prev));
    ctx.set_counter(schema::counter("speedup_vs_prev"), prev / median);
  }
  const device_info& d = ctx.device();
  const double peak = fp32_peak_flops(d.sm_count, fp32_lanes_per_sm(d.cc_major, d.cc_minor), d.sm_clock_khz);
  if (peak > 0) ctx.set_counter(schema::counter("pct_fp32_peak"), 100 * flops / median / peak);
}

// Quick: the lesson's first kernel, its shared-memory tiles, the register tiles and cuBLAS at
// N = 1024. Full only: N = 4096.
constexpr suite_tier tier_of(matmul_variant v, unsigned n) {
  if (n == 4096) return suite_tier::full;
  const bool headline = v == matmul_variant::naive || v == matmul_variant::tile16 || v == matmul_variant::regtile ||
                        v == matmul_variant::cublas;
  return n == 1024 && headline ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  for (unsigned n : matmul_sizes) {
    for (matmul_variant v : matmul_variants) {
      if (!matmul_supports(v, n)) continue;
      const std::optional<matmul_variant> prev = matmul_previous(v, n);
      const matmul_references refs{f.name(matmul_params(matmul_variant::cublas, n)), prev,
                                   prev ? f.name(matmul_params(*prev, n)) : std::string()};
      f.add(matmul_params(v, n), tier_of(v, n), [=](bench_context& ctx) { run_matmul(ctx, v, n, refs); });
    }
  }
}

const family_registrar matmul_family{"compute/matmul", &make_cases,
    "fp32 matrix multiply, naive to register-tiled, against cuBLAS", family_needs::gpu};

}  // namespace
}  // namespace membench::compute
