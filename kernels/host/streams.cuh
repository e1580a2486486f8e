#pragma once

#include "streams.hpp"

namespace membench::host {

/// One chunk: elements [begin, begin + n) of the whole arrays.
__global__ void pipeline_kernel(const float* a, const float* b, float* c, std::size_t begin, std::size_t n, int fmas) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) pipeline_element(begin + i, a, b, c, fmas);
}

}  // namespace membench::host
