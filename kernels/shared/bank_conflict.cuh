#pragma once

#include "bank_conflict.hpp"

namespace membench::shared {

/// Each block fills its tile, then every thread reads reps * bank_unroll elements at
/// bank_element(...) and writes their sum. The loads are volatile: one LDS per source
/// access, neither hoisted out of the loop nor merged into wider loads, so the warp
/// issues exactly the pattern the bank model describes.
template <class W>
__global__ void __launch_bounds__(bank_block) bank_conflict_kernel(unsigned lane_stride, unsigned reps, W* out) {
  __shared__ W tile[bank_tile_elems];
  for (unsigned i = threadIdx.x; i < bank_tile_elems; i += blockDim.x) tile[i] = bank_value<W>(i);
  __syncthreads();
  const unsigned lane = threadIdx.x % warp_lanes, warp = threadIdx.x / warp_lanes;
  const volatile W* p = tile + bank_element(lane_stride, lane, warp, 0);
  W acc = 0;
  for (unsigned r = 0; r < reps; ++r) {
#pragma unroll
    for (unsigned j = 0; j < bank_unroll; ++j) acc += p[j];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

}  // namespace membench::shared
