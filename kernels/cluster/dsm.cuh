// B4 distributed shared memory: what the two kernels (dsm_latency.cuh, dsm_bandwidth.cuh)
// share: the cluster-window loads, the SM id, the cluster barrier, and the cluster launch
// (<<<>>> has no cluster size, so the kernels go through cudaLaunchKernelEx).
//
// Clusters need sm_90: for older targets the device functions are not compiled and the
// kernels have empty bodies (the host side refuses such GPUs and builds before any launch;
// an empty body would fail verification, not poison the context).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <cuda_runtime.h>

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

// ---- Host side: the cluster launch.

/// A launch of `grid` blocks of `block` threads in clusters of `cluster` blocks along x.
struct cluster_shape {
  unsigned grid = 1;
  unsigned block = 1;
  std::size_t smem = 0;
  unsigned cluster = 1;
};

/// Fills `cfg` (which keeps a pointer to `attr`) for `shape` on stream `s`.
inline void make_cluster_config(const cluster_shape& shape, cudaStream_t s, cudaLaunchAttribute& attr,
                                cudaLaunchConfig_t& cfg) {
  attr = cudaLaunchAttribute{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = shape.cluster;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cfg = cudaLaunchConfig_t{};
  cfg.gridDim = dim3(shape.grid);
  cfg.blockDim = dim3(shape.block);
  cfg.dynamicSmemBytes = shape.smem;
  cfg.stream = s;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
}

/// Allows `smem` bytes of dynamic shared memory and clusters beyond the portable 8 (16 on
/// H100/H200). Returns the first error.
template <class... Params>
cudaError_t prepare_cluster_kernel(void (*kernel)(Params...), std::size_t smem) {
  cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
  if (e != cudaSuccess) return e;
  return cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
}

/// Clusters of `shape` (grid ignored) that can be resident at once, in `*clusters`.
template <class... Params>
cudaError_t max_active_clusters(void (*kernel)(Params...), cluster_shape shape, int* clusters) {
  shape.grid = shape.cluster;  // one cluster: the grid must be a multiple of the cluster
  cudaLaunchAttribute attr;
  cudaLaunchConfig_t cfg;
  make_cluster_config(shape, nullptr, attr, cfg);
  return cudaOccupancyMaxActiveClusters(clusters, kernel, &cfg);
}

/// Whether a cluster launch of `kernel` can run here.
struct cluster_fit {
  cudaError_t error = cudaSuccess;  ///< a call that failed: the caller throws it
  std::string problem;              ///< why it cannot run here, "" when it can: the caller skips the row
  int clusters = 0;                 ///< clusters of the shape resident at once
};

/// Checks the GPU and the loaded code, sets the kernel's attributes and asks how many
/// clusters of `shape` fit, all before any launch.
template <class... Params>
cluster_fit fit_clusters(void (*kernel)(Params...), const cluster_shape& shape, int device_arch) {
  cluster_fit f;
  f.problem = dsm_arch_problem(device_arch);
  if (!f.problem.empty()) return f;
  cudaFuncAttributes attr{};
  f.error = cudaFuncGetAttributes(&attr, kernel);
  if (f.error != cudaSuccess) return f;
  f.problem = dsm_binary_problem(attr.binaryVersion);
  if (!f.problem.empty()) return f;
  f.error = prepare_cluster_kernel(kernel, shape.smem);
  if (f.error != cudaSuccess) return f;
  const cudaError_t e = max_active_clusters(kernel, shape, &f.clusters);
  if (e == cudaErrorInvalidClusterSize) {  // this GPU or driver refuses the size: a skip, not a failure
    (void)cudaGetLastError();
    f.problem = std::string("cudaOccupancyMaxActiveClusters: ") + cudaGetErrorString(e);
    return f;
  }
  f.error = e;
  if (e == cudaSuccess) f.problem = dsm_fit_problem(shape.cluster, shape.smem, f.clusters);
  return f;
}

/// Launches `kernel` with `shape` on `s`. Returns the launch's error.
template <class... Params, class... Args>
cudaError_t launch_clustered(void (*kernel)(Params...), const cluster_shape& shape, cudaStream_t s, Args... args) {
  cudaLaunchAttribute attr;
  cudaLaunchConfig_t cfg;
  make_cluster_config(shape, s, attr, cfg);
  return cudaLaunchKernelEx(&cfg, kernel, args...);
}

}  // namespace membench::cluster
