#pragma once

#include "../common/reduce.cuh"
#include "working_set.hpp"

namespace membench::global {

template <bool Pow2>
__global__ void working_set_kernel(const word16* in, working_set_shape s, std::uint32_t* partials) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  std::uint32_t acc = 0;
  working_set_cursor<Pow2> c(s, t);
  const auto loads = static_cast<std::uint32_t>(c.loads(s));  // below 2^26: 1 GiB of 16-byte loads
#pragma unroll 8
  for (std::uint32_t k = 0; k < loads; ++k) {
    // A 16-byte vector load, spelled out: behind the wrap-around select of the general
    // path, NVVM split the struct's load into four 4-byte loads (75 % L1 hits at any size).
    const uint4 v = reinterpret_cast<const uint4*>(in)[c.index()];
    acc += working_set_fold(word16{v.x, v.y, v.z, v.w});
    c.next();
  }
  block_sum_store(acc, partials);
}

}  // namespace membench::global
