// Pointer chase through shared memory: the block copies a chain into its shared memory,
// then one thread walks it with ld.shared on the values themselves (no address arithmetic).
// The host part is latency.hpp.
#pragma once

#include <cstdint>

#include "latency.hpp"

namespace membench::shared {

/// Builds the chain (`nodes` nodes, `spacing` bytes apart) in dynamic shared memory, walks
/// `warm` steps untimed and `steps` timed (multiples of 8) from node 0.
__global__ void shared_chase_kernel(const std::uint32_t* succ, std::uint32_t nodes, std::uint32_t spacing,
                                    std::uint32_t warm, std::uint32_t steps, chase_result* out) {
  extern __shared__ std::uint32_t chain[];
  __shared__ volatile std::uint32_t sink;
  const auto base = static_cast<std::uint32_t>(__cvta_generic_to_shared(chain));
  for (std::uint32_t i = threadIdx.x; i < nodes; i += blockDim.x) {
    chain[chase_node_offset(i, spacing) / sizeof(std::uint32_t)] = static_cast<std::uint32_t>(chase_link(base, succ, i, spacing));
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  std::uint32_t j = base + static_cast<std::uint32_t>(chase_node_offset(0, spacing));
  for (std::uint32_t k = 0; k < warm; k += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j));
  }
  const long long start = clock64();
  for (std::uint32_t k = 0; k < steps; k += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j));
  }
  sink = j;  // waits for the last load
  const long long stop = clock64();
  out->node_offset = sink - base;
  out->cycles = static_cast<std::uint64_t>(stop - start);
}

}  // namespace membench::shared
