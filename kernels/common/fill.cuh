// The deterministic input most families write once into their workspace: every element
// from its index through the experiment's element function (the one its host reference uses).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace membench {

/// out[i] = Value(i, args...) for every i < n, grid-stride. Value: a MEMBENCH_HD element function.
template <auto Value, class T, class... Args>
__global__ void fill_kernel(T* out, std::uint64_t n, Args... args) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += stride) {
    out[i] = Value(i, args...);
  }
}

/// Enqueues fill_kernel<Value> on `s` over a fixed grid (the fill is never timed); the caller
/// checks cudaGetLastError.
template <auto Value, class T, class... Args>
void fill_device(T* out, std::uint64_t n, cudaStream_t s, Args... args) {
  fill_kernel<Value><<<1024, 256, 0, s>>>(out, n, args...);
}

}  // namespace membench
