// B4 distributed shared memory bandwidth: every block of every cluster reads its
// neighbour's shared array through the cluster's shared window.
#pragma once

#include <cstdint>

#include "../common/reduce.cuh"
#include "dsm.cuh"
#include "dsm_bandwidth.hpp"

namespace membench::cluster {

/// Every block fills its dynamic shared array (dsm_bw_array_bytes) with dsm_value of its
/// own salt and records its SM; after a cluster barrier each thread reads the array of
/// rank dsm_neighbour_rank `passes` times with ld.shared::cluster, dsm_bw_loads_per_pass
/// 16-byte loads in flight a pass at dsm_bw_index (`shift`: dsm_bw_shift), and the block's
/// sum of what it read goes to partials[blockIdx.x]. A last barrier keeps every array alive
/// until its reader is done. Launch dsm_bw_block threads a block, the grid a multiple of
/// the cluster size.
__global__ void __launch_bounds__(dsm_bw_block, 1) dsm_bandwidth_kernel(std::uint32_t passes, std::uint32_t shift,
                                                                       std::uint32_t* partials, std::uint32_t* smids) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ word16 array[];
  const std::uint32_t rank = __clusterRelativeBlockRank();
  const std::uint32_t salt = dsm_block_salt(blockIdx.x);
  for (std::uint32_t i = threadIdx.x; i < dsm_bw_elems; i += blockDim.x) array[i] = dsm_value(salt, i);
  if (threadIdx.x == 0) smids[blockIdx.x] = dsm_smid();
  dsm_cluster_sync();
  const auto local = static_cast<std::uint32_t>(__cvta_generic_to_shared(array));
  const std::uint32_t src = dsm_map(local, dsm_neighbour_rank(rank, __clusterSizeInBlocks()));
  std::uint32_t acc = 0;
  for (std::uint32_t p = 0; p < passes; ++p) {
    word16 v[dsm_bw_loads_per_pass];
#pragma unroll
    for (std::uint32_t j = 0; j < dsm_bw_loads_per_pass; ++j) {
      v[j] = dsm_load16(src + dsm_bw_index(threadIdx.x, j, p, shift) * static_cast<std::uint32_t>(sizeof(word16)));
    }
#pragma unroll
    for (std::uint32_t j = 0; j < dsm_bw_loads_per_pass; ++j) acc += dsm_fold(v[j]);
  }
  block_sum_store(acc, partials);
  dsm_cluster_sync();
#endif
}

}  // namespace membench::cluster
