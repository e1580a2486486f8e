// P1 a kernel on d0 reading a buffer that lives on d1, through peer access (or, for the
// in-suite reference, a buffer on d0): 16-byte loads in a grid-stride loop, summed into one
// partial per block so no load can be dropped.
#pragma once

#include <cstdint>

#include "../common/reduce.cuh"
#include "p2p.hpp"

namespace membench::peer {

/// partials[blockIdx.x] = sum (mod 2^32) of the block's words of in[0, n4).
__global__ void __launch_bounds__(peer_block) peer_read_kernel(const uint4* in, std::uint64_t n4, std::uint32_t* partials) {
  std::uint32_t acc = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n4;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const uint4 w = in[i];
    acc += w.x + w.y + w.z + w.w;
  }
  block_sum_store(acc, partials);
}

}  // namespace membench::peer
