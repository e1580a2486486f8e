// Compiled into each build with that build's -dlcm flag: the run-time proof of how its
// kernels were compiled (cacheModeCA, binaryVersion) and a plain load for the SASS check.
#include "build_probe.hpp"

#include "check.hpp"

#ifndef MEMBENCH_CACHE_MODE
#error "MEMBENCH_CACHE_MODE must be defined by the build (default, ca or cg)"
#endif

namespace membench {

__global__ void build_probe_kernel(const float* in, float* out) { out[threadIdx.x] = in[threadIdx.x] + 1.0f; }

const char* build_cache_mode() { return MEMBENCH_CACHE_MODE; }

probe_attributes build_probe_attributes() {
  cudaFuncAttributes a{};
  MEMBENCH_CUDA_CHECK(cudaFuncGetAttributes(&a, build_probe_kernel));
  return {a.cacheModeCA, a.binaryVersion, a.ptxVersion};
}

}  // namespace membench
