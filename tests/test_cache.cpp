// Cache families without a GPU: the index maps of the read-only, constant and stencil
// kernels, the L1/shared split model, host simulations of every kernel against its
// reference, and the bytes formulas.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "kernels/cache/constant.hpp"
#include "kernels/cache/constant_latency.hpp"
#include "kernels/cache/l1_bandwidth.hpp"
#include "kernels/cache/l1_split.hpp"
#include "kernels/cache/l2_bandwidth.hpp"
#include "kernels/cache/read_only.hpp"
#include "kernels/cache/stencil.hpp"

namespace membench {
namespace {

// ---- C2 cache/read_only -----------------------------------------------------------------

TEST(ReadOnly, CoalescedLanesAreContiguousScatteredLanesAreNot) {
  const std::uint64_t n = std::uint64_t{8} << 20 >> 2;
  const std::uint64_t threads = cache::read_only_threads;
  for (std::uint64_t warp_first : {std::uint64_t{0}, std::uint64_t{32000}, threads - 32}) {
    for (unsigned k = 0; k < cache::read_only_loads; ++k) {
      std::set<std::uint64_t> sectors;
      for (unsigned lane = 0; lane < 32; ++lane) {
        const std::uint64_t e = cache::read_only_position(warp_first + lane, k, n, threads);
        const std::uint64_t c = cache::read_only_index<false>(e, n);
        EXPECT_EQ(c, cache::read_only_index<false>(cache::read_only_position(warp_first, k, n, threads), n) + lane);
        sectors.insert(cache::read_only_index<true>(e, n) * 4 / 32);
      }
      EXPECT_EQ(sectors.size(), 32u);  // one 32-byte sector per lane
    }
  }
}

TEST(ReadOnly, EveryTableElementIsReadEquallyOften) {
  const std::uint64_t n = 4096, threads = 1024;  // 16 loads per thread: every element 4 times
  for (bool scattered : {false, true}) {
    std::vector<int> reads(n, 0);
    for (std::uint64_t t = 0; t < threads; ++t)
      for (unsigned k = 0; k < cache::read_only_loads; ++k) {
        const std::uint64_t e = cache::read_only_position(t, k, n, threads);
        ++reads[scattered ? cache::read_only_index<true>(e, n) : cache::read_only_index<false>(e, n)];
      }
    for (int r : reads) ASSERT_EQ(r, 4) << scattered;
  }
}

TEST(ReadOnly, EachThreadReadsSixteenDifferentElementsAtTheRealGrid) {
  // The suite's tables (128 KiB and 8 MiB are smaller than the grid; 256 MiB is not).
  for (std::uint64_t n : {std::uint64_t{1} << 15, std::uint64_t{1} << 21, std::uint64_t{1} << 26}) {
    for (std::uint64_t t : {std::uint64_t{0}, std::uint64_t{12345}, cache::read_only_threads - 1}) {
      for (bool scattered : {false, true}) {
        std::set<std::uint64_t> seen;
        for (unsigned k = 0; k < cache::read_only_loads; ++k) {
          const std::uint64_t e = cache::read_only_position(t, k, n, cache::read_only_threads);
          seen.insert(scattered ? cache::read_only_index<true>(e, n) : cache::read_only_index<false>(e, n));
        }
        EXPECT_EQ(seen.size(), cache::read_only_loads) << n << " " << t << " " << scattered;
      }
    }
  }
}

template <bool Scattered>
void check_read_only_reference(std::uint64_t n, std::uint64_t threads) {
  std::vector<float> table(n);
  for (std::uint64_t i = 0; i < n; ++i) table[i] = pattern_value<float>(i, cache::read_only_seed);
  for (std::uint64_t t = 0; t < threads; ++t) {
    float acc = 0;
    for (unsigned k = 0; k < cache::read_only_loads; ++k)
      acc += table[cache::read_only_index<Scattered>(cache::read_only_position(t, k, n, threads), n)];
    ASSERT_EQ(acc, (cache::read_only_expected<Scattered>(t, n, threads)));
    ASSERT_GE(acc, 16.0f);
  }
}

TEST(ReadOnly, KernelSimulationMatchesReference) {
  check_read_only_reference<false>(1024, 4096);
  check_read_only_reference<true>(1024, 4096);
  check_read_only_reference<true>(1 << 16, 512);
  EXPECT_EQ(cache::read_only_bytes(100), 100u * 17 * 4);
}

// ---- C3 cache/constant ------------------------------------------------------------------

TEST(Constant, UniformIsOneAddressPerWarpPerLaneIsThirtyTwo) {
  for (unsigned n = 256; n <= cache::constant_table_max; n *= 4) {
    for (std::uint64_t warp : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{777}, cache::constant_threads / 32 - 1}) {
      for (unsigned k = 0; k < cache::constant_loads; k += 7) {
        std::set<unsigned> uniform, per_lane;
        for (unsigned lane = 0; lane < 32; ++lane) {
          const std::uint64_t t = warp * 32 + lane;
          uniform.insert(cache::constant_index<false>(t, k, n));
          per_lane.insert(cache::constant_index<true>(t, k, n));
        }
        EXPECT_EQ(uniform.size(), 1u);
        EXPECT_EQ(per_lane.size(), 32u);
        for (unsigned i : per_lane) EXPECT_LT(i, n);
      }
    }
  }
}

template <bool PerLane>
void check_constant_reference(unsigned n) {
  std::vector<float> table(cache::constant_table_max);
  for (unsigned i = 0; i < table.size(); ++i) table[i] = cache::constant_value(i);
  for (std::uint64_t t = 0; t < 2048; ++t) {
    float acc = 0;
    for (unsigned k = 0; k < cache::constant_loads; ++k) acc += table[cache::constant_index<PerLane>(t, k, n)];
    ASSERT_EQ(acc, cache::constant_expected<PerLane>(t, n));
  }
}

TEST(Constant, KernelSimulationMatchesReference) {
  for (unsigned n : {256u, 16384u}) {
    check_constant_reference<false>(n);
    check_constant_reference<true>(n);
  }
  EXPECT_EQ(cache::constant_bytes(1024), 1024u * 65 * 4);
  EXPECT_EQ(cache::constant_table_max * sizeof(float), 64u << 10);
}

// ---- C4 cache/stencil -------------------------------------------------------------------

TEST(Stencil, TiledSimulationMatchesReference) {
  constexpr unsigned r = cache::stencil_radius, b = cache::stencil_block;
  const std::uint64_t n = 8 * b;
  std::vector<float> in(n + 2 * r);
  for (std::uint64_t k = 0; k < in.size(); ++k) in[k] = cache::stencil_input(k);
  for (std::uint64_t blk = 0; blk < n / b; ++blk) {
    // The kernel's shared tile: b points and r halo points on each side.
    std::vector<float> tile(b + 2 * r);
    for (unsigned tid = 0; tid < b; ++tid) {
      const std::uint64_t g = blk * b + tid;
      tile[tid + r] = in[g + r];
      if (tid < r) {
        tile[tid] = in[g];
        tile[tid + r + b] = in[g + b + r];
      }
    }
    for (unsigned tid = 0; tid < b; ++tid) {
      const float got = cache::stencil_point(tile.data() + tid + r, cache::stencil_host_coef{});
      ASSERT_EQ(got, cache::stencil_expected(blk * b + tid)) << blk << " " << tid;
    }
  }
}

TEST(Stencil, ApproximatesTheDerivativeOfARamp) {
  // The lesson's coefficients form a first-derivative operator: sum 2 j c_j ~ 1.
  std::vector<float> ramp(2 * cache::stencil_radius + 1);
  for (unsigned k = 0; k < ramp.size(); ++k) ramp[k] = static_cast<float>(k) + 100.0f;
  const float d = cache::stencil_point(ramp.data() + cache::stencil_radius, cache::stencil_host_coef{});
  EXPECT_NEAR(d, 1.0f, 1e-3f);
  EXPECT_EQ(cache::stencil_coefficient(1), 0.8f);
  EXPECT_EQ(cache::stencil_coefficient(4), -0.00357f);
}

TEST(Stencil, Bytes) {
  EXPECT_EQ(cache::stencil_bytes(256), (256u + 8) * 4 + 256u * 4);
  EXPECT_EQ(cache::stencil_bytes(std::uint64_t{1} << 28), ((std::uint64_t{1} << 28) * 2 + (std::uint64_t{1} << 20) * 8) * 4);
}

// ---- C1 cache/l1_split ------------------------------------------------------------------

TEST(L1Split, ShapeCoversTargetTraffic) {
  for (std::uint64_t kib : {16u, 48u, 160u, 384u}) {
    const auto s = cache::make_l1_split_shape(kib << 10);
    EXPECT_EQ(s.block_elems % cache::l1_split_block, 0u);
    EXPECT_GE(s.passes * (kib << 10), cache::l1_split_target);
    EXPECT_LT((s.passes - 1) * (kib << 10), cache::l1_split_target);
  }
  EXPECT_EQ(cache::make_l1_split_shape(16 << 10).passes, 512u);
}

TEST(L1Split, BlocksReadOnlyTheirOwnRegionEveryElementOncePerPass) {
  cache::l1_split_shape s;
  s.block_elems = 3 * cache::l1_split_block;
  s.passes = 2;
  std::vector<int> reads(2 * s.block_elems, 0);
  for (std::uint64_t b = 0; b < 2; ++b)
    for (unsigned tid = 0; tid < cache::l1_split_block; ++tid)
      for (std::uint64_t j = tid; j < s.block_elems; j += cache::l1_split_block) {
        ASSERT_LT(j, s.block_elems);
        ++reads[b * s.block_elems + j];
      }
  for (int r : reads) ASSERT_EQ(r, 1);
}

TEST(L1Split, WarpReferenceMatchesSimulation) {
  cache::l1_split_shape s;
  s.block_elems = 2 * cache::l1_split_block;
  s.passes = 5;
  for (std::uint64_t b = 0; b < 2; ++b) {
    std::vector<std::uint32_t> warp(cache::l1_split_warps, 0);
    for (unsigned tid = 0; tid < cache::l1_split_block; ++tid) {
      std::uint32_t acc = 0;
      for (std::uint32_t p = 0; p < s.passes; ++p)
        for (std::uint64_t j = tid; j < s.block_elems; j += cache::l1_split_block)
          acc += cache::l1_split_fold(cache::l1_split_value(b * s.block_elems + j), p);
      warp[tid / 32] += acc;
    }
    for (unsigned w = 0; w < cache::l1_split_warps; ++w) ASSERT_EQ(warp[w], cache::l1_split_warp_expected(s, b, w));
  }
  // Passes differ: the fold depends on the pass number.
  const word16 v = cache::l1_split_value(7);
  EXPECT_NE(cache::l1_split_fold(v, 0), cache::l1_split_fold(v, 1));
}

TEST(L1Split, Sm90SplitModel) {
  const std::uint64_t max = 228 << 10, reserved = 1 << 10;
  auto l1_kib = [&](int pct) { return (cache::sm90_unified_bytes - cache::sm90_smem_capacity(pct, max, reserved)) >> 10; };
  EXPECT_EQ(l1_kib(0), 248u);  // the reserved 1 KiB needs the 8 KiB configuration
  EXPECT_EQ(l1_kib(25), 192u);
  EXPECT_EQ(l1_kib(50), 124u);
  EXPECT_EQ(l1_kib(75), 60u);
  EXPECT_EQ(l1_kib(100), 28u);
  EXPECT_EQ(l1_kib(-1), 28u);
  EXPECT_EQ(cache::sm90_smem_capacity(0, max, 0), 0u);
  EXPECT_EQ(cache::sm90_smem_capacity(0, max, 70 << 10), 100u << 10);  // need wins over the preference
  EXPECT_EQ(cache::sm90_smem_capacity(0, max, 229 << 10), 0u);         // does not fit
  EXPECT_EQ(cache::preference_carveout(cache::cache_preference::l1), 0);
  EXPECT_EQ(cache::preference_carveout(cache::cache_preference::equal), 50);
  EXPECT_EQ(cache::preference_carveout(cache::cache_preference::shared), 100);
  EXPECT_EQ(cache::preference_carveout(cache::cache_preference::none), -1);
}

TEST(L1Split, Bytes) {
  const auto s = cache::make_l1_split_shape(64 << 10);
  EXPECT_EQ(cache::l1_split_bytes(s, 2), 2u * (128 * (64u << 10) + 32 * 4));
}

}  // namespace
}  // namespace membench

