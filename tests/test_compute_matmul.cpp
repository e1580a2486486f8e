// S2 compute/matmul without a GPU: operands, the exact reference and the error bound, the
// FLOP/byte formulas and the fp32 peak, grids for orders that are not tile multiples, the
// index maps, bank models of the shared tiles, and host runs of every tiled kernel's
// per-thread steps (block by block, phase by phase) against the element function.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/naming.hpp"
#include "kernels/compute/matmul.hpp"

namespace membench::compute {
namespace {

constexpr float nan_f = std::numeric_limits<float>::quiet_NaN();

struct operands {
  unsigned n;
  std::vector<float> a, b;
  std::vector<std::int32_t> ia, ib;
};

operands make_operands(unsigned n) {
  operands o{n, {}, {}, {}, {}};
  const std::size_t elems = std::size_t{n} * n;
  for (std::size_t i = 0; i < elems; ++i) {
    o.a.push_back(matmul_value(i, matmul_seed_a));
    o.b.push_back(matmul_value(i, matmul_seed_b));
    o.ia.push_back(matmul_int(i, matmul_seed_a));
    o.ib.push_back(matmul_int(i, matmul_seed_b));
  }
  return o;
}

struct reference {
  std::vector<double> ref, mag;  // n x n
};

reference make_reference(const operands& o) {
  reference r{std::vector<double>(std::size_t{o.n} * o.n), std::vector<double>(std::size_t{o.n} * o.n)};
  for (unsigned i = 0; i < o.n; ++i)
    matmul_reference_row(o.ia.data(), o.ib.data(), o.n, i, r.ref.data() + std::size_t{i} * o.n, r.mag.data() + std::size_t{i} * o.n);
  return r;
}

/// How many elements of c fail the bound.
std::size_t failures(const std::vector<float>& c, const reference& r, unsigned n) {
  std::size_t bad = 0;
  for (std::size_t e = 0; e < c.size(); ++e) bad += matmul_within_bound(c[e], r.ref[e], r.mag[e], n) ? 0 : 1;
  return bad;
}

std::vector<float> element_function_result(const operands& o) {
  std::vector<float> c(std::size_t{o.n} * o.n);
  for (unsigned i = 0; i < o.n; ++i)
    for (unsigned j = 0; j < o.n; ++j) c[std::size_t{i} * o.n + j] = matmul_dot(o.a.data(), o.b.data(), o.n, i, j);
  return c;
}

/// The most distinct 32-bit words one bank holds in a warp's access: its wavefronts.
unsigned conflict_degree(const std::vector<unsigned>& words) {
  std::map<unsigned, std::set<unsigned>> per_bank;
  for (unsigned w : words) per_bank[w % 32].insert(w);
  std::size_t worst = 0;
  for (const auto& [bank, ws] : per_bank) worst = std::max(worst, ws.size());
  return static_cast<unsigned>(worst);
}

// ---- operands, reference, bound ------------------------------------------------------------

TEST(Matmul, OperandsAreSmallNonZeroExactAndMixedInSign) {
  int negative = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) {
    const std::int32_t v = matmul_int(i, matmul_seed_a);
    ASSERT_EQ(v % 2 != 0, true) << i;  // odd: never 0
    ASSERT_LE(std::abs(v), 65535);
    const float f = matmul_value(i, matmul_seed_a);
    ASSERT_EQ(static_cast<double>(f), v * 0x1p-16) << i;  // exact
    ASSERT_GT(f, -1.0f);
    ASSERT_LT(f, 1.0f);
    negative += f < 0;
  }
  EXPECT_GT(negative, 45000);
  EXPECT_LT(negative, 55000);
  EXPECT_NE(matmul_value(5, matmul_seed_a), matmul_value(5, matmul_seed_b));
}

TEST(Matmul, ReferenceRowIsExact) {
  // Against 64-bit integer sums of the integer operands (units of 2^-32).
  const unsigned n = 37;
  const operands o = make_operands(n);
  std::vector<double> ref(n), mag(n);
  for (unsigned i : {0u, 5u, 36u}) {
    matmul_reference_row(o.ia.data(), o.ib.data(), n, i, ref.data(), mag.data());
    for (unsigned j = 0; j < n; ++j) {
      std::int64_t s = 0, m = 0;
      for (unsigned k = 0; k < n; ++k) {
        const std::int64_t p = std::int64_t{o.ia[i * n + k]} * o.ib[k * n + j];
        s += p;
        m += p < 0 ? -p : p;
      }
      EXPECT_EQ(ref[j], static_cast<double>(s) * 0x1p-32) << i << " " << j;
      EXPECT_EQ(mag[j], static_cast<double>(m) * 0x1p-32) << i << " " << j;
    }
  }
  // The worst case stays exact: n products of 65535^2 < 2^32 sum below 2^53 up to 2^21 terms.
  EXPECT_LE(static_cast<double>(matmul_max_exact_n) * 65535.0 * 65535.0, 0x1p53);
}

TEST(Matmul, ToleranceIsGammaN) {
  const double u = 0x1p-24;
  EXPECT_DOUBLE_EQ(matmul_tolerance(1), u / (1 - u));
  EXPECT_DOUBLE_EQ(matmul_tolerance(4096), 4096 * u / (1 - 4096 * u));
  EXPECT_NEAR(matmul_tolerance(4096), 2.44e-4, 0.01e-4);
  EXPECT_LT(matmul_tolerance(1000), matmul_tolerance(1024));
}

TEST(Matmul, BoundAcceptsInsideRejectsOutsideAndNaN) {
  const unsigned n = 1024;
  const double ref = 0.75, mag = 200.0, bound = matmul_tolerance(n) * mag;  // ~0.0122
  EXPECT_TRUE(matmul_within_bound(0.75f, ref, mag, n));
  EXPECT_TRUE(matmul_within_bound(static_cast<float>(ref + 0.9 * bound), ref, mag, n));
  EXPECT_TRUE(matmul_within_bound(static_cast<float>(ref - 0.9 * bound), ref, mag, n));
  EXPECT_FALSE(matmul_within_bound(static_cast<float>(ref + 1.1 * bound), ref, mag, n));
  EXPECT_FALSE(matmul_within_bound(static_cast<float>(ref - 1.1 * bound), ref, mag, n));
  EXPECT_FALSE(matmul_within_bound(nan_f, ref, mag, n));
  EXPECT_FALSE(matmul_within_bound(-0.25f, ref, mag, n));  // the harness's poison value
  EXPECT_NE(matmul_describe_expected(ref, mag, n).find("0.75 +- 0.0122"), std::string::npos)
      << matmul_describe_expected(ref, mag, n);
}

TEST(Matmul, ElementFunctionIsWithinTheBoundAndBugsAreNot) {
  for (unsigned n : {1u, 7u, 40u, 129u}) {
    const operands o = make_operands(n);
    const reference r = make_reference(o);
    const std::vector<float> c = element_function_result(o);
    EXPECT_EQ(failures(c, r, n), 0u) << n;
    if (n < 40) continue;
    // A dot product that drops its last term, or reads B transposed, must fail.
    std::vector<float> short_sum(c.size()), transposed(c.size());
    for (unsigned i = 0; i < n; ++i) {
      for (unsigned j = 0; j < n; ++j) {
        float s = 0, t = 0;
        for (unsigned k = 0; k < n; ++k) {
          if (k + 1 < n) s = std::fma(o.a[i * n + k], o.b[k * n + j], s);
          t = std::fma(o.a[i * n + k], o.b[j * n + k], t);
        }
        short_sum[i * n + j] = s;
        transposed[i * n + j] = t;
      }
    }
    EXPECT_GT(failures(short_sum, r, n), c.size() / 2) << n;
    EXPECT_GT(failures(transposed, r, n), c.size() * 9 / 10) << n;
  }
}

TEST(Matmul, ElementFunctionErrorIsFarBelowTheWorstCase) {
  // The bound is the worst case; the typical error should be orders of magnitude smaller,
  // so a kernel far from the element function's result is not hidden by a loose bound.
  const unsigned n = 256;
  const operands o = make_operands(n);
  const reference r = make_reference(o);
  const std::vector<float> c = element_function_result(o);
  double worst = 0;
  for (std::size_t e = 0; e < c.size(); ++e) worst = std::max(worst, std::fabs(c[e] - r.ref[e]) / (matmul_tolerance(n) * r.mag[e]));
  EXPECT_LT(worst, 0.1);
}

// ---- formulas ----------------------------------------------------------------------------

TEST(Matmul, FlopsAndBytes) {
  EXPECT_EQ(matmul_flops(1), 2.0);
  EXPECT_EQ(matmul_flops(4096), 137438953472.0);  // 2 * 2^36
  EXPECT_EQ(matmul_flops(1000), 2e9);
  EXPECT_EQ(matmul_bytes(1024), 3ull * 1024 * 1024 * 4);
  EXPECT_EQ(matmul_bytes(4096), 3ull << 26);  // 192 MiB
  EXPECT_EQ(matmul_bytes(1000), 12000000ull);
}

TEST(Matmul, Fp32LanesPerSm) {
  EXPECT_EQ(fp32_lanes_per_sm(8, 0), 64);   // A100
  EXPECT_EQ(fp32_lanes_per_sm(8, 6), 128);  // GA10x
  EXPECT_EQ(fp32_lanes_per_sm(8, 9), 128);  // Ada
  EXPECT_EQ(fp32_lanes_per_sm(9, 0), 128);  // H100, H200
  EXPECT_EQ(fp32_lanes_per_sm(10, 0), 128);
  EXPECT_EQ(fp32_lanes_per_sm(12, 0), 128);
  EXPECT_EQ(fp32_lanes_per_sm(7, 0), 64);  // V100
  EXPECT_EQ(fp32_lanes_per_sm(7, 5), 64);  // Turing
  EXPECT_EQ(fp32_lanes_per_sm(6, 0), 64);  // P100
  EXPECT_EQ(fp32_lanes_per_sm(6, 1), 128);
  EXPECT_EQ(fp32_lanes_per_sm(3, 0), 192);  // the lesson's GeForce 650M
  EXPECT_EQ(fp32_lanes_per_sm(2, 0), 0);
}

TEST(Matmul, Fp32PeakMatchesDatasheets) {
  // H100 SXM: 132 SMs at 1980 MHz, 66.9 TFLOP/s; A100: 108 SMs at 1410 MHz, 19.5 TFLOP/s.
  EXPECT_NEAR(fp32_peak_flops(132, fp32_lanes_per_sm(9, 0), 1980000) / 1e12, 66.9, 0.05);
  EXPECT_NEAR(fp32_peak_flops(108, fp32_lanes_per_sm(8, 0), 1410000) / 1e12, 19.5, 0.05);
  EXPECT_EQ(fp32_peak_flops(132, 0, 1980000), 0.0);
}

// ---- progression, names, grids ------------------------------------------------------------

TEST(Matmul, RegisteredVariantsAndPrevious) {
  EXPECT_FALSE(matmul_supports(matmul_variant::regtile, 1000));
  EXPECT_TRUE(matmul_supports(matmul_variant::regtile, 1024));
  EXPECT_TRUE(matmul_supports(matmul_variant::tile32, 1000));
  EXPECT_EQ(matmul_previous(matmul_variant::naive, 1024), std::nullopt);
  EXPECT_EQ(matmul_previous(matmul_variant::coalesced, 1024), matmul_variant::naive);
  EXPECT_EQ(matmul_previous(matmul_variant::tile32_padded, 1024), matmul_variant::tile32);
  EXPECT_EQ(matmul_previous(matmul_variant::cublas, 1024), matmul_variant::regtile);
  EXPECT_EQ(matmul_previous(matmul_variant::cublas, 1000), matmul_variant::ilp4);
  EXPECT_EQ(matmul_previous(matmul_variant::regtile, 4096), matmul_variant::ilp4);
  for (unsigned n : matmul_sizes) {
    EXPECT_TRUE(matmul_supports(matmul_variant::cublas, n));
    EXPECT_EQ(matmul_regtile_supports(n), n % 128 == 0) << n;
  }
  // The sizes include one that is not a multiple of any tile.
  EXPECT_TRUE(std::any_of(matmul_sizes.begin(), matmul_sizes.end(), [](unsigned n) { return n % 16 != 0; }));
  EXPECT_TRUE(std::is_sorted(matmul_sizes.begin(), matmul_sizes.end()));
}

TEST(Matmul, NamesRoundTrip) {
  std::set<std::string> names;
  for (unsigned n : matmul_sizes) {
    for (matmul_variant v : matmul_variants) {
      if (!matmul_supports(v, n)) continue;
      const bench_name name{"compute", "matmul", {{"variant", to_string(v)}, {"n", std::to_string(n)}}};
      const std::string s = name.str();
      EXPECT_EQ(parse_name(s), name) << s;
      names.insert(s);
    }
  }
  EXPECT_EQ(names.size(), 3u * 9 + 8);  // regtile only at multiples of 128
  EXPECT_TRUE(names.count("compute/matmul/variant:tile32_padded/n:1000"));
  EXPECT_TRUE(names.count("compute/matmul/variant:regtile/n:4096"));
  EXPECT_FALSE(names.count("compute/matmul/variant:regtile/n:1000"));
}

TEST(Matmul, GridsCoverNonMultiples) {
  const unsigned n = 1000;
  const auto naive = matmul_launch_shape_of(matmul_variant::naive, n);
  EXPECT_EQ(naive.grid_x, 32u);  // 31.25 blocks of 32
  EXPECT_EQ(naive.threads(), 1024u);
  const auto t16 = matmul_launch_shape_of(matmul_variant::tile16, n);
  EXPECT_EQ(t16.grid_x, 63u);  // 62.5 tiles of 16
  EXPECT_EQ(t16.block_x, 16u);
  EXPECT_EQ(t16.block_y, 16u);
  EXPECT_EQ(matmul_launch_shape_of(matmul_variant::tile32, n).grid_y, 32u);
  const auto i2 = matmul_launch_shape_of(matmul_variant::ilp2, n);
  EXPECT_EQ(i2.block_x, 32u);
  EXPECT_EQ(i2.block_y, 16u);
  const auto i4 = matmul_launch_shape_of(matmul_variant::ilp4, n);
  EXPECT_EQ(i4.block_y, 8u);
  EXPECT_EQ(i4.grid_x, 32u);
  const auto rt = matmul_launch_shape_of(matmul_variant::regtile, 4096);
  EXPECT_EQ(rt.grid_x, 32u);
  EXPECT_EQ(rt.grid_y, 32u);
  EXPECT_EQ(rt.threads(), 256u);
  EXPECT_EQ(matmul_launch_shape_of(matmul_variant::regtile, 1024).grid_x, 8u);  // 64 blocks
  EXPECT_EQ(matmul_launch_shape_of(matmul_variant::cublas, n).threads(), 0u);
  for (matmul_variant v : matmul_variants) {
    if (v == matmul_variant::cublas) continue;
    for (unsigned m : {1u, 15u, 16u, 17u, 1000u, 1024u, 4096u}) {
      if (!matmul_supports(v, m)) continue;
      const auto s = matmul_launch_shape_of(v, m);
      EXPECT_LE(s.threads(), 1024u);
      // Columns (x) and rows (y) of C covered by the grid, given what a block computes.
      const unsigned per_block = v == matmul_variant::regtile ? regtile_bm
                                 : (v == matmul_variant::naive || v == matmul_variant::coalesced) ? matmul_simple_block
                                                                                                   : matmul_tile_shape_of(v).tile;
      EXPECT_GE(s.grid_x * per_block, m) << to_string(v) << " " << m;
      EXPECT_LT((s.grid_x - 1) * per_block, m) << to_string(v) << " " << m;
      EXPECT_EQ(s.grid_x, s.grid_y);
    }
  }
}

TEST(Matmul, NaiveLanesWalkRowsCoalescedLanesWalkColumns) {
  for (unsigned lane = 1; lane < 32; ++lane) {
    // naive: lane l reads A row bx*32 + l: 32 rows apart in memory; all lanes share B's column.
    EXPECT_EQ(matmul_naive_coord(lane, 3, 2, 5).row, matmul_naive_coord(0, 3, 2, 5).row + lane);
    EXPECT_EQ(matmul_naive_coord(lane, 3, 2, 5).col, matmul_naive_coord(0, 3, 2, 5).col);
    // coalesced: consecutive columns, one row (A broadcast).
    EXPECT_EQ(matmul_coalesced_coord(lane, 3, 2, 5).col, matmul_coalesced_coord(0, 3, 2, 5).col + lane);
    EXPECT_EQ(matmul_coalesced_coord(lane, 3, 2, 5).row, matmul_coalesced_coord(0, 3, 2, 5).row);
  }
  EXPECT_EQ(matmul_naive_coord(4, 7, 1, 2).row, 36u);
  EXPECT_EQ(matmul_naive_coord(4, 7, 1, 2).col, 71u);
  EXPECT_EQ(matmul_coalesced_coord(4, 7, 1, 2).row, 71u);
  EXPECT_EQ(matmul_coalesced_coord(4, 7, 1, 2).col, 36u);
}

TEST(Matmul, SimpleKernelsWriteEveryElementOnce) {
  for (bool coalesced : {false, true}) {
    const unsigned n = 70;
    const auto s = matmul_launch_shape_of(coalesced ? matmul_variant::coalesced : matmul_variant::naive, n);
    std::vector<int> writes(n * n, 0);
    for (unsigned by = 0; by < s.grid_y; ++by)
      for (unsigned bx = 0; bx < s.grid_x; ++bx)
        for (unsigned ty = 0; ty < s.block_y; ++ty)
          for (unsigned tx = 0; tx < s.block_x; ++tx) {
            const matmul_coord p = coalesced ? matmul_coalesced_coord(tx, ty, bx, by) : matmul_naive_coord(tx, ty, bx, by);
            if (p.row < n && p.col < n) ++writes[p.row * n + p.col];
          }
    EXPECT_TRUE(std::all_of(writes.begin(), writes.end(), [](int w) { return w == 1; })) << coalesced;
  }
}

// ---- shared tiles ------------------------------------------------------------------------

/// Runs the tile kernel's per-thread steps on the host, block by block, phase by phase
/// (the barriers), with the shared slices poisoned before every staging.
template <matmul_tile_shape S>
std::vector<float> run_tile_kernel(const operands& o) {
  const unsigned n = o.n, g = matmul_blocks(n, S.tile);
  std::vector<float> c(std::size_t{n} * n, nan_f);
  for (unsigned by = 0; by < g; ++by) {
    for (unsigned bx = 0; bx < g; ++bx) {
      const unsigned row0 = by * S.tile, col0 = bx * S.tile;
      std::vector<float> acc(S.threads() * S.ilp, 0.0f);
      std::vector<float> as(S.shared_words()), bs(S.shared_words());
      for (unsigned k0 = 0; k0 < n; k0 += S.tile) {
        std::fill(as.begin(), as.end(), nan_f);
        std::fill(bs.begin(), bs.end(), nan_f);
        for (unsigned ty = 0; ty < S.block_y(); ++ty)
          for (unsigned tx = 0; tx < S.block_x(); ++tx) matmul_tile_stage<S>(o.a.data(), o.b.data(), n, row0, col0, k0, tx, ty, as.data(), bs.data());
        for (unsigned ty = 0; ty < S.block_y(); ++ty)
          for (unsigned tx = 0; tx < S.block_x(); ++tx)
            matmul_tile_accumulate<S>(as.data(), bs.data(), tx, ty, acc.data() + (ty * S.block_x() + tx) * S.ilp);
      }
      for (unsigned ty = 0; ty < S.block_y(); ++ty)
        for (unsigned tx = 0; tx < S.block_x(); ++tx) matmul_tile_store<S>(c.data(), n, row0, col0, tx, ty, acc.data() + (ty * S.block_x() + tx) * S.ilp);
    }
  }
  return c;
}

template <matmul_tile_shape S>
void expect_tile_kernel_matches(const char* what) {
  for (unsigned n : {1u, 33u, 64u, 100u}) {
    const operands o = make_operands(n);
    const std::vector<float> got = run_tile_kernel<S>(o);
    const std::vector<float> want = element_function_result(o);
    std::size_t bad = 0;
    for (std::size_t e = 0; e < got.size(); ++e) bad += got[e] == want[e] ? 0 : 1;  // same k order: bit for bit
    EXPECT_EQ(bad, 0u) << what << " n=" << n;
  }
}

TEST(Matmul, TileKernelsMatchTheElementFunctionBitForBit) {
  expect_tile_kernel_matches<tile16_shape>("tile16");
  expect_tile_kernel_matches<tile32_shape>("tile32");
  expect_tile_kernel_matches<tile32_padded_shape>("tile32_padded");
  expect_tile_kernel_matches<ilp2_shape>("ilp2");
  expect_tile_kernel_matches<ilp4_shape>("ilp4");
}

TEST(Matmul, TileShapes) {
  EXPECT_EQ(tile16_shape.threads(), 256u);
  EXPECT_EQ(tile32_shape.threads(), 1024u);
  EXPECT_EQ(ilp2_shape.threads(), 512u);
  EXPECT_EQ(ilp4_shape.threads(), 256u);
  EXPECT_EQ(tile32_shape.shared_words(), 32u * 32);
  EXPECT_EQ(tile32_padded_shape.shared_words(), 32u * 33);
  // The progression changes one thing per step from tile32 on.
  EXPECT_EQ(tile32_padded_shape.tile, tile32_shape.tile);
  EXPECT_EQ(tile32_padded_shape.pad, tile32_shape.pad + 1);
  EXPECT_EQ(ilp2_shape.pad, tile32_padded_shape.pad);
  EXPECT_EQ(ilp4_shape.transpose_a, ilp2_shape.transpose_a);
}

struct tile_degrees {
  unsigned a_store = 0, b_store = 0, a_load = 0, b_load = 0;
};

/// Worst conflict degree of each shared access, over every warp, staging slot and k.
template <matmul_tile_shape S>
tile_degrees tile_conflicts() {
  tile_degrees d;
  for (unsigned warp = 0; warp < S.threads() / 32; ++warp) {
    for (unsigned r = 0; r < S.ilp; ++r) {
      std::vector<unsigned> as, bs;
      for (unsigned lane = 0; lane < 32; ++lane) {
        const unsigned tid = warp * 32 + lane, tx = tid % S.block_x(), ty = tid / S.block_x();
        as.push_back(matmul_tile_a_word<S>(ty + r * S.block_y(), tx));
        bs.push_back(matmul_tile_b_word<S>(ty + r * S.block_y(), tx));
      }
      d.a_store = std::max(d.a_store, conflict_degree(as));
      d.b_store = std::max(d.b_store, conflict_degree(bs));
      for (unsigned k = 0; k < S.tile; ++k) {
        std::vector<unsigned> al, bl;
        for (unsigned lane = 0; lane < 32; ++lane) {
          const unsigned tid = warp * 32 + lane, tx = tid % S.block_x(), ty = tid / S.block_x();
          al.push_back(matmul_tile_a_word<S>(ty + r * S.block_y(), k));
          bl.push_back(matmul_tile_b_word<S>(k, tx));
        }
        d.a_load = std::max(d.a_load, conflict_degree(al));
        d.b_load = std::max(d.b_load, conflict_degree(bl));
      }
    }
  }
  return d;
}

TEST(Matmul, TileBankConflictsAreWhereTheCommentsSay) {
  const tile_degrees t16 = tile_conflicts<tile16_shape>();
  EXPECT_EQ(t16.a_store + t16.b_store + t16.a_load + t16.b_load, 4u);  // all conflict-free
  const tile_degrees t32 = tile_conflicts<tile32_shape>();
  EXPECT_EQ(t32.a_store, 32u);  // As[tx][ty]: the whole warp in bank ty
  EXPECT_EQ(t32.b_store, 1u);
  EXPECT_EQ(t32.a_load, 1u);  // As[k][ty]: one word, a broadcast
  EXPECT_EQ(t32.b_load, 1u);
  for (const tile_degrees& d : {tile_conflicts<tile32_padded_shape>(), tile_conflicts<ilp2_shape>(), tile_conflicts<ilp4_shape>()}) {
    EXPECT_EQ(d.a_store, 1u);
    EXPECT_EQ(d.b_store, 1u);
    EXPECT_EQ(d.a_load, 1u);
    EXPECT_EQ(d.b_load, 1u);
  }
}

// ---- register tiles ----------------------------------------------------------------------

TEST(Matmul, RegtileThreadsCoverTheBlockTileOnce) {
  std::vector<int> owner(regtile_bm * regtile_bn, 0);
  for (unsigned tid = 0; tid < regtile_threads; ++tid)
    for (unsigned r = 0; r < regtile_tm; ++r)
      for (unsigned c = 0; c < regtile_tn; ++c) {
        const unsigned row = regtile_row(tid, r), col = regtile_col(tid, c);
        ASSERT_LT(row, regtile_bm);
        ASSERT_LT(col, regtile_bn);
        ++owner[row * regtile_bn + col];
      }
  EXPECT_TRUE(std::all_of(owner.begin(), owner.end(), [](int w) { return w == 1; }));
  // The float4 groups: 4 consecutive rows / columns starting at a multiple of 4.
  for (unsigned tid = 0; tid < regtile_threads; ++tid) {
    for (unsigned h = 0; h < 2; ++h) {
      EXPECT_EQ(regtile_row(tid, 4 * h) % 4, 0u);
      EXPECT_EQ(regtile_col(tid, 4 * h) % 4, 0u);
      for (unsigned q = 1; q < 4; ++q) {
        EXPECT_EQ(regtile_row(tid, 4 * h + q), regtile_row(tid, 4 * h) + q);
        EXPECT_EQ(regtile_col(tid, 4 * h + q), regtile_col(tid, 4 * h) + q);
      }
    }
  }
}

TEST(Matmul, RegtileLoadsCoverTheSlicesOnceAndCoalesce) {
  std::vector<int> a(regtile_bm * regtile_bk, 0), b(regtile_bk * regtile_bn, 0);
  for (unsigned tid = 0; tid < regtile_threads; ++tid) {
    const regtile_piece pa = regtile_a_piece(tid), pb = regtile_b_piece(tid);
    ASSERT_EQ(pa.col % 4, 0u);
    ASSERT_EQ(pb.col % 4, 0u);
    for (unsigned q = 0; q < 4; ++q) {
      ++a.at((pa.row) * regtile_bk + pa.col + q);
      ++b.at((pb.row) * regtile_bn + pb.col + q);
    }
  }
  EXPECT_TRUE(std::all_of(a.begin(), a.end(), [](int w) { return w == 1; }));
  EXPECT_TRUE(std::all_of(b.begin(), b.end(), [](int w) { return w == 1; }));
  // A warp reads 16 rows of A, 32 bytes each (whole sectors), and 512 contiguous bytes of B.
  for (unsigned warp = 0; warp < regtile_threads / 32; ++warp) {
    std::set<unsigned> rows, b_rows;
    for (unsigned lane = 0; lane < 32; ++lane) {
      rows.insert(regtile_a_piece(warp * 32 + lane).row);
      b_rows.insert(regtile_b_piece(warp * 32 + lane).row);
    }
    EXPECT_EQ(rows.size(), 16u);
    EXPECT_EQ(b_rows.size(), 1u);
  }
}

TEST(Matmul, RegtileSharedAccessesAreConflictFreeAndAligned) {
  for (unsigned warp = 0; warp < regtile_threads / 32; ++warp) {
    // The transposed A store, one of 4 components at a time: padding removes a 2-way conflict.
    for (unsigned q = 0; q < 4; ++q) {
      std::vector<unsigned> padded, unpadded;
      for (unsigned lane = 0; lane < 32; ++lane) {
        const regtile_piece p = regtile_a_piece(warp * 32 + lane);
        padded.push_back(regtile_a_word(p.row, p.col + q));
        unpadded.push_back(regtile_a_word(p.row, p.col + q, regtile_bm));
      }
      EXPECT_EQ(conflict_degree(padded), 1u);
      EXPECT_EQ(conflict_degree(unpadded), 2u);
    }
    // Fragment reads: the warp's float4s of one k-row fit one 128-byte wavefront each.
    for (unsigned k = 0; k < regtile_bk; ++k) {
      for (unsigned h = 0; h < 2; ++h) {
        std::set<unsigned> a_words, b_words;
        for (unsigned lane = 0; lane < 32; ++lane) {
          const unsigned tid = warp * 32 + lane;
          const unsigned aw = regtile_a_word(regtile_row(tid, 4 * h), k), bw = regtile_b_word(k, regtile_col(tid, 4 * h));
          EXPECT_EQ(aw % 4, 0u);  // 16-byte aligned
          EXPECT_EQ(bw % 4, 0u);
          for (unsigned q = 0; q < 4; ++q) {
            a_words.insert(aw + q);
            b_words.insert(bw + q);
          }
        }
        EXPECT_EQ(a_words.size(), 16u);
        EXPECT_EQ(b_words.size(), 32u);
        EXPECT_EQ(conflict_degree({a_words.begin(), a_words.end()}), 1u);
        EXPECT_EQ(conflict_degree({b_words.begin(), b_words.end()}), 1u);
      }
    }
  }
  // Each staged B row is a float4 store of consecutive words.
  EXPECT_EQ(regtile_b_word(1, 4) - regtile_b_word(1, 0), 4u);
}

struct regtile_thread {
  float acc[regtile_tm][regtile_tn] = {};
  matmul_f4 fa{}, fb{};
};

/// Runs the register-tiled kernel's per-thread steps on the host, phase by phase.
std::vector<float> run_regtile_kernel(const operands& o) {
  const unsigned n = o.n;
  std::vector<float> c(std::size_t{n} * n, nan_f);
  for (unsigned by = 0; by < n / regtile_bm; ++by) {
    for (unsigned bx = 0; bx < n / regtile_bn; ++bx) {
      const unsigned row0 = by * regtile_bm, col0 = bx * regtile_bn;
      std::vector<float> as(2 * regtile_a_words, nan_f), bs(2 * regtile_b_words, nan_f);
      std::vector<regtile_thread> th(regtile_threads);
      for (unsigned tid = 0; tid < regtile_threads; ++tid) regtile_fetch(o.a.data(), o.b.data(), n, row0, col0, 0, tid, th[tid].fa, th[tid].fb);
      for (unsigned tid = 0; tid < regtile_threads; ++tid) regtile_stage(as.data(), bs.data(), tid, th[tid].fa, th[tid].fb);
      const unsigned tiles = n / regtile_bk;
      for (unsigned t = 0; t < tiles; ++t) {
        const unsigned cur = t & 1u;
        const bool more = t + 1 < tiles;
        float* as_cur = as.data() + cur * regtile_a_words;
        float* bs_cur = bs.data() + cur * regtile_b_words;
        float* as_next = as.data() + (cur ^ 1u) * regtile_a_words;
        float* bs_next = bs.data() + (cur ^ 1u) * regtile_b_words;
        if (more) {
          for (unsigned tid = 0; tid < regtile_threads; ++tid)
            regtile_fetch(o.a.data(), o.b.data(), n, row0, col0, (t + 1) * regtile_bk, tid, th[tid].fa, th[tid].fb);
          // What the block staged last time is dead: poison it, so a read of it shows.
          std::fill(as_next, as_next + regtile_a_words, nan_f);
          std::fill(bs_next, bs_next + regtile_b_words, nan_f);
        }
        for (unsigned tid = 0; tid < regtile_threads; ++tid) regtile_accumulate(as_cur, bs_cur, tid, th[tid].acc);
        if (more)
          for (unsigned tid = 0; tid < regtile_threads; ++tid) regtile_stage(as_next, bs_next, tid, th[tid].fa, th[tid].fb);
      }
      for (unsigned tid = 0; tid < regtile_threads; ++tid) regtile_store(c.data(), n, row0, col0, tid, th[tid].acc);
    }
  }
  return c;
}

TEST(Matmul, RegtileKernelMatchesTheElementFunctionBitForBit) {
  for (unsigned n : {128u, 256u}) {
    const operands o = make_operands(n);
    const std::vector<float> got = run_regtile_kernel(o);
    const std::vector<float> want = element_function_result(o);
    std::size_t bad = 0;
    for (std::size_t e = 0; e < got.size(); ++e) bad += got[e] == want[e] ? 0 : 1;
    EXPECT_EQ(bad, 0u) << n;
    EXPECT_EQ(failures(got, make_reference(o), n), 0u) << n;
  }
}

// ---- verification sample ------------------------------------------------------------------

TEST(Matmul, CheckRows) {
  for (unsigned n : {1u, 1000u, 1024u}) {
    const auto rows = matmul_check_rows(n);
    ASSERT_EQ(rows.size(), n);
    EXPECT_EQ(rows.front(), 0u);
    EXPECT_EQ(rows.back(), n - 1);
  }
  for (unsigned n : {1025u, 2048u, 2500u, 4096u}) {
    const auto rows = matmul_check_rows(n);
    EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end()));
    EXPECT_EQ(std::set<unsigned>(rows.begin(), rows.end()).size(), rows.size());
    EXPECT_EQ(rows.front(), 0u);
    EXPECT_EQ(rows.back(), n - 1);
    EXPECT_LE(rows.size(), 129u);
    std::set<unsigned> residues;
    for (unsigned r : rows) {
      EXPECT_LT(r, n);
      residues.insert(r % regtile_bm);
    }
    if (n % regtile_bm == 0) {
      EXPECT_EQ(residues.size(), regtile_bm) << n;  // every accumulator row
    }
  }
  EXPECT_EQ(matmul_check_rows(4096).size(), 129u);
}

}  // namespace
}  // namespace membench::compute
