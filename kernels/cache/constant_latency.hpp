// Pointer chase through the constant cache, the host part: the table's size and what a
// launch measured (the layout, cycle and walk are kernels/common/chase.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "../common/chase.hpp"

namespace membench::cache {

inline constexpr std::uint32_t chase_constant_bytes = 64 << 10;  // the whole constant bank a module may use

/// What a launch measured.
struct constant_chase_result {
  std::uint32_t node_offset;  ///< byte offset of the last node reached
  std::uint32_t pad;
  std::uint64_t cycles;
};

/// The table of a chain over `span` bytes: node i (at chase_node_offset(i, chase_line_bytes))
/// holds the byte offset of its successor succ[i]; the bytes between nodes are zero.
inline std::vector<std::uint32_t> constant_chase_table(const std::vector<std::uint32_t>& succ, std::uint64_t span) {
  std::vector<std::uint32_t> table(span / sizeof(std::uint32_t), 0);
  for (std::uint32_t i = 0; i < succ.size(); ++i) {
    table[chase_node_offset(i, chase_line_bytes) / sizeof(std::uint32_t)] =
        static_cast<std::uint32_t>(chase_link(0, succ.data(), i, chase_line_bytes));
  }
  return table;
}

}  // namespace membench::cache
