// Shared-memory bandwidth: the kernel (the host part is bandwidth.hpp).
#pragma once

#include "../common/reduce.cuh"
#include "bandwidth.hpp"

namespace membench::shared {

/// Copies the set into shared memory, then reads it `passes` times (smem_bw_loads<W>
/// independent loads per thread per pass, immediate offsets from one base) and stores the
/// block's sum at partials[blockIdx.x]. Launch with smem_bw_block threads.
template <class W>
__global__ void __launch_bounds__(smem_bw_block) shared_bandwidth_kernel(const W* in, std::uint32_t passes,
                                                                          std::uint32_t* partials) {
  constexpr unsigned loads = smem_bw_loads<W>;
  constexpr unsigned accs = loads < 8 ? loads : 8;
  __shared__ W set[smem_bw_elems<W>];
  for (std::uint32_t i = threadIdx.x; i < smem_bw_elems<W>; i += smem_bw_block) set[i] = in[i];
  __syncthreads();
  std::uint32_t acc[accs] = {};
  for (std::uint32_t p = 0; p < passes; ++p) {
    const W* base = set + bw_element(threadIdx.x, 0, p, smem_bw_block);
#pragma unroll
    for (unsigned k = 0; k < loads; ++k) acc[k % accs] += bw_fold(base[k * smem_bw_block]);
  }
  std::uint32_t sum = 0;
#pragma unroll
  for (unsigned a = 0; a < accs; ++a) sum += acc[a];
  block_sum_store(sum, partials);
}

}  // namespace membench::shared
