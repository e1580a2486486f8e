// The cluster launch of the cluster families (<<<>>> has no cluster size, so their kernels go
// through cudaLaunchKernelEx): the launch configuration, the kernel attributes, and whether a
// cluster of a shape fits here, all asked before any launch.
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime.h>

#include "kernels/cluster/dsm.hpp"

namespace membench::cluster {

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
