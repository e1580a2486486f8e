// Shared-memory families without a GPU (S1 bank conflicts): the bank model, the address
// map of the bank-conflict kernel, a host simulation of the kernel against its reference,
// and the bytes formula.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "kernels/shared/bank_conflict.hpp"

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
