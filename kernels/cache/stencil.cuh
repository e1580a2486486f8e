#pragma once

#include "stencil.hpp"

namespace membench::cache {

/// Coefficients c_1..c_radius in the constant bank (read as a warp-uniform broadcast).
__constant__ float stencil_coef_constant[stencil_radius];

template <stencil_source Source>
__device__ __forceinline__ float stencil_coef(const float* coef, unsigned j) {
  if constexpr (Source == stencil_source::constant) {
    return stencil_coef_constant[j - 1];
  } else if constexpr (Source == stencil_source::ldg) {
    return __ldg(coef + j - 1);
  } else {
    return coef[j - 1];
  }
}

/// One point per thread; the block stages its stencil_block points and both halos in
/// shared memory, then applies the stencil from there. `in` holds n + 2 * radius elements.
template <stencil_source Source>
__global__ void __launch_bounds__(stencil_block) stencil_kernel(const float* in, float* out, const float* coef) {
  __shared__ float tile[stencil_block + 2 * stencil_radius];
  const std::uint64_t g = blockIdx.x * std::uint64_t{stencil_block} + threadIdx.x;
  const unsigned s = threadIdx.x + stencil_radius;
  tile[s] = in[g + stencil_radius];
  if (threadIdx.x < stencil_radius) {
    tile[threadIdx.x] = in[g];
    tile[s + stencil_block] = in[g + stencil_block + stencil_radius];
  }
  __syncthreads();
  out[g] = stencil_point(tile + s, [&](unsigned j) { return stencil_coef<Source>(coef, j); });
}

}  // namespace membench::cache
