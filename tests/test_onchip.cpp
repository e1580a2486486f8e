// On-chip families (issue 6) without a GPU: the bank model and the address map of the
// bank-conflict kernel, the index maps of the cache kernels, the L1/shared split model,
// host simulations of every kernel against its reference, and the bytes formulas.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "kernels/cache/constant.hpp"
#include "kernels/cache/l1_split.hpp"
#include "kernels/cache/read_only.hpp"
#include "kernels/cache/stencil.hpp"
#include "kernels/local/spill.hpp"
#include "kernels/shared/bank_conflict.hpp"

namespace membench {
namespace {

// ---- S1 shared/bank_conflict ------------------------------------------------------------

using shared::bank_conflict_degree;
using shared::bank_element;
using shared::bank_of;
using shared::bank_pattern;
using shared::bank_warp_addresses;
using shared::lane_stride;
using shared::warp_wavefronts;

TEST(BankConflict, LaneBanksForStrides) {
  // 32-bit words: lane l of warp 0 at step 0 reads word l * stride, bank (l * stride) mod 32.
  for (unsigned stride : {1u, 2u, 3u, 8u, 32u, 33u}) {
    const auto a = bank_warp_addresses(stride, 0, 0, 4);
    for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(bank_of(a[lane]), lane * stride % 32) << stride << " " << lane;
  }
  // Stride 2: lanes l and l + 16 share a bank (different words): 2-way.
  const auto s2 = bank_warp_addresses(2, 0, 0, 4);
  EXPECT_EQ(bank_of(s2[0]), bank_of(s2[16]));
  EXPECT_NE(s2[0], s2[16]);
  // 64-bit words cover two banks: lane l of a padded [32][33] tile starts at bank 2l mod 32.
  const auto p8 = bank_warp_addresses(lane_stride(bank_pattern::padded, 0), 0, 0, 8);
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(bank_of(p8[lane]), 2 * lane % 32);
}

TEST(BankConflict, DegreeIsGcdOfStrideAndBanks) {
  for (unsigned stride = 1; stride <= 64; ++stride) {
    EXPECT_EQ(bank_conflict_degree(stride, 4), std::gcd(stride, 32u)) << "32-bit stride " << stride;
    // 64-bit words are served a half-warp at a time: 16 lanes over 32 banks.
    EXPECT_EQ(bank_conflict_degree(stride, 8), std::gcd(stride, 16u)) << "64-bit stride " << stride;
  }
  EXPECT_EQ(bank_conflict_degree(33, 4), 1.0);
  EXPECT_EQ(bank_conflict_degree(32, 4), 32.0);
  EXPECT_EQ(bank_conflict_degree(32, 8), 16.0);
}

TEST(BankConflict, PatternsMapToTheirLaneStrides) {
  EXPECT_EQ(lane_stride(bank_pattern::strided, 7), 7u);
  EXPECT_EQ(lane_stride(bank_pattern::tile, 7), 32u);
  EXPECT_EQ(lane_stride(bank_pattern::padded, 7), 33u);
  EXPECT_EQ(lane_stride(bank_pattern::broadcast, 7), 0u);
  for (unsigned width : {4u, 8u}) {
    EXPECT_EQ(bank_conflict_degree(lane_stride(bank_pattern::tile, 0), width), width == 4 ? 32.0 : 16.0);
    EXPECT_EQ(bank_conflict_degree(lane_stride(bank_pattern::padded, 0), width), 1.0) << width;
    EXPECT_EQ(bank_conflict_degree(lane_stride(bank_pattern::broadcast, 0), width), 1.0) << width;
  }
}

TEST(BankConflict, WavefrontModel) {
  // Conflict free: one wavefront per 128 bytes.
  EXPECT_EQ(warp_wavefronts(bank_warp_addresses(1, 0, 0, 4), 4), 1u);
  EXPECT_EQ(warp_wavefronts(bank_warp_addresses(1, 0, 0, 8), 8), 2u);
  EXPECT_EQ(warp_wavefronts(bank_warp_addresses(1, 0, 0, 16), 16), 4u);
  // Broadcast: every lane one word, one pass per phase.
  EXPECT_EQ(warp_wavefronts(bank_warp_addresses(0, 3, 5, 4), 4), 1u);
  EXPECT_EQ(warp_wavefronts(bank_warp_addresses(0, 3, 5, 8), 8), 2u);
  // Lanes sharing a word (multicast) do not conflict: pairs of lanes on 16 words.
  std::array<std::uint64_t, 32> pairs{};
  for (unsigned lane = 0; lane < 32; ++lane) pairs[lane] = 4 * (lane / 2);
  EXPECT_EQ(warp_wavefronts(pairs, 4), 1u);
  // Two lanes on the same bank, different words: 2 passes.
  std::array<std::uint64_t, 32> two{};
  for (unsigned lane = 0; lane < 32; ++lane) two[lane] = 4 * lane;
  two[5] = 4 * (32 + 7);
  EXPECT_EQ(warp_wavefronts(two, 4), 2u);
}

TEST(BankConflict, DegreeIsTheSameForEveryWarpAndStep) {
  for (unsigned width : {4u, 8u}) {
    for (unsigned stride : {1u, 2u, 6u, 16u, 32u, 33u}) {
      const unsigned first = warp_wavefronts(bank_warp_addresses(stride, 0, 0, width), width);
      for (unsigned warp = 0; warp < shared::bank_warps; ++warp)
        for (unsigned j = 0; j < shared::bank_unroll; ++j)
          ASSERT_EQ(warp_wavefronts(bank_warp_addresses(stride, warp, j, width), width), first) << stride << " " << width;
    }
  }
}

TEST(BankConflict, AccessesStayInsideTheTile) {
  for (unsigned stride = 0; stride <= 33; ++stride)
    EXPECT_LT(bank_element(stride, 31, shared::bank_warps - 1, shared::bank_unroll - 1), shared::bank_tile_elems);
}

template <class W>
void check_bank_reference(unsigned ls) {
  std::vector<W> tile(shared::bank_tile_elems);
  for (unsigned i = 0; i < tile.size(); ++i) tile[i] = shared::bank_value<W>(i);
  const unsigned reps = 3;
  for (unsigned tid = 0; tid < shared::bank_block; ++tid) {
    W acc = 0;
    for (unsigned r = 0; r < reps; ++r)
      for (unsigned j = 0; j < shared::bank_unroll; ++j) acc += tile[bank_element(ls, tid % 32, tid / 32, j)];
    ASSERT_EQ(acc, shared::bank_expected<W>(ls, tid, reps)) << ls << " " << tid;
  }
}

TEST(BankConflict, KernelSimulationMatchesReference) {
  for (unsigned ls : {0u, 1u, 2u, 17u, 32u, 33u}) {
    check_bank_reference<std::uint32_t>(ls);
    check_bank_reference<std::uint64_t>(ls);
  }
  // The tile holds non-trivial words, 64-bit ones with both halves set.
  std::set<std::uint64_t> distinct;
  for (unsigned i = 0; i < shared::bank_tile_elems; ++i) {
    const std::uint64_t v = shared::bank_value<std::uint64_t>(i);
    EXPECT_NE(v >> 32, 0u);
    distinct.insert(v);
  }
  EXPECT_EQ(distinct.size(), shared::bank_tile_elems);
}

TEST(BankConflict, Bytes) {
  EXPECT_EQ(shared::bank_bytes(256, 4, 128), 256u * 4 * (128 * 8 + 1));
  EXPECT_EQ(shared::bank_bytes(1, 8, 1), 8u * 9);
}

// ---- S3 local/spill ---------------------------------------------------------------------

// An independent implementation of the spill element function.
std::uint32_t spill_naive(unsigned n, std::uint32_t w, unsigned rot, unsigned rounds) {
  std::vector<std::uint32_t> a(n);
  for (unsigned i = 0; i < n; ++i) a[i] = w ^ (0x9E3779B9u * (i + 1));
  for (unsigned r = 0; r < rounds; ++r)
    for (unsigned i = 0; i < n; ++i) a[i] = 5u * a[i] + a[(i + rot) % n] + r;
  std::uint32_t acc = 0;
  for (unsigned i = 0; i < n; ++i) acc += a[i] * (2 * i + 1);
  return acc;
}

template <unsigned N>
void check_spill() {
  EXPECT_EQ(local::spill_rounds(N) * N, local::spill_updates);
  for (std::uint64_t t : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{12345}, local::spill_threads - 1}) {
    const std::uint32_t w = pattern_word(t, local::spill_seed);
    EXPECT_EQ(local::spill_expected<N>(t), spill_naive(N, w, local::spill_rotation, local::spill_rounds(N))) << N;
    // The run-time rotation changes the result: the kernel argument matters.
    EXPECT_NE(local::spill_element<N>(w, local::spill_rotation + 1, local::spill_rounds(N)), local::spill_expected<N>(t));
  }
}

TEST(Spill, ElementMatchesIndependentImplementation) {
  check_spill<8>();
  check_spill<16>();
  check_spill<32>();
  check_spill<64>();
}

TEST(Spill, Bytes) {
  EXPECT_EQ(local::spill_bytes(1, 8), 8u + 2048u * 12);
  EXPECT_EQ(local::spill_bytes(1024, 64), 1024u * (8 + 2048u * 12));
}

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