namespace membench::cache {
namespace {

// ---- B2 cache/l1_bandwidth ----------------------------------------------------------------

// The kernel on the host: block reads its SM's set `passes` times through the map.
template <class W>
std::uint32_t simulate_l1_block(std::uint64_t set_bytes, std::uint32_t smid, std::uint32_t slots,
                                std::uint32_t passes) {
  const std::uint32_t slot = l1_bw_slot(smid, slots);
  std::vector<std::uint32_t> words(set_bytes / 4);
  for (std::uint64_t i = 0; i < words.size(); ++i) words[i] = l1_bw_word(set_bytes, slot, i);
  const unsigned loads = l1_bw_loads(set_bytes, sizeof(W));
  std::uint32_t sum = 0;
  for (std::uint32_t t = 0; t < l1_bw_block; ++t) {
    for (std::uint32_t p = 0; p < passes; ++p) {
      for (unsigned k = 0; k < loads; ++k) {
        W v{};
        const std::uint32_t e = shared::bw_element(t, k, p, l1_bw_block);
        EXPECT_LT(std::uint64_t{e} * sizeof(W), set_bytes);
        std::memcpy(&v, words.data() + std::size_t{e} * (sizeof(W) / 4), sizeof(W));
        sum += shared::bw_fold(v);
      }
    }
  }
  return sum;
}

TEST(L1Bandwidth, SetsLaidOutSlotAfterSlot) {
  const std::uint64_t set_bytes = 16 << 10;
  EXPECT_EQ(l1_bw_sets_word(3, set_bytes), l1_bw_word(set_bytes, 0, 3));
  EXPECT_EQ(l1_bw_sets_word(2 * set_bytes / 4 + 5, set_bytes), l1_bw_word(set_bytes, 2, 5));
}

TEST(L1Bandwidth, LoadsPerThread) {
  EXPECT_EQ(l1_bw_loads(16 << 10, 16), 1u);
  EXPECT_EQ(l1_bw_loads(64 << 10, 16), 4u);
  EXPECT_EQ(l1_bw_loads(128 << 10, 16), 8u);
  EXPECT_EQ(l1_bw_loads(16 << 10, 4), 4u);
  EXPECT_EQ(l1_bw_loads(128 << 10, 4), 32u);
}

TEST(L1Bandwidth, ReferenceMatchesSimulatedBlocks) {
  // SM ids beyond the SM count wrap onto a slot; blocks on one SM expect the same sum.
  const std::vector<std::uint32_t> smids{0, 5, 131, 132, 140, 5};
  for (std::uint64_t set_bytes : {std::uint64_t{16} << 10, std::uint64_t{64} << 10}) {
    for (std::uint32_t passes : {1u, 3u}) {
      const auto expected = l1_bw_expected(smids, 132, set_bytes, passes);
      ASSERT_EQ(expected.size(), smids.size());
      for (std::size_t b = 0; b < smids.size(); ++b) {
        EXPECT_EQ(simulate_l1_block<std::uint32_t>(set_bytes, smids[b], 132, passes), expected[b]) << b;
        EXPECT_EQ(simulate_l1_block<word16>(set_bytes, smids[b], 132, passes), expected[b]) << b;
      }
      EXPECT_EQ(expected[1], expected[5]);
      EXPECT_EQ(expected[0], expected[3]);  // smid 132 wraps to slot 0
    }
  }
  // Every SM's set is different data: a block that read another SM's set fails.
  EXPECT_NE(l1_bw_set_sum(16 << 10, 0), l1_bw_set_sum(16 << 10, 1));
  EXPECT_NE(l1_bw_word(16 << 10, 0, 0), l1_bw_word(16 << 10, 1, 0));
}

TEST(L1Bandwidth, PassesAndBytes) {
  EXPECT_EQ(shared::bw_passes(l1_bw_bytes_per_sm, 16 << 10, 1), 2049u);
  EXPECT_EQ(shared::bw_passes(l1_bw_bytes_per_sm, 128 << 10, 1), 257u);
  EXPECT_EQ(l1_bw_bytes(132, 257, 128 << 10), 132ull * (257ull * (128 << 10) + 8));
  EXPECT_EQ(l1_bw_bytes(1, 1, 16 << 10), (16u << 10) + 8);
}

// ---- B2 cache/l2_bandwidth ----------------------------------------------------------------

TEST(L2Bandwidth, Shape) {
  const l2_bw_shape s = make_l2_bw_shape(2 << 20, 132 * 2048);
  EXPECT_EQ(s.n, (2u << 20) / 16);
  EXPECT_EQ(s.step, 132u * 2048 % ((2u << 20) / 16));
  EXPECT_EQ(s.loads, 1992u);  // 2^29 loads / 270336 threads = 1985.9, up to a multiple of 8
  for (std::uint64_t mib : {2, 4, 8, 16, 24, 32, 48}) {
    for (std::uint64_t per_sm : {1024, 1536, 2048}) {
      const std::uint64_t threads = 132 * per_sm;
      const l2_bw_shape t = make_l2_bw_shape(mib << 20, threads);
      EXPECT_EQ(t.loads % l2_bw_unroll, 0u);
      EXPECT_GE(std::uint64_t{t.loads} * threads * 16, l2_bw_target_bytes);
      EXPECT_LT(std::uint64_t{t.loads} * threads * 16, l2_bw_target_bytes + threads * 16 * l2_bw_unroll);
      EXPECT_LT(t.step, t.n);
      EXPECT_EQ(t.step % 32, 0u);  // warps stay on 32-element boundaries: 512 contiguous bytes
    }
  }
}

TEST(L2Bandwidth, WarpsReadContiguousAlignedStretches) {
  const l2_bw_shape s = make_l2_bw_shape(24 << 20, 132 * 1536);
  for (std::uint64_t warp : {0u, 1u, 4000u, 6335u}) {
    for (std::uint64_t j : {0u, 1u, 7u, 100u, 255u}) {
      const std::uint32_t first = l2_bw_element(s, warp * 32, j);
      EXPECT_EQ(first % 32, 0u);
      for (std::uint32_t lane = 0; lane < 32; ++lane) EXPECT_EQ(l2_bw_element(s, warp * 32 + lane, j), first + lane);
    }
  }
}

// The kernel on the host, stepping as it does (add step, subtract n on overflow).
std::uint32_t simulate_l2_block(const l2_bw_shape& s, std::uint32_t block, std::uint64_t b) {
  std::uint32_t sum = 0;
  for (std::uint64_t t = b * block; t < (b + 1) * block; ++t) {
    auto e = static_cast<std::uint32_t>(t % s.n);
    for (std::uint32_t j = 0; j < s.loads; ++j) {
      EXPECT_EQ(e, l2_bw_element(s, t, j));
      sum += shared::bw_fold(l2_bw_value(e));
      e += s.step;
      if (e >= s.n) e -= s.n;
    }
  }
  return sum;
}

TEST(L2Bandwidth, ReferenceMatchesSimulatedBlocks) {
  // A grid larger than the set (step < threads) and one smaller (the grid sweeps the set),
  // with ranges that wrap at n.
  for (std::uint32_t n : {100u, 1000u, 4096u}) {
    const std::uint32_t block = 32, blocks = 5;
    const l2_bw_shape s{n, blocks * block % n, 24};
    const auto prefix = l2_bw_prefix(n);
    for (std::uint64_t b = 0; b < blocks; ++b)
      EXPECT_EQ(l2_bw_block_expected(prefix, s, block, b), simulate_l2_block(s, block, b)) << n << " " << b;
  }
  const word16 v = l2_bw_value(0);
  EXPECT_NE(v.x, v.y);
  EXPECT_NE(shared::bw_fold(v), 0u);
}

TEST(L2Bandwidth, Bytes) {
  const l2_bw_shape s = make_l2_bw_shape(8 << 20, 528 * 512);
  EXPECT_EQ(l2_bw_bytes(s, 528, 512), 528ull * (512ull * s.loads * 16 + 4));
  EXPECT_EQ(l2_bw_bytes(l2_bw_shape{64, 0, 8}, 1, 32), 32u * 8 * 16 + 4);
}

TEST(ConstantLatency, TableWalkIsTheHostWalk) {
  // Following the table's offsets from offset 0, as the kernel does, reaches the node the
  // host walk reaches; the bytes between nodes stay zero.
  const std::uint64_t span = 4 << 10;
  const auto succ = chase_successors(static_cast<std::uint32_t>(chase_nodes(span, chase_line_bytes)));
  const auto table = constant_chase_table(succ, span);
  ASSERT_EQ(table.size(), span / 4);
  std::uint32_t offset = 0;
  for (std::uint64_t k = 0; k < 100; ++k) offset = table[offset / 4];
  EXPECT_EQ(offset, chase_node_offset(chase_walk(succ, 0, 100), chase_line_bytes));
  EXPECT_EQ(table[1], 0u);
}

}  // namespace
}  // namespace membench::cache
