// Pointer chase through the constant cache: each node of a __constant__ table holds the
// byte offset of the next, so every LDC's address is the previous LDC's value. The host
// part is constant_latency.hpp.
#pragma once

#include <cstdint>

#include "constant_latency.hpp"

namespace membench::cache {

__constant__ std::uint32_t chase_constant[chase_constant_bytes / sizeof(std::uint32_t)];

__device__ __forceinline__ std::uint32_t constant_load(std::uint32_t offset) {
  return *reinterpret_cast<const std::uint32_t*>(reinterpret_cast<const char*>(chase_constant) + offset);
}

/// `warm` untimed and `steps` timed (multiples of 8) steps from offset 0. One thread.
__global__ void constant_chase_kernel(std::uint32_t warm, std::uint32_t steps, constant_chase_result* out) {
  __shared__ volatile std::uint32_t sink;
  std::uint32_t j = 0;
  for (std::uint32_t k = 0; k < warm; k += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) j = constant_load(j);
  }
  const long long start = clock64();
  for (std::uint32_t k = 0; k < steps; k += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) j = constant_load(j);
  }
  sink = j;  // waits for the last load
  const long long stop = clock64();
  out->node_offset = sink;
  out->cycles = static_cast<std::uint64_t>(stop - start);
}

}  // namespace membench::cache
