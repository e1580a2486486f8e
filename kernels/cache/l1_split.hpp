// C1 L1 / shared split: block b re-reads its own region of block_bytes (16-byte elements)
// in passes; the region stays in the SM's L1 while it fits in the L1 capacity the
// shared-memory carveout leaves. The shape, the region map, the reference, the bytes
// formula and the split model (the occupancy calculator's rules for sm_90).
#pragma once

#include <array>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"
#include "../common/types.hpp"

namespace membench::cache {

inline constexpr std::uint32_t l1_split_seed = 111;
/// One block per SM, 1024 threads (32 warps) to keep many loads in flight.
inline constexpr unsigned l1_split_block = 1024;
inline constexpr unsigned l1_split_warps = l1_split_block / 32;
/// Per block: smid, %total_smem_size, %dynamic_smem_size.
inline constexpr unsigned l1_split_info_words = 3;
/// Bytes each block loads per launch at least: ~40 us from L1, ~3x that from L2.
inline constexpr std::uint64_t l1_split_target = std::uint64_t{8} << 20;

struct l1_split_shape {
  std::uint64_t block_elems = 0;  ///< 16-byte elements per block region (a multiple of the block size)
  std::uint32_t passes = 0;
};

/// block_bytes: a multiple of l1_split_block * 16 (16 KiB).
constexpr l1_split_shape make_l1_split_shape(std::uint64_t block_bytes) {
  l1_split_shape s;
  s.block_elems = block_bytes / sizeof(word16);
  const std::uint64_t passes = (l1_split_target + block_bytes - 1) / block_bytes;
  s.passes = static_cast<std::uint32_t>(passes < 1 ? 1 : passes);
  return s;
}

/// Element k of the input (block b's region is [b * block_elems, (b + 1) * block_elems)).
MEMBENCH_HD word16 l1_split_value(std::uint64_t k) {
  return word16{pattern_word(4 * k, l1_split_seed), pattern_word(4 * k + 1, l1_split_seed),
                pattern_word(4 * k + 2, l1_split_seed), pattern_word(4 * k + 3, l1_split_seed)};
}

/// What an element adds in pass p: the pass number keeps the passes distinct, so the
/// compiler cannot fold them into one.
MEMBENCH_HD std::uint32_t l1_split_fold(const word16& v, std::uint32_t p) { return (v.x + v.y + v.z + v.w) ^ p; }

/// Thread tid of a block reads region elements tid, tid + block, ... every pass.
/// Sum over a warp of its threads' totals (mod 2^32): what the kernel stores per warp.
inline std::uint32_t l1_split_warp_expected(const l1_split_shape& s, std::uint64_t block, unsigned warp) {
  std::uint32_t acc = 0;
  for (unsigned lane = 0; lane < 32; ++lane) {
    for (std::uint64_t j = warp * 32 + lane; j < s.block_elems; j += l1_split_block) {
      const word16 v = l1_split_value(block * s.block_elems + j);
      for (std::uint32_t p = 0; p < s.passes; ++p) acc += l1_split_fold(v, p);
    }
  }
  return acc;
}

/// Bytes per launch: every block loads its region once per pass, plus the warp partials.
constexpr std::uint64_t l1_split_bytes(const l1_split_shape& s, std::uint64_t blocks) {
  return blocks * (s.passes * s.block_elems * sizeof(word16) + l1_split_warps * 4);
}

/// Shared-memory capacities an sm_90 SM can be configured with (KiB), as the occupancy
/// calculator (cuda_occupancy.h) rounds a preference up to one of them.
inline constexpr std::array<std::uint64_t, 10> sm90_smem_configs_kib{0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
/// Unified L1 / shared memory per SM on sm_90.
inline constexpr std::uint64_t sm90_unified_bytes = std::uint64_t{256} << 10;

/// cudaFuncCache preference as the occupancy calculator maps it to a carveout percentage;
/// -1 = no preference (carveout default).
enum class cache_preference { none, shared, l1, equal };
constexpr int preference_carveout(cache_preference p) {
  switch (p) {
    case cache_preference::none: return -1;
    case cache_preference::shared: return 100;
    case cache_preference::l1: return 0;
    case cache_preference::equal: return 50;
  }
  return -1;
}

/// Shared-memory capacity (bytes) an sm_90 SM is configured with for a carveout percentage
/// (-1 = default: the maximum) of `max_smem_bytes` and a block needing `needed_bytes`
/// (static + dynamic + reserved): the preference, but at least what the block needs, rounded
/// up to a supported configuration. 0 when nothing fits.
constexpr std::uint64_t sm90_smem_capacity(int carveout_pct, std::uint64_t max_smem_bytes, std::uint64_t needed_bytes) {
  std::uint64_t want = carveout_pct < 0 ? max_smem_bytes : static_cast<std::uint64_t>(carveout_pct) * max_smem_bytes / 100;
  if (want < needed_bytes) want = needed_bytes;
  for (std::uint64_t kib : sm90_smem_configs_kib) {
    if (kib * 1024 >= want) return kib * 1024;
  }
  return 0;
}

}  // namespace membench::cache
