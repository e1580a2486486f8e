// P1 kernels that touch another GPU's memory through peer access: a read that sums a buffer
// (16-byte loads in a grid-stride loop, one partial per block so no load can be dropped; also
// the in-suite reference on a buffer of the GPU's own), and a write that stores a cheap
// pattern (16-byte stores), so that both stay bound by the link.
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

/// Word j of out[0, n4) (as 32-bit words) = peer_write_word(device, j).
__global__ void __launch_bounds__(peer_block) peer_write_kernel(uint4* out, std::uint64_t n4, int device) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n4;
       i += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t j = 4 * i;
    out[i] = make_uint4(peer_write_word(device, j), peer_write_word(device, j + 1), peer_write_word(device, j + 2),
                        peer_write_word(device, j + 3));
  }
}

}  // namespace membench::peer
