// L1 bandwidth: one block of 1024 threads per SM re-reads a set of `set_bytes` with plain
// global loads of W bytes (4 or 16), the set chosen by the SM the block runs on (%smid), so
// every SM reads exactly one set of the named size whichever SM the scheduler picks.
// The host part: sizes, the set each SM reads, the reference sums and the bytes formula.
#pragma once

#include <cstdint>
#include <vector>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"
#include "../shared/bandwidth.hpp"

namespace membench::cache {

inline constexpr unsigned l1_bw_block = 1024;
inline constexpr std::uint32_t l1_bw_seed = 0xB21;
/// Bytes each SM reads per launch: ~170 us at the L1 rate of ~110 B/clk, ~0.8 ms at L2 rates.
inline constexpr std::uint64_t l1_bw_bytes_per_sm = std::uint64_t{32} << 20;

/// Loads per thread per pass: the block reads its whole set once per pass.
constexpr unsigned l1_bw_loads(std::uint64_t set_bytes, std::uint64_t width) {
  return static_cast<unsigned>(set_bytes / (std::uint64_t{l1_bw_block} * width));
}

/// The set an SM reads: slot %smid mod the SM count. %smid may have gaps; two SMs then share
/// a set's data, each still reading one set of `set_bytes` through its own L1.
MEMBENCH_HD std::uint32_t l1_bw_slot(std::uint32_t smid, std::uint32_t slots) { return smid % slots; }

/// Word i of slot s's set: every set different, so a block that read another SM's set fails.
MEMBENCH_HD std::uint32_t l1_bw_word(std::uint64_t set_bytes, std::uint32_t slot, std::uint64_t i) {
  return pattern_word(slot * (set_bytes / 4) + i, l1_bw_seed);
}

/// Word i of the sets laid out slot after slot, `set_bytes` each: what the device holds.
MEMBENCH_HD std::uint32_t l1_bw_sets_word(std::uint64_t i, std::uint64_t set_bytes) {
  return l1_bw_word(set_bytes, static_cast<std::uint32_t>(i / (set_bytes / 4)), i % (set_bytes / 4));
}

/// The sum (mod 2^32) of a slot's set.
inline std::uint32_t l1_bw_set_sum(std::uint64_t set_bytes, std::uint32_t slot) {
  std::uint32_t sum = 0;
  for (std::uint64_t i = 0; i < set_bytes / 4; ++i) sum += l1_bw_word(set_bytes, slot, i);
  return sum;
}

/// Block b's expected sum: passes x its SM's set sum (passes odd, so every bit of it counts).
inline std::vector<std::uint32_t> l1_bw_expected(const std::vector<std::uint32_t>& smids, std::uint32_t slots,
                                                 std::uint64_t set_bytes, std::uint32_t passes) {
  std::vector<std::uint32_t> set_sum(slots);
  std::vector<bool> known(slots, false);
  std::vector<std::uint32_t> out(smids.size());
  for (std::size_t b = 0; b < smids.size(); ++b) {
    const std::uint32_t s = l1_bw_slot(smids[b], slots);
    if (!known[s]) {
      set_sum[s] = l1_bw_set_sum(set_bytes, s);
      known[s] = true;
    }
    out[b] = passes * set_sum[s];
  }
  return out;
}

/// Bytes per launch: every block reads its set `passes` times and stores its sum and its SM id.
constexpr std::uint64_t l1_bw_bytes(std::uint64_t blocks, std::uint32_t passes, std::uint64_t set_bytes) {
  return blocks * (std::uint64_t{passes} * set_bytes + 8);
}

}  // namespace membench::cache
