// B4 distributed shared memory latency: the cluster sizes, which block a chase targets,
// the chain's node layout, its result and the check of it, and the host walk. Host-compilable:
// the kernel is dsm_latency.cuh.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/chase.hpp"
#include "../common/hd.hpp"
#include "dsm.hpp"

namespace membench::cluster {

/// Blocks per cluster: 8 is the portable maximum, 16 needs the non-portable attribute.
inline constexpr std::array<unsigned, 4> dsm_latency_clusters{2, 4, 8, 16};

/// Whose chain rank 0 chases: its own, or that of the highest rank (another SM).
enum class dsm_target { own, remote };
inline constexpr std::array<dsm_target, 2> all_dsm_targets{dsm_target::own, dsm_target::remote};
constexpr const char* to_string(dsm_target t) { return t == dsm_target::own ? "own" : "remote"; }

/// The rank whose shared memory the chase reads.
constexpr unsigned dsm_target_rank(dsm_target t, unsigned cluster) { return t == dsm_target::own ? 0 : cluster - 1; }

/// The chain: 16 KiB of 128-byte nodes (128 nodes; shared memory has no cache to fill, so a
/// larger chain would measure the same).
inline constexpr std::uint64_t dsm_chain_bytes = std::uint64_t{16} << 10;
inline constexpr std::uint32_t dsm_chain_nodes =
    static_cast<std::uint32_t>(chase_nodes(dsm_chain_bytes, chase_line_bytes));
/// Threads that build the chain (one thread chases it).
inline constexpr unsigned dsm_chase_block = 256;

/// Node i of a block's chain holds, in its first 8 bytes, the generic cluster-window
/// address of its successor in the same block (an index in 64-bit words), and in the next 4
/// the rank of the block that wrote it (an index in 32-bit words), read once after the
/// timed steps to prove whose memory the chase walked.
MEMBENCH_HD std::uint32_t dsm_link_index(std::uint32_t node) {
  return static_cast<std::uint32_t>(chase_node_offset(node, chase_line_bytes) / sizeof(std::uint64_t));
}
MEMBENCH_HD std::uint32_t dsm_tag_index(std::uint32_t node) { return 2 * dsm_link_index(node) + 2; }
inline constexpr std::uint32_t dsm_tag_byte = 8;  ///< the tag's offset within its node
/// A 64-bit word after the chain: the chasing thread's sink (its store waits for the last load).
inline constexpr std::uint32_t dsm_sink_index = static_cast<std::uint32_t>(dsm_chain_bytes / sizeof(std::uint64_t));
/// Dynamic shared memory the chain and the sink need.
inline constexpr std::uint64_t dsm_chain_smem_bytes = dsm_chain_bytes + sizeof(std::uint64_t);
/// Dynamic shared memory a chase block asks for: more than half an SM's (`smem_per_sm`), so
/// that no second block of the cluster shares its SM, and at least what the chain needs.
constexpr std::uint64_t dsm_chase_smem(std::uint64_t smem_per_sm) {
  const std::uint64_t half = (smem_per_sm / 2 + 1024) / 1024 * 1024;
  return half > dsm_chain_smem_bytes ? half : dsm_chain_smem_bytes;
}

/// What a chase launch measured.
struct dsm_chase_result {
  std::uint32_t node_offset;  ///< byte offset of the last node reached, within the target's chain
  std::uint32_t owner_rank;   ///< the tag of that node: the rank whose shared memory held it
  std::uint32_t chaser_smid;  ///< the SM of the chasing block (rank 0)
  std::uint32_t target_smid;  ///< the SM of the target block
  std::uint64_t cycles;       ///< clock64 ticks of the timed steps
};

/// What is wrong with a chase's result ("" when nothing): it must stop at the host walk's
/// node, in the target rank's memory, on another SM exactly when the target is remote.
inline std::string dsm_chase_problem(const dsm_chase_result& r, std::uint32_t expected_offset, dsm_target target,
                                     unsigned cluster) {
  const unsigned rank = dsm_target_rank(target, cluster);
  if (r.node_offset != expected_offset) {
    return "chain position: got byte offset " + std::to_string(r.node_offset) + ", expected " +
           std::to_string(expected_offset);
  }
  if (r.owner_rank != rank) {
    return "the chain walked is rank " + std::to_string(r.owner_rank) + "'s, expected rank " + std::to_string(rank) +
           "'s";
  }
  const bool same_sm = r.chaser_smid == r.target_smid;
  if (same_sm != (target == dsm_target::own)) {
    return "rank 0 ran on SM " + std::to_string(r.chaser_smid) + " and rank " + std::to_string(rank) + " on SM " +
           std::to_string(r.target_smid) + (same_sm ? ": the remote target is not another SM" : ": one block, two SMs");
  }
  return {};
}

/// Untimed steps before the timed ones: one walk of the cycle (multiple of 8, the unroll).
constexpr std::uint32_t dsm_warm_steps(std::uint32_t nodes) { return static_cast<std::uint32_t>(chase_cycle_steps(nodes)); }

/// The node a launch stops at: warm + timed steps from node 0.
inline std::uint32_t dsm_chase_expected_node(const std::vector<std::uint32_t>& succ, std::uint32_t timed_steps) {
  return chase_walk(succ, 0, std::uint64_t{dsm_warm_steps(static_cast<std::uint32_t>(succ.size()))} + timed_steps);
}

}  // namespace membench::cluster
