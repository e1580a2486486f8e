// H5 kernels, one source for two builds. Included once by bench/compute/math_precise.cu and
// once by bench/compute/math_fast.cu (compiled with --use_fast_math), each defining
// MEMBENCH_MATH_NS (math_precise / math_fast) first: the kernels land in that namespace, so the
// two device builds of the same functions have different symbols
// (ncu: membench::compute::math_fast::transcendental_kernel). Their launchers are
// bench/compute/math_launch.cuh.
#pragma once

#ifndef MEMBENCH_MATH_NS
#error "define MEMBENCH_MATH_NS (math_precise or math_fast) before including vector_math.cuh"
#endif

#include <cstddef>

#include "vector_math.hpp"

namespace membench::compute::MEMBENCH_MATH_NS {

/// Example 1, as in the lecture: one element per thread.
__global__ void __launch_bounds__(vector_math_block)
    vector_add_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) c[i] = vector_add_element(a[i], b[i]);
}

/// Example 2: one element per thread, its 100 terms summed in a register.
__global__ void __launch_bounds__(vector_math_block) transcendental_kernel(const float* __restrict__ a,
                                                                           const float* __restrict__ b,
                                                                           float* __restrict__ c, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) c[i] = transcendental_element(a[i], b[i]);
}

}  // namespace membench::compute::MEMBENCH_MATH_NS
