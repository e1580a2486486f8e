// Shared-memory families without a GPU (S1 bank conflicts, B2 bandwidth): the bank model,
// the address maps of the kernels, host simulations of the kernels against their
// references, and the bytes formulas.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <set>
#include <vector>

#include "kernels/shared/bank_conflict.hpp"
#include "kernels/shared/bandwidth.hpp"

namespace membench::shared {
namespace {

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
      for (unsigned warp = 0; warp < bank_warps; ++warp)
        for (unsigned j = 0; j < bank_unroll; ++j)
          ASSERT_EQ(warp_wavefronts(bank_warp_addresses(stride, warp, j, width), width), first) << stride << " " << width;
    }
  }
}

TEST(BankConflict, AccessesStayInsideTheTile) {
  for (unsigned stride = 0; stride <= 33; ++stride)
    EXPECT_LT(bank_element(stride, 31, bank_warps - 1, bank_unroll - 1), bank_tile_elems);
}

template <class W>
void check_bank_reference(unsigned ls) {
  std::vector<W> tile(bank_tile_elems);
  for (unsigned i = 0; i < tile.size(); ++i) tile[i] = bank_value<W>(i);
  const unsigned reps = 3;
  for (unsigned tid = 0; tid < bank_block; ++tid) {
    W acc = 0;
    for (unsigned r = 0; r < reps; ++r)
      for (unsigned j = 0; j < bank_unroll; ++j) acc += tile[bank_element(ls, tid % 32, tid / 32, j)];
    ASSERT_EQ(acc, bank_expected<W>(ls, tid, reps)) << ls << " " << tid;
  }
}

TEST(BankConflict, KernelSimulationMatchesReference) {
  for (unsigned ls : {0u, 1u, 2u, 17u, 32u, 33u}) {
    check_bank_reference<std::uint32_t>(ls);
    check_bank_reference<std::uint64_t>(ls);
  }
  // The tile holds non-trivial words, 64-bit ones with both halves set.
  std::set<std::uint64_t> distinct;
  for (unsigned i = 0; i < bank_tile_elems; ++i) {
    const std::uint64_t v = bank_value<std::uint64_t>(i);
    EXPECT_NE(v >> 32, 0u);
    distinct.insert(v);
  }
  EXPECT_EQ(distinct.size(), bank_tile_elems);
}

TEST(BankConflict, Bytes) {
  EXPECT_EQ(bank_bytes(256, 4, 128), 256u * 4 * (128 * 8 + 1));
  EXPECT_EQ(bank_bytes(1, 8, 1), 8u * 9);
}

}  // namespace
}  // namespace membench::shared

