// Compiled into each build with that build's -dlcm flag: the run-time proof of how its
// kernels were compiled. binaryVersion shows the SASS is ours (not JIT-compiled PTX,
// which would drop the flag); a dependent-load chain over 4 KiB shows whether plain
// loads are served by L1 (default, ca) or go to L2 (cg). cacheModeCA is recorded too, but
// CUDA 13 reports 0 for -dlcm=ca on sm_90, so it cannot prove the mode by itself.
#include "build_probe.hpp"

#include "harness/core/check.hpp"
#include "harness/core/resources.hpp"

#ifndef MEMBENCH_CACHE_MODE
#error "MEMBENCH_CACHE_MODE must be defined by the build (default, ca or cg)"
#endif

namespace membench {
namespace {

constexpr unsigned chain_length = 1024;  // 4 KiB: resident in any L1
constexpr unsigned chain_step = 33;      // 132 bytes: a new sector every load

__global__ void build_probe_kernel(const unsigned* chain, unsigned steps, unsigned* out, long long* cycles) {
  unsigned idx = 0;
  for (unsigned s = 0; s < steps; ++s) idx = chain[idx];  // warms L1 (or L2 for cg)
  const long long t0 = clock64();
  for (unsigned s = 0; s < steps; ++s) idx = chain[idx];
  const long long t1 = clock64();
  *out = idx;
  *cycles = t1 - t0;
}

}  // namespace

const char* build_cache_mode() { return MEMBENCH_CACHE_MODE; }

probe_attributes build_probe_attributes() {
  cudaFuncAttributes a{};
  MEMBENCH_CUDA_CHECK(cudaFuncGetAttributes(&a, build_probe_kernel));
  unsigned host_chain[chain_length];
  for (unsigned i = 0; i < chain_length; ++i) host_chain[i] = (i + chain_step) % chain_length;
  device_buffer<unsigned> chain(chain_length), out(1);
  device_buffer<long long> cycles(1);
  MEMBENCH_CUDA_CHECK(cudaMemcpy(chain.data(), host_chain, sizeof host_chain, cudaMemcpyHostToDevice));
  build_probe_kernel<<<1, 1>>>(chain.data(), chain_length, out.data(), cycles.data());
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  long long c = 0;
  MEMBENCH_CUDA_CHECK(cudaMemcpy(&c, cycles.data(), sizeof c, cudaMemcpyDeviceToHost));
  return {a.cacheModeCA, a.binaryVersion, a.ptxVersion, static_cast<double>(c) / chain_length};
}

}  // namespace membench
