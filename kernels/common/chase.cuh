// The chase kernels of a chain in global memory that goes on from launch to launch, shared by
// global/latency and async/bulk_latency: its layout and its restart (the chases themselves
// differ in how a step loads the next node).
#pragma once

#include <cstdint>

#include "chase.hpp"

namespace membench {

/// Node i of a chain at `base` (one thread per node): its first word the address of its
/// successor, then Words(i)... in the words after it (a tag the chase never reads).
template <auto... Words>
__global__ void chase_build_kernel(std::uint64_t* base, const std::uint32_t* succ, std::uint64_t nodes,
                                   std::uint64_t spacing) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i < nodes) {
    std::uint64_t* node = base + chase_node_offset(i, spacing) / sizeof(std::uint64_t);
    node[0] = chase_link(reinterpret_cast<std::uint64_t>(base), succ, i, spacing);
    int word = 1;
    ((node[word++] = Words(i)), ...);
  }
}

/// Points the chain's State ({position, cycles}) at `position` and clears the last
/// measurement (before the check).
template <class State>
__global__ void chase_reset_kernel(State* state, std::uint64_t position) {
  state->position = position;
  state->cycles = 0;
}

}  // namespace membench
