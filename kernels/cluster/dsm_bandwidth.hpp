// B4 distributed shared memory bandwidth: the cluster sizes, the index map, the data and
// its checksum reference, the bytes formula. Host-compilable: the kernel is dsm_bandwidth.cuh.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"
#include "../common/types.hpp"
#include "dsm.hpp"

namespace membench::cluster {

/// 1: each block reads its own shared memory through the same cluster-mapped loads.
inline constexpr std::array<unsigned, 5> dsm_bandwidth_clusters{1, 2, 4, 8, 16};

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
