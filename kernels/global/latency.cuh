// Pointer chase through global memory: one thread, each load's address the previous load's
// value (no arithmetic between them), timed with the SM's own clock. The host part is latency.hpp;
// the chain's build and reset kernels are kernels/common/chase.cuh.
#pragma once

#include <cstdint>

#include "../common/chase.cuh"
#include "latency.hpp"

namespace membench::global {

template <bool Ldg>
__device__ __forceinline__ std::uint64_t chase_load(std::uint64_t address) {
  const auto* p = reinterpret_cast<const std::uint64_t*>(address);
  if constexpr (Ldg) {
    return __ldg(reinterpret_cast<const unsigned long long*>(p));
  } else {
    return *p;
  }
}

/// `warm` untimed and then `steps` timed dependent loads from state->position; writes where
/// it stopped and the clock ticks of the timed loads. Launch with one thread; `warm` and
/// `steps` multiples of 8. (A launch starts with an empty L1: a chain the L1 can hold
/// needs its warm steps inside the launch.)
template <bool Ldg>
__global__ void global_chase_kernel(chase_state* state, std::uint64_t warm, std::uint64_t steps) {
  __shared__ volatile std::uint64_t sink;
  std::uint64_t p = state->position;
  for (std::uint64_t k = 0; k < warm; k += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) p = chase_load<Ldg>(p);
  }
  const long long start = clock64();
  for (std::uint64_t k = 0; k < steps; k += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) p = chase_load<Ldg>(p);
  }
  sink = p;  // the store waits for the last load, so the clock read below comes after it
  const long long stop = clock64();
  state->position = sink;
  state->cycles = static_cast<std::uint64_t>(stop - start);
}

}  // namespace membench::global