namespace membench::shared {
namespace {

// ---- B2 shared/bandwidth ----------------------------------------------------------------

template <class W>
void check_bw_map() {
  constexpr std::uint32_t elems = smem_bw_elems<W>;
  constexpr unsigned loads = smem_bw_loads<W>;
  ASSERT_EQ(std::uint64_t{loads} * smem_bw_block, elems);
  for (std::uint32_t p : {0u, 1u, 5u, 15u, 16u, 255u}) {
    // Each pass: every element of the set exactly once over the block's loads.
    std::vector<int> seen(elems, 0);
    for (std::uint32_t t = 0; t < smem_bw_block; ++t) {
      for (unsigned k = 0; k < loads; ++k) {
        const std::uint32_t e = bw_element(t, k, p, smem_bw_block);
        ASSERT_LT(e, elems);
        ++seen[e];
        // The map moves every pass: no load address repeats in the next pass.
        EXPECT_NE(e, bw_element(t, k, p + 1, smem_bw_block));
      }
    }
    for (std::uint32_t e = 0; e < elems; ++e) ASSERT_EQ(seen[e], 1) << "pass " << p << " element " << e;
    // A warp reads 32 contiguous elements from a 32-element boundary: 32 x W bytes, every
    // 128-byte wavefront touching each bank once.
    for (std::uint32_t warp = 0; warp < smem_bw_block / 32; ++warp) {
      for (unsigned k = 0; k < loads; ++k) {
        const std::uint32_t first = bw_element(warp * 32, k, p, smem_bw_block);
        EXPECT_EQ(first % 32, 0u);
        // Each 128-byte phase of the warp (128 / W lanes) touches every bank exactly once.
        constexpr std::uint32_t words = sizeof(W) / 4, lanes_per_phase = 32 / words;
        for (std::uint32_t phase = 0; phase < 32 / lanes_per_phase; ++phase) {
          std::set<std::uint32_t> banks;
          for (std::uint32_t lane = phase * lanes_per_phase; lane < (phase + 1) * lanes_per_phase; ++lane) {
            EXPECT_EQ(bw_element(warp * 32 + lane, k, p, smem_bw_block), first + lane);
            for (std::uint32_t w = 0; w < words; ++w) banks.insert(((first + lane) * words + w) % 32);
          }
          EXPECT_EQ(banks.size(), 32u);
        }
      }
    }
  }
}

TEST(SharedBandwidth, MapIsAConflictFreePermutationEveryPass) {
  check_bw_map<std::uint32_t>();
  check_bw_map<word8>();
  check_bw_map<word16>();
}

// The kernel on the host: a block copies the set, reads it `passes` times through the map
// and sums the folded loads.
template <class W>
std::uint32_t simulate_smem_block(std::uint32_t passes) {
  std::vector<std::uint32_t> words(smem_bw_set_bytes / 4);
  for (std::uint32_t i = 0; i < words.size(); ++i) words[i] = smem_bw_word(i);
  std::uint32_t sum = 0;
  for (std::uint32_t t = 0; t < smem_bw_block; ++t) {
    for (std::uint32_t p = 0; p < passes; ++p) {
      for (unsigned k = 0; k < smem_bw_loads<W>; ++k) {
        W v{};
        std::memcpy(&v, words.data() + std::size_t{bw_element(t, k, p, smem_bw_block)} * (sizeof(W) / 4), sizeof(W));
        sum += bw_fold(v);
      }
    }
  }
  return sum;
}

TEST(SharedBandwidth, ReferenceMatchesSimulatedBlock) {
  for (std::uint32_t passes : {1u, 3u}) {
    EXPECT_EQ(simulate_smem_block<std::uint32_t>(passes), smem_bw_expected(passes));
    EXPECT_EQ(simulate_smem_block<word8>(passes), smem_bw_expected(passes));
    EXPECT_EQ(simulate_smem_block<word16>(passes), smem_bw_expected(passes));
  }
  // Non-trivial data: the set's sum is not zero and the words differ.
  EXPECT_NE(smem_bw_expected(1), 0u);
  EXPECT_NE(smem_bw_word(0), smem_bw_word(1));
}

TEST(SharedBandwidth, PassesAreOddAndSizeTheLaunch) {
  EXPECT_EQ(bw_passes(32u << 20, 32u << 10, 4), 257u);
  EXPECT_EQ(bw_passes(32u << 20, 32u << 10, 3), 341u);
  EXPECT_EQ(bw_passes(32u << 20, 32u << 10, 1), 1025u);
  EXPECT_EQ(bw_passes(32u << 20, 128u << 10, 1), 257u);
  EXPECT_EQ(bw_passes(16, 32u << 10, 0), 1u);  // never zero passes
  for (std::uint64_t bpsm = 1; bpsm <= 8; ++bpsm) EXPECT_EQ(bw_passes(smem_bw_bytes_per_sm, smem_bw_set_bytes, bpsm) % 2, 1u);
}

TEST(SharedBandwidth, Bytes) {
  EXPECT_EQ(smem_bw_bytes(528, 257), 528ull * (257ull * 32768 + 4));
  EXPECT_EQ(smem_bw_bytes(1, 1), 32768u + 4);
}

TEST(SharedBandwidth, BytesPerClock) {
  EXPECT_DOUBLE_EQ(bytes_per_clk(1'000'000'000, 1e-3, 1000), 1000.0);
  EXPECT_DOUBLE_EQ(bytes_per_clk(1'000'000'000, 1e-3, 1000, 4), 250.0);
  EXPECT_TRUE(std::isnan(bytes_per_clk(1, 1e-3, std::nan(""))));
  EXPECT_TRUE(std::isnan(bytes_per_clk(1, 1e-3, 0)));
  EXPECT_TRUE(std::isnan(bytes_per_clk(1, 0, 1000)));
}

}  // namespace
}  // namespace membench::shared
