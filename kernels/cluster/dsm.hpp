// B4 distributed shared memory (thread-block clusters): the cluster sizes, why a GPU cannot
// run them, which block a chase targets, the chain's node layout and result check, the
// bandwidth kernel's index map, its data and checksum reference, and the bytes formulas.
// Host-compilable: the kernels are in dsm_latency.cuh and dsm_bandwidth.cuh.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/chase.hpp"
#include "../common/hd.hpp"
#include "../common/pattern.hpp"
#include "../common/types.hpp"

namespace membench::cluster {

/// Blocks per cluster: 8 is the portable maximum, 16 needs the non-portable attribute.
inline constexpr std::array<unsigned, 4> dsm_latency_clusters{2, 4, 8, 16};
/// 1: each block reads its own shared memory through the same cluster-mapped loads.
inline constexpr std::array<unsigned, 5> dsm_bandwidth_clusters{1, 2, 4, 8, 16};

/// Why clusters cannot run on a GPU of compute capability `arch` (86 = 8.6), "" when they can.
inline std::string dsm_arch_problem(int arch) {
  if (arch >= 90) return {};
  return "needs sm_90 (thread-block clusters); this GPU is sm_" + std::to_string(arch);
}

/// Why a kernel whose loaded code is for `binary_version` cannot run its cluster code: a
/// build without sm_90 SASS runs its older PTX, whose kernels are empty.
inline std::string dsm_binary_problem(int binary_version) {
  if (binary_version >= 90) return {};
  return "this build has no sm_90 code for the cluster kernels (they run as sm_" + std::to_string(binary_version) +
         "): build for architecture 90";
}

/// Why `clusters` resident clusters of `cluster` blocks with `smem` bytes of shared memory
/// each are too few to launch one, "" when at least one fits.
inline std::string dsm_fit_problem(unsigned cluster, std::uint64_t smem, int clusters) {
  if (clusters > 0) return {};
  return "a cluster of " + std::to_string(cluster) + " blocks with " + std::to_string(smem >> 10) +
         " KiB of shared memory each does not fit on this GPU (cudaOccupancyMaxActiveClusters is 0)";
}

// ---- Latency: one thread of rank 0 chases the chain of the target block.

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
constexpr std::uint32_t dsm_warm_steps(std::uint32_t nodes) { return (nodes + 7) / 8 * 8; }

/// The node a launch stops at: warm + timed steps from node 0.
inline std::uint32_t dsm_chase_expected_node(const std::vector<std::uint32_t>& succ, std::uint32_t timed_steps) {
  return chase_walk(succ, 0, std::uint64_t{dsm_warm_steps(static_cast<std::uint32_t>(succ.size()))} + timed_steps);
}

// ---- Bandwidth: every block reads its neighbour's array with 16-byte loads.

/// One block per SM: 1024 threads and a 128 KiB array (more than half an SM's 228 KiB, so
/// no second block fits and every neighbour of a cluster of two or more is another SM).
inline constexpr unsigned dsm_bw_block = 1024;
inline constexpr std::uint64_t dsm_bw_array_bytes = std::uint64_t{128} << 10;
inline constexpr std::uint32_t dsm_bw_elems = static_cast<std::uint32_t>(dsm_bw_array_bytes / sizeof(word16));
/// 16-byte loads per thread per pass over the neighbour's array: all in flight at once.
inline constexpr std::uint32_t dsm_bw_loads_per_pass = dsm_bw_elems / dsm_bw_block;
static_assert(dsm_bw_elems % dsm_bw_block == 0 && dsm_bw_loads_per_pass == 8);
static_assert((dsm_bw_elems & (dsm_bw_elems - 1)) == 0, "the index map wraps with a mask");
/// Bytes read per launch at least (passes rounded up): keeps launches long against the
/// in-kernel fill and the cluster barriers.
inline constexpr std::uint64_t dsm_bw_target_bytes = std::uint64_t{1} << 30;
inline constexpr std::uint32_t dsm_bw_seed = 0xD5A4;

/// The rank whose array `rank` reads: the next one, wrapping (itself in a cluster of 1).
MEMBENCH_HD unsigned dsm_neighbour_rank(unsigned rank, unsigned cluster) { return (rank + 1) % cluster; }

/// The grid index of the block whose array block `block` reads. A 1-D cluster of `cluster`
/// blocks holds blocks c*cluster .. c*cluster+cluster-1, rank = block mod cluster.
MEMBENCH_HD std::uint64_t dsm_neighbour_block(std::uint64_t block, unsigned cluster) {
  return block - block % cluster + dsm_neighbour_rank(static_cast<unsigned>(block % cluster), cluster);
}

/// Elements the read pattern rotates by from one pass to the next: a warp's worth, so that a
/// warp's 32 loads stay 512 contiguous, aligned bytes (conflict-free). Passed to the kernel
/// at run time: with the same addresses every pass (or a rotation ptxas could see through)
/// ptxas merges the loads of the passes it unrolls, volatile asm or not.
inline constexpr std::uint32_t dsm_bw_shift = 32;

/// Element that thread t reads with its j-th load (j < dsm_bw_loads_per_pass) of pass p:
/// each pass reads every element once.
MEMBENCH_HD std::uint32_t dsm_bw_index(std::uint32_t t, std::uint32_t j, std::uint32_t p, std::uint32_t shift) {
  return (t + j * dsm_bw_block + p * shift) & (dsm_bw_elems - 1);
}

/// Per block a 32-bit salt from the pattern, so that each block's array differs (a read of
/// the wrong block's array fails the checksum) while the fill stays one multiply-xor a word.
MEMBENCH_HD std::uint32_t dsm_block_salt(std::uint64_t block) { return pattern_word(block, dsm_bw_seed); }
MEMBENCH_HD word16 dsm_value(std::uint32_t salt, std::uint32_t i) {
  const std::uint32_t w = 4 * i;
  return word16{((w + 1) * 0x9E3779B1u) ^ salt, ((w + 2) * 0x9E3779B1u) ^ salt, ((w + 3) * 0x9E3779B1u) ^ salt,
                ((w + 4) * 0x9E3779B1u) ^ salt};
}
MEMBENCH_HD std::uint32_t dsm_fold(const word16& v) { return v.x + v.y + v.z + v.w; }

/// Passes over the neighbour's array that bring a launch of `blocks` blocks to at least
/// dsm_bw_target_bytes.
constexpr std::uint32_t dsm_bw_passes(std::uint64_t blocks) {
  const std::uint64_t per_pass = blocks * dsm_bw_array_bytes;
  return per_pass == 0 ? 1 : static_cast<std::uint32_t>((dsm_bw_target_bytes + per_pass - 1) / per_pass);
}

/// Bytes read from the neighbours' shared memory per launch (the fill and the 4-byte
/// checksum per block are left out: they are local and global traffic, not DSM reads).
constexpr std::uint64_t dsm_bw_bytes(std::uint64_t blocks, std::uint32_t passes) {
  return blocks * passes * dsm_bw_array_bytes;
}

/// What block `block`'s threads add up over a launch (mod 2^32), in the kernel's index
/// space: pass 0's sum once per pass (every pass reads the same elements in another order,
/// which the unit tests check).
inline std::uint32_t dsm_bw_block_expected(std::uint64_t block, unsigned cluster, std::uint32_t passes) {
  const std::uint32_t salt = dsm_block_salt(dsm_neighbour_block(block, cluster));
  std::uint32_t pass_sum = 0;
  for (std::uint32_t t = 0; t < dsm_bw_block; ++t) {
    for (std::uint32_t j = 0; j < dsm_bw_loads_per_pass; ++j) {
      pass_sum += dsm_fold(dsm_value(salt, dsm_bw_index(t, j, 0, dsm_bw_shift)));
    }
  }
  return pass_sum * passes;
}

/// Why the blocks' SMs (smids[b]: the SM of grid block b) break the premise that every
/// block of a cluster of two or more reads another SM's memory, "" when they do not.
inline std::string dsm_neighbour_sm_problem(const std::vector<std::uint32_t>& smids, unsigned cluster) {
  if (cluster < 2) return {};
  for (std::uint64_t b = 0; b < smids.size(); ++b) {
    const std::uint64_t n = dsm_neighbour_block(b, cluster);
    if (n < smids.size() && smids[b] == smids[n]) {
      return "block " + std::to_string(b) + " and its neighbour " + std::to_string(n) + " ran on the same SM " +
             std::to_string(smids[b]);
    }
  }
  return {};
}

/// SMs a launch ran on: the distinct values of smids.
inline std::uint64_t dsm_sms_used(std::vector<std::uint32_t> smids) {
  std::sort(smids.begin(), smids.end());
  return static_cast<std::uint64_t>(std::unique(smids.begin(), smids.end()) - smids.begin());
}

/// Bytes per SM clock per SM: `bytes` in `seconds` at `sm_mhz` on `sms` SMs.
constexpr double bytes_per_clk_per_sm(double bytes, double seconds, double sm_mhz, double sms) {
  return bytes / (seconds * sm_mhz * 1e6 * sms);
}

}  // namespace membench::cluster
