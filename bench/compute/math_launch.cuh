// H5: the launchers declared in math_variants.hpp, compiled once per build of
// kernels/compute/vector_math.cuh: math_precise.cu and math_fast.cu include this file after
// the kernels, with MEMBENCH_MATH_NS still defined, so each build launches its own kernels.
#pragma once

#ifndef MEMBENCH_MATH_NS
#error "include kernels/compute/vector_math.cuh (with MEMBENCH_MATH_NS defined) first"
#endif

#include <cstddef>

#include <cuda_runtime_api.h>

#include "kernels/common/types.hpp"
#include "kernels/compute/vector_math.hpp"

namespace membench::compute::MEMBENCH_MATH_NS {

void launch_vector_add(const float* a, const float* b, float* c, std::size_t n, cudaStream_t s) {
  const auto grid = static_cast<unsigned>(blocks_for(n, vector_math_block));
  vector_add_kernel<<<grid, vector_math_block, 0, s>>>(a, b, c, n);
}

void launch_transcendental(const float* a, const float* b, float* c, std::size_t n, cudaStream_t s) {
  const auto grid = static_cast<unsigned>(blocks_for(n, vector_math_block));
  transcendental_kernel<<<grid, vector_math_block, 0, s>>>(a, b, c, n);
}

}  // namespace membench::compute::MEMBENCH_MATH_NS
