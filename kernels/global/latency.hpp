// Pointer chase through global memory, the host part: where the chain stands between
// launches and what the last launch measured (the layout, cycle and walk are kernels/common/chase.hpp).
#pragma once

#include <cstdint>

#include "../common/chase.hpp"

namespace membench::global {

/// Where the chain stands between launches, and what the last launch measured: the chain
/// goes on from launch to launch, so every row is timed in the steady state of its cycle.
struct chase_state {
  std::uint64_t position;  ///< address of the node the next launch starts from
  std::uint64_t cycles;    ///< clock64 ticks of the last launch's timed loads
};

}  // namespace membench::global
