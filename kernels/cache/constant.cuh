#pragma once

#include "../common/reduce.cuh"
#include "constant.hpp"

namespace membench::cache {

/// The table in the constant bank (64 KiB, the most one kernel can address); the global
/// copy for the ldg and plain kernels holds the same values.
__constant__ float constant_table[constant_table_max];

// Three kernels with the same sum and three ways to load the table.

template <bool PerLane>
__global__ void constant_constant_kernel(float* out, unsigned n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  store_load_sum<constant_loads>(out, t, [=](unsigned k) { return constant_table[constant_index<PerLane>(t, k, n)]; });
}

template <bool PerLane>
__global__ void constant_ldg_kernel(const float* table, float* out, unsigned n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  store_load_sum<constant_loads>(out, t, [=](unsigned k) { return __ldg(table + constant_index<PerLane>(t, k, n)); });
}

template <bool PerLane>
__global__ void constant_plain_kernel(const float* table, float* out, unsigned n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  store_load_sum<constant_loads>(out, t, [=](unsigned k) { return table[constant_index<PerLane>(t, k, n)]; });
}

}  // namespace membench::cache
