#pragma once

#include "../common/reduce.cuh"
#include "managed.hpp"

namespace membench::host {

/// Grid-stride sum of `n` words; one partial per block.
__global__ void managed_read_kernel(const std::uint32_t* words, std::size_t n, std::uint32_t* partials) {
  std::uint32_t acc = 0;
  const std::size_t stride = std::size_t{gridDim.x} * blockDim.x;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += stride) acc += words[i];
  block_sum_store(acc, partials);
}

}  // namespace membench::host
