#pragma once

#include "l1_split.hpp"

namespace membench::cache {

/// Block b sums its region s.passes times; lane 0 of each warp stores the warp's sum and
/// thread 0 records where the block ran and the shared memory it was given. No static
/// shared memory, so the carveout is the only claim on the SM's shared capacity.
__global__ void __launch_bounds__(l1_split_block) l1_split_kernel(const word16* in, l1_split_shape s,
                                                                   std::uint32_t* warp_sums, std::uint32_t* info) {
  const word16* region = in + blockIdx.x * s.block_elems;
  std::uint32_t acc = 0;
  for (std::uint32_t p = 0; p < s.passes; ++p) {
#pragma unroll 4
    for (std::uint64_t j = threadIdx.x; j < s.block_elems; j += l1_split_block) acc += l1_split_fold(region[j], p);
  }
  for (int d = 16; d > 0; d /= 2) acc += __shfl_down_sync(0xFFFFFFFFu, acc, d);
  if (threadIdx.x % 32 == 0) warp_sums[blockIdx.x * l1_split_warps + threadIdx.x / 32] = acc;
  if (threadIdx.x == 0) {
    std::uint32_t smid = 0, total = 0, dynamic = 0;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(total));
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dynamic));
    info[blockIdx.x * l1_split_info_words] = smid;
    info[blockIdx.x * l1_split_info_words + 1] = total;
    info[blockIdx.x * l1_split_info_words + 2] = dynamic;
  }
}

}  // namespace membench::cache
