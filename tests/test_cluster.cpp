// Cluster families (B4 distributed shared memory) without a GPU: names, the reasons a GPU
// or build is refused, the chain's node layout and a host walk of it as the latency kernel
// walks it, the result check, the bandwidth kernel's index map and a host simulation of
// its sums against the reference, the SM checks and the bytes formulas.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/naming.hpp"
#include "kernels/cluster/dsm.hpp"
#include "kernels/cluster/dsm_bandwidth.hpp"
#include "kernels/cluster/dsm_latency.hpp"

namespace membench::cluster {
namespace {

void expect_name(const bench_name& n, const std::string& expected) {
  EXPECT_EQ(n.str(), expected);
  EXPECT_EQ(parse_name(expected + "/manual_time"), n) << expected;
}

TEST(DsmNames, KeysAndTokens) {
  expect_name(bench_name{"cluster", "dsm_latency", {{"cluster", "16"}, {"target", to_string(dsm_target::remote)}}},
              "cluster/dsm_latency/cluster:16/target:remote");
  expect_name(bench_name{"cluster", "dsm_bandwidth", {{"cluster", "1"}}}, "cluster/dsm_bandwidth/cluster:1");
  EXPECT_STREQ(to_string(dsm_target::own), "own");
  EXPECT_EQ(dsm_latency_clusters.front(), 2u);
  EXPECT_EQ(dsm_bandwidth_clusters.front(), 1u);
  EXPECT_EQ(dsm_bandwidth_clusters.back(), 16u);
}

TEST(DsmFeasibility, ReasonsNameTheProblem) {
  EXPECT_EQ(dsm_arch_problem(90), "");
  EXPECT_EQ(dsm_arch_problem(100), "");
  EXPECT_EQ(dsm_arch_problem(80), "needs sm_90 (thread-block clusters); this GPU is sm_80");
  EXPECT_EQ(dsm_arch_problem(89), "needs sm_90 (thread-block clusters); this GPU is sm_89");
  EXPECT_EQ(dsm_binary_problem(90), "");
  EXPECT_NE(dsm_binary_problem(80).find("sm_80"), std::string::npos);
  EXPECT_EQ(dsm_fit_problem(16, 128 << 10, 7), "");
  EXPECT_EQ(dsm_fit_problem(16, 128 << 10, 0),
            "a cluster of 16 blocks with 128 KiB of shared memory each does not fit on this GPU "
            "(cudaOccupancyMaxActiveClusters is 0)");
}

TEST(DsmLatency, TargetRanks) {
  for (unsigned c : dsm_latency_clusters) {
    EXPECT_EQ(dsm_target_rank(dsm_target::own, c), 0u);
    EXPECT_EQ(dsm_target_rank(dsm_target::remote, c), c - 1);
  }
}

TEST(DsmLatency, NodeLayout) {
  EXPECT_EQ(dsm_chain_nodes, 128u);
  for (std::uint32_t i : {0u, 1u, 77u, dsm_chain_nodes - 1}) {
    // The link is the node's first 8 bytes, the tag the next 4, both inside the node.
    EXPECT_EQ(dsm_link_index(i) * 8, i * chase_line_bytes);
    EXPECT_EQ(dsm_tag_index(i) * 4, i * chase_line_bytes + dsm_tag_byte);
    EXPECT_LT(dsm_tag_byte + 4, chase_line_bytes);
  }
  // The sink lies after the last node and inside the request.
  EXPECT_GE(dsm_sink_index * 8, dsm_link_index(dsm_chain_nodes - 1) * 8 + chase_line_bytes);
  EXPECT_LE(dsm_sink_index * 8 + 8, dsm_chain_smem_bytes);
}

TEST(DsmLatency, OneBlockPerSm) {
  // H100/H200: 228 KiB per SM, 227 KiB a block may ask for, 1 KiB reserved per block.
  const std::uint64_t per_sm = 228 << 10, optin = 227 << 10, reserved = 1 << 10;
  const std::uint64_t smem = dsm_chase_smem(per_sm);
  EXPECT_EQ(smem, 115u << 10);
  EXPECT_GT(2 * (smem + reserved), per_sm);  // no second block fits
  EXPECT_LE(smem, optin);
  EXPECT_GE(smem, dsm_chain_smem_bytes);
  EXPECT_EQ(dsm_chase_smem(16 << 10), dsm_chain_smem_bytes);  // never below the chain
  // The bandwidth kernel's array (plus its 128 bytes of static memory) keeps one block per SM too.
  EXPECT_GT(2 * (dsm_bw_array_bytes + 128 + reserved), per_sm);
  EXPECT_LE(dsm_bw_array_bytes + 128, optin);
}

// The latency kernel on the host: every rank's chain at its own window base, links written
// as the kernel writes them, walked from the target's node 0 by loading each address.
TEST(DsmLatency, HostWalkReachesTheExpectedNodeInTheTarget) {
  const std::vector<std::uint32_t> succ = chase_successors(dsm_chain_nodes);
  const unsigned cluster = 4;
  const std::uint64_t window = 0x7f0000000000ull, block_bytes = 1 << 20;
  std::vector<std::vector<std::uint64_t>> smem(cluster, std::vector<std::uint64_t>(dsm_chain_smem_bytes / 8));
  for (unsigned r = 0; r < cluster; ++r) {
    const std::uint64_t mine = window + r * block_bytes;
    for (std::uint32_t i = 0; i < dsm_chain_nodes; ++i) {
      smem[r][dsm_link_index(i)] = chase_link(mine, succ.data(), i, chase_line_bytes);
      reinterpret_cast<std::uint32_t*>(smem[r].data())[dsm_tag_index(i)] = r;
    }
  }
  auto load64 = [&](std::uint64_t a) {
    const std::uint64_t r = (a - window) / block_bytes, off = (a - window) % block_bytes;
    return smem[r][off / 8];
  };
  auto load32 = [&](std::uint64_t a) {
    const std::uint64_t r = (a - window) / block_bytes, off = (a - window) % block_bytes;
    return reinterpret_cast<const std::uint32_t*>(smem[r].data())[off / 4];
  };
  const std::uint32_t steps = 1000;
  for (dsm_target t : all_dsm_targets) {
    const unsigned rank = dsm_target_rank(t, cluster);
    const std::uint64_t base = window + rank * block_bytes;
    std::uint64_t p = base;
    for (std::uint32_t k = 0; k < dsm_warm_steps(dsm_chain_nodes) + steps; ++k) p = load64(p);
    const auto expected = static_cast<std::uint32_t>(
        chase_node_offset(dsm_chase_expected_node(succ, steps), chase_line_bytes));
    EXPECT_EQ(p - base, expected);
    EXPECT_EQ(load32(p + dsm_tag_byte), rank);
  }
  EXPECT_EQ(dsm_warm_steps(dsm_chain_nodes), dsm_chain_nodes);
  EXPECT_EQ(dsm_warm_steps(13), 16u);
}

TEST(DsmLatency, ResultCheck) {
  const dsm_chase_result remote_ok{384, 3, 10, 12, 1000};
  EXPECT_EQ(dsm_chase_problem(remote_ok, 384, dsm_target::remote, 4), "");
  const dsm_chase_result own_ok{384, 0, 10, 10, 1000};
  EXPECT_EQ(dsm_chase_problem(own_ok, 384, dsm_target::own, 4), "");
  EXPECT_NE(dsm_chase_problem(remote_ok, 512, dsm_target::remote, 4).find("chain position"), std::string::npos);
  EXPECT_NE(dsm_chase_problem(remote_ok, 384, dsm_target::remote, 8).find("rank 3"), std::string::npos);
  const dsm_chase_result remote_same_sm{384, 3, 10, 10, 1000};
  EXPECT_NE(dsm_chase_problem(remote_same_sm, 384, dsm_target::remote, 4).find("not another SM"), std::string::npos);
  const dsm_chase_result own_two_sms{384, 0, 10, 11, 1000};
  EXPECT_NE(dsm_chase_problem(own_two_sms, 384, dsm_target::own, 4), "");
  // The poison (every byte 0xff) never passes.
  dsm_chase_result poison{};
  poison.node_offset = poison.owner_rank = poison.chaser_smid = poison.target_smid = 0xffffffffu;
  for (dsm_target t : all_dsm_targets) EXPECT_NE(dsm_chase_problem(poison, 384, t, 2), "");
}

TEST(DsmBandwidth, Neighbours) {
  EXPECT_EQ(dsm_neighbour_rank(0, 1), 0u);
  EXPECT_EQ(dsm_neighbour_rank(0, 2), 1u);
  EXPECT_EQ(dsm_neighbour_rank(1, 2), 0u);
  EXPECT_EQ(dsm_neighbour_rank(15, 16), 0u);
  EXPECT_EQ(dsm_neighbour_block(5, 1), 5u);
  EXPECT_EQ(dsm_neighbour_block(4, 4), 5u);
  EXPECT_EQ(dsm_neighbour_block(7, 4), 4u);
  EXPECT_EQ(dsm_neighbour_block(33, 16), 34u);
  EXPECT_EQ(dsm_neighbour_block(47, 16), 32u);
  for (unsigned c : dsm_bandwidth_clusters) {
    // Within its own cluster, and a permutation: every block is read by exactly one other.
    std::set<std::uint64_t> read;
    for (std::uint64_t b = 0; b < 4 * c; ++b) {
      EXPECT_EQ(dsm_neighbour_block(b, c) / c, b / c);
      EXPECT_EQ(dsm_neighbour_block(b, c) == b, c == 1);
      read.insert(dsm_neighbour_block(b, c));
    }
    EXPECT_EQ(read.size(), 4 * c);
  }
}

TEST(DsmBandwidth, EveryPassReadsEveryElementOnceInWarpRuns) {
  EXPECT_EQ(dsm_bw_elems, 8192u);
  for (std::uint32_t p : {0u, 1u, 2u, 63u, 300u}) {
    std::vector<int> hits(dsm_bw_elems, 0);
    for (std::uint32_t t = 0; t < dsm_bw_block; ++t) {
      for (std::uint32_t j = 0; j < dsm_bw_loads_per_pass; ++j) ++hits[dsm_bw_index(t, j, p, dsm_bw_shift)];
    }
    for (std::uint32_t e = 0; e < dsm_bw_elems; ++e) ASSERT_EQ(hits[e], 1) << "pass " << p << " element " << e;
    // A warp's 32 loads: 512 contiguous bytes starting on a 512-byte boundary.
    for (std::uint32_t w = 0; w < dsm_bw_block / 32; ++w) {
      for (std::uint32_t j = 0; j < dsm_bw_loads_per_pass; ++j) {
        const std::uint32_t first = dsm_bw_index(32 * w, j, p, dsm_bw_shift);
        EXPECT_EQ(first % 32, 0u);
        for (std::uint32_t lane = 0; lane < 32; ++lane) {
          ASSERT_EQ(dsm_bw_index(32 * w + lane, j, p, dsm_bw_shift), first + lane);
        }
      }
    }
  }
  // Consecutive passes read other addresses (what keeps ptxas from merging their loads).
  EXPECT_NE(dsm_bw_index(0, 0, 0, dsm_bw_shift), dsm_bw_index(0, 0, 1, dsm_bw_shift));
}

// The bandwidth kernel on the host: every block fills its array, every thread sums what it
// loads from its neighbour's in the kernel's order, the block sum against the reference.
TEST(DsmBandwidth, HostSimulationMatchesTheReference) {
  const unsigned cluster = 2;
  const std::uint64_t blocks = 4;
  const std::uint32_t passes = 3;
  std::vector<std::vector<word16>> arrays(blocks, std::vector<word16>(dsm_bw_elems));
  for (std::uint64_t b = 0; b < blocks; ++b) {
    for (std::uint32_t i = 0; i < dsm_bw_elems; ++i) arrays[b][i] = dsm_value(dsm_block_salt(b), i);
  }
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const auto& src = arrays[dsm_neighbour_block(b, cluster)];
    std::uint32_t block_sum = 0;
    for (std::uint32_t t = 0; t < dsm_bw_block; ++t) {
      std::uint32_t acc = 0;
      for (std::uint32_t p = 0; p < passes; ++p) {
        for (std::uint32_t j = 0; j < dsm_bw_loads_per_pass; ++j) {
          acc += dsm_fold(src[dsm_bw_index(t, j, p, dsm_bw_shift)]);
        }
      }
      block_sum += acc;
    }
    EXPECT_EQ(block_sum, dsm_bw_block_expected(b, cluster, passes)) << "block " << b;
  }
  // Reading the block's own array instead of the neighbour's gives another sum.
  EXPECT_NE(dsm_bw_block_expected(0, 2, passes), dsm_bw_block_expected(0, 1, passes));
  EXPECT_NE(dsm_bw_block_expected(0, 2, passes), dsm_bw_block_expected(1, 2, passes));
}

TEST(DsmBandwidth, DataIsNonTrivialAndDiffersPerBlock) {
  EXPECT_NE(dsm_block_salt(0), dsm_block_salt(1));
  std::set<std::uint32_t> words;
  std::uint32_t zeros = 0;
  for (std::uint32_t i = 0; i < 256; ++i) {
    const word16 v = dsm_value(dsm_block_salt(3), i);
    for (std::uint32_t w : {v.x, v.y, v.z, v.w}) {
      words.insert(w);
      zeros += w == 0 ? 1 : 0;
    }
  }
  EXPECT_EQ(words.size(), 1024u);
  EXPECT_EQ(zeros, 0u);
}

TEST(DsmBandwidth, BytesFormula) {
  // 132 SMs, one block each: 63 passes of 132 x 128 KiB, the first count at or above 1 GiB.
  EXPECT_EQ(dsm_bw_passes(132), 63u);
  EXPECT_EQ(dsm_bw_bytes(132, 63), 132ull * 63 * (128 << 10));
  EXPECT_GE(dsm_bw_bytes(132, dsm_bw_passes(132)), dsm_bw_target_bytes);
  EXPECT_LT(dsm_bw_bytes(132, dsm_bw_passes(132) - 1), dsm_bw_target_bytes);
  EXPECT_EQ(dsm_bw_passes(8192), 1u);
  EXPECT_EQ(dsm_bw_passes(1), 8192u);
  EXPECT_EQ(dsm_bw_passes(0), 1u);
  for (std::uint64_t blocks : {2ull, 112ull, 128ull, 130ull}) {
    EXPECT_GE(dsm_bw_bytes(blocks, dsm_bw_passes(blocks)), dsm_bw_target_bytes) << blocks;
  }
  // The latency rows: 8192 loads of 8-byte links.
  EXPECT_EQ(chase_bytes(chase_timed_steps, sizeof(std::uint64_t)), 65536u);
}

TEST(DsmBandwidth, BytesPerClockPerSm) {
  // 128 B/clk on each of 132 SMs at 1755 MHz for 1 ms.
  const double bytes = 128.0 * 132 * 1755e6 * 1e-3;
  EXPECT_NEAR(bytes_per_clk_per_sm(bytes, 1e-3, 1755, 132), 128.0, 1e-9);
  EXPECT_NEAR(bytes_per_clk_per_sm(bytes, 2e-3, 1755, 132), 64.0, 1e-9);
}

TEST(DsmBandwidth, SmChecks) {
  EXPECT_EQ(dsm_neighbour_sm_problem({4, 9, 4, 7}, 2), "");
  EXPECT_EQ(dsm_neighbour_sm_problem({4, 4}, 1), "");  // a cluster of 1 reads itself
  EXPECT_EQ(dsm_neighbour_sm_problem({4, 4, 5, 6}, 2), "block 0 and its neighbour 1 ran on the same SM 4");
  EXPECT_EQ(dsm_sms_used({3, 1, 3, 2, 1}), 3u);
  EXPECT_EQ(dsm_sms_used({}), 0u);
}

}  // namespace
}  // namespace membench::cluster
