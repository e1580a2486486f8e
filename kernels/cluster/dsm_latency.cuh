// B4 distributed shared memory latency: a pointer chase through another block's shared
// memory (or the block's own) through the cluster's shared window.
#pragma once

#include <cstdint>

#include "dsm.cuh"
#include "dsm_latency.hpp"

namespace membench::cluster {

/// Every block writes the same chain (`nodes` nodes 128 bytes apart, node i linking to
/// succ[i]) into its own dynamic shared memory, each link the cluster-window address of the
/// successor in that same block, and its rank beside every link. After a cluster barrier
/// thread 0 of rank 0 walks the chain of rank `target` from node 0, each address the
/// previous load's value: `warm` steps untimed, `steps` timed (multiples of 8). A second
/// barrier keeps every block's memory alive until the walk is done. Launch one cluster with
/// at least dsm_chain_smem_bytes of dynamic shared memory.
__global__ void __launch_bounds__(dsm_chase_block) dsm_latency_kernel(const std::uint32_t* succ, std::uint32_t nodes,
                                                                      std::uint32_t target, std::uint32_t warm,
                                                                      std::uint32_t steps, dsm_chase_result* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ std::uint64_t chain[];
  const std::uint32_t rank = __clusterRelativeBlockRank();
  const std::uint64_t mine = dsm_map_generic(chain, rank);
  for (std::uint32_t i = threadIdx.x; i < nodes; i += blockDim.x) {
    chain[dsm_link_index(i)] = chase_link(mine, succ, i, chase_line_bytes);
    reinterpret_cast<std::uint32_t*>(chain)[dsm_tag_index(i)] = rank;
  }
  if (threadIdx.x == 0 && rank == target) out->target_smid = dsm_smid();
  dsm_cluster_sync();
  if (rank == 0 && threadIdx.x == 0) {
    const std::uint64_t base = dsm_map_generic(chain, target);
    std::uint64_t p = base + chase_node_offset(0, chase_line_bytes);
    for (std::uint32_t k = 0; k < warm; k += 8) {
#pragma unroll
      for (int u = 0; u < 8; ++u) dsm_step(p);
    }
    const long long start = clock64();
    for (std::uint32_t k = 0; k < steps; k += 8) {
#pragma unroll
      for (int u = 0; u < 8; ++u) dsm_step(p);
    }
    reinterpret_cast<volatile std::uint64_t*>(chain)[dsm_sink_index] = p;  // waits for the last load
    const long long stop = clock64();
    out->node_offset = static_cast<std::uint32_t>(p - base);
    out->owner_rank = dsm_load32_generic(p + dsm_tag_byte);
    out->chaser_smid = dsm_smid();
    out->cycles = static_cast<std::uint64_t>(stop - start);
  }
  dsm_cluster_sync();
#endif
}

}  // namespace membench::cluster
