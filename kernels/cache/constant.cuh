#pragma once

#include "constant.hpp"

namespace membench::cache {

/// The table in the constant bank (64 KiB, the most one kernel can address); the global
/// copy for the ldg and plain kernels holds the same values.
__constant__ float constant_table[constant_table_max];

template <bool PerLane>
__global__ void constant_constant_kernel(float* out, unsigned n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  float acc = 0;
#pragma unroll
  for (unsigned k = 0; k < constant_loads; ++k) acc += constant_table[constant_index<PerLane>(t, k, n)];
  out[t] = acc;
}

template <bool PerLane>
__global__ void constant_ldg_kernel(const float* table, float* out, unsigned n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  float acc = 0;
#pragma unroll
  for (unsigned k = 0; k < constant_loads; ++k) acc += __ldg(table + constant_index<PerLane>(t, k, n));
  out[t] = acc;
}

template <bool PerLane>
__global__ void constant_plain_kernel(const float* table, float* out, unsigned n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  float acc = 0;
#pragma unroll
  for (unsigned k = 0; k < constant_loads; ++k) acc += table[constant_index<PerLane>(t, k, n)];
  out[t] = acc;
}

}  // namespace membench::cache
