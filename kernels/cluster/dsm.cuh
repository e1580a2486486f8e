// B4 distributed shared memory: the device functions the two kernels (dsm_latency.cuh,
// dsm_bandwidth.cuh) share: the cluster-window loads, the SM id, the cluster barrier.
//
// Clusters need sm_90: for older targets the device functions are not compiled and the
// kernels have empty bodies (the host side refuses such GPUs and builds before any launch;
// an empty body would fail verification, not poison the context).
#pragma once

#include <cstdint>

#include "../common/types.hpp"
#include "dsm.hpp"

namespace membench::cluster {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
/// The generic address of `p` (this block's shared memory) in the block of cluster rank
/// `rank`: an address in the cluster's shared window, whichever block it names.
__device__ __forceinline__ std::uint64_t dsm_map_generic(const void* p, std::uint32_t rank) {
  return reinterpret_cast<std::uint64_t>(__cluster_map_shared_rank(p, rank));
}

/// The 32-bit shared::cluster address of shared::cta address `local` in rank `rank`'s block.
__device__ __forceinline__ std::uint32_t dsm_map(std::uint32_t local, std::uint32_t rank) {
  std::uint32_t r;
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local), "r"(rank));
  return r;
}

/// One dependent step of a chase: the 8 bytes at `p` are the next address. A generic load
/// (what ld.shared::cluster compiles to on sm_90 anyway) of a full 64-bit address, so that
/// no instruction stands between two loads (a 32-bit shared::cluster address needs a move
/// to join it to the window's upper half before every load).
__device__ __forceinline__ void dsm_step(std::uint64_t& p) {
  asm volatile("ld.u64 %0, [%0];" : "+l"(p) : : "memory");
}

__device__ __forceinline__ std::uint32_t dsm_load32_generic(std::uint64_t p) {
  std::uint32_t v;
  asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

/// volatile: the same addresses every pass must be loaded again every pass.
__device__ __forceinline__ word16 dsm_load16(std::uint32_t address) {
  word16 v;
  asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "r"(address)
               : "memory");
  return v;
}

__device__ __forceinline__ std::uint32_t dsm_smid() {
  std::uint32_t r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

/// Every thread of every block of the cluster: writes before it are visible to every
/// block after it (release/acquire), and no block leaves while another may still read it.
__device__ __forceinline__ void dsm_cluster_sync() {
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
}
#endif

}  // namespace membench::cluster
