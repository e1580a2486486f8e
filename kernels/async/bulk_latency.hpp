// B3 bulk-copy latency: one thread chases a random cycle with cp.async.bulk, each copy's
// source address read from the node the previous copy brought into shared memory. The host
// part: the node's size and contents and the chain's state between launches.
#pragma once

#include <cstdint>

#include "../common/chase.hpp"
#include "../common/pattern.hpp"

namespace membench::async {

/// One node per copy: the smallest bulk copy (16 bytes, 16-byte aligned). Its first word is
/// the successor's address, its second a tag the chase never reads (the data is not zeros).
inline constexpr std::uint32_t bulk_node_bytes = 16;
inline constexpr std::uint32_t bulk_node_seed = 59;

/// The second word of node i.
MEMBENCH_HD std::uint64_t bulk_node_tag(std::uint64_t i) {
  return (static_cast<std::uint64_t>(pattern_word(i, bulk_node_seed)) << 32) | (i & 0xffffffffu);
}

/// Where the chain stands between launches (it goes on from launch to launch), and the
/// clock ticks of the last launch's timed copies.
struct bulk_chase_state {
  std::uint64_t position;  ///< address of the node the next launch starts from
  std::uint64_t cycles;
};

}  // namespace membench::async
