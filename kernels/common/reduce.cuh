#pragma once

#include <cstdint>

namespace membench {

/// Sums `v` over the block (mod 2^32) and stores it at partials[blockIdx.x].
/// Call from every thread of the block; blockDim.x must be a multiple of 32.
__device__ __forceinline__ void block_sum_store(std::uint32_t v, std::uint32_t* partials) {
  __shared__ std::uint32_t warp_sums[32];
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xFFFFFFFFu, v, d);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : 0u;
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xFFFFFFFFu, v, d);
    if (lane == 0) partials[blockIdx.x] = v;
  }
}

/// out[t] = load(0) + ... + load(Loads - 1) in that order: the loads unrolled, none waiting
/// for another, the store after the last.
template <unsigned Loads, class Load>
__device__ __forceinline__ void store_load_sum(float* out, std::uint64_t t, Load load) {
  float acc = 0;
#pragma unroll
  for (unsigned k = 0; k < Loads; ++k) acc += load(k);
  out[t] = acc;
}

}  // namespace membench
