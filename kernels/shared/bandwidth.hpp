// Shared-memory bandwidth: every block copies one 32 KiB set into its shared memory and
// re-reads it `passes` times with conflict-free loads of W bytes (4, 8 or 16), each thread
// summing what it loads into a few independent accumulators; one sum per block is stored.
// The host part: the element map, the reference sum and the bytes formula. The B2 cache
// families (cache/l1_bandwidth, cache/l2_bandwidth) use its fold, pass map and per-clock
// formula too.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"
#include "../common/types.hpp"

namespace membench::shared {

/// An 8-byte element: one 64-bit shared load (LDS.64) per access.
struct alignas(8) word8 {
  std::uint32_t x, y;
};

MEMBENCH_HD std::uint32_t bw_fold(std::uint32_t v) { return v; }
MEMBENCH_HD std::uint32_t bw_fold(word8 v) { return v.x + v.y; }
MEMBENCH_HD std::uint32_t bw_fold(word16 v) { return v.x + v.y + v.z + v.w; }

inline constexpr unsigned smem_bw_block = 512;
inline constexpr std::uint32_t smem_bw_set_bytes = 32 << 10;
inline constexpr std::uint32_t smem_bw_seed = 0x5B2;
/// Shared-memory bytes each SM reads per launch: ~150 us at 128 B/clk and 1.755 GHz.
inline constexpr std::uint64_t smem_bw_bytes_per_sm = std::uint64_t{32} << 20;
/// Elements the block's map turns by each pass (one warp's worth), so that no load address
/// is the same in two consecutive passes and none can be hoisted out of the pass loop.
inline constexpr std::uint32_t bw_rotate = 32;

template <class W>
inline constexpr std::uint32_t smem_bw_elems = smem_bw_set_bytes / sizeof(W);
/// Loads per thread per pass: the block reads the whole set once per pass.
template <class W>
inline constexpr unsigned smem_bw_loads = smem_bw_elems<W> / smem_bw_block;

/// The element thread t (of `block`, a power of two) reads at its load k of pass p. Every pass
/// is a permutation of the block's loads over the set (the map turns by one warp per pass);
/// lane l of a warp reads the element after lane l - 1's, so a warp's access is a contiguous
/// 32 x W bytes: one wavefront per 128 bytes, no bank conflict.
MEMBENCH_HD std::uint32_t bw_element(std::uint32_t t, std::uint32_t k, std::uint32_t p, std::uint32_t block) {
  return ((t + p * bw_rotate) & (block - 1)) + k * block;
}

/// Odd, so that the block's sum (passes x the set's sum, mod 2^32) keeps every bit of the
/// set's sum; about `bytes_per_sm` bytes per SM with `blocks_per_sm` blocks on each.
constexpr std::uint32_t bw_passes(std::uint64_t bytes_per_sm, std::uint64_t set_bytes, std::uint64_t blocks_per_sm) {
  const std::uint64_t per_block = bytes_per_sm / (set_bytes * (blocks_per_sm > 0 ? blocks_per_sm : 1));
  return static_cast<std::uint32_t>(per_block > 0 ? per_block : 1) | 1u;
}

/// Word i of the set every block copies (never zero in aggregate: a hash).
MEMBENCH_HD std::uint32_t smem_bw_word(std::uint64_t i) { return pattern_word(i, smem_bw_seed); }

/// The sum (mod 2^32) every block stores: each pass reads each element of the set once.
inline std::uint32_t smem_bw_expected(std::uint32_t passes) {
  std::uint32_t set_sum = 0;
  for (std::uint32_t i = 0; i < smem_bw_set_bytes / 4; ++i) set_sum += smem_bw_word(i);
  return passes * set_sum;
}

/// Bytes per launch: every block reads its set `passes` times and stores one 4-byte sum (the
/// 32 KiB copy into shared memory before the first pass is not counted).
constexpr std::uint64_t smem_bw_bytes(std::uint64_t blocks, std::uint32_t passes) {
  return blocks * (std::uint64_t{passes} * smem_bw_set_bytes + 4);
}

/// Bytes per SM clock: `bytes` over `seconds` at `sm_mhz`, per one of `sms` SMs (sms = 1: the
/// whole GPU). NaN when the clock or time is unknown.
inline double bytes_per_clk(std::uint64_t bytes, double seconds, double sm_mhz, double sms = 1) {
  if (!std::isfinite(sm_mhz) || sm_mhz <= 0 || !(seconds > 0) || !(sms > 0)) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(bytes) / (seconds * sm_mhz * 1e6 * sms);
}

}  // namespace membench::shared
