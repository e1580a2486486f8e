// Pointer chase through shared memory, the host part: what a launch measured (the layout,
// cycle and walk are kernels/common/chase.hpp).
#pragma once

#include <cstdint>

#include "../common/chase.hpp"

namespace membench::shared {

/// What a launch measured: the node it stopped at and the clock ticks of the timed steps.
struct chase_result {
  std::uint32_t node_offset;  ///< byte offset of the last node reached
  std::uint32_t pad;
  std::uint64_t cycles;
};

}  // namespace membench::shared
