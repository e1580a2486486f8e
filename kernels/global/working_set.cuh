#pragma once

#include "../common/reduce.cuh"
#include "working_set.hpp"

namespace membench::global {

__global__ void working_set_kernel(const word16* in, working_set_shape s, std::uint32_t* partials) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  std::uint32_t acc = 0;
#pragma unroll 2
  for (std::uint64_t p = 0; p < s.passes; ++p) {
#pragma unroll 4
    for (std::uint64_t j = 0; j < s.inner; ++j) {
      const std::uint64_t e = t + j * s.threads;
      if (e < s.span) acc += working_set_fold(in[working_set_index(s, e, p)]);
    }
  }
  block_sum_store(acc, partials);
}

}  // namespace membench::global
