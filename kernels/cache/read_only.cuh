#pragma once

#include "../common/reduce.cuh"
#include "read_only.hpp"

namespace membench::cache {

// Three kernels with the same loop and three ways to load. Only `out` is written, and only
// after every load, so the restrict kernel is free to use the non-coherent read-only path.

/// Where thread t's k-th load reads: the index every kernel shares.
template <bool Scattered>
__device__ __forceinline__ std::uint64_t read_only_load_index(std::uint64_t t, unsigned k, std::uint64_t n) {
  return read_only_index<Scattered>(read_only_position(t, k, n, std::uint64_t{gridDim.x} * blockDim.x), n);
}

template <bool Scattered>
__global__ void read_only_plain_kernel(const float* in, float* out, std::uint64_t n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  store_load_sum<read_only_loads>(out, t, [=](unsigned k) { return in[read_only_load_index<Scattered>(t, k, n)]; });
}

template <bool Scattered>
__global__ void read_only_restrict_kernel(const float* __restrict__ in, float* __restrict__ out, std::uint64_t n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  store_load_sum<read_only_loads>(out, t, [=](unsigned k) { return in[read_only_load_index<Scattered>(t, k, n)]; });
}

template <bool Scattered>
__global__ void read_only_ldg_kernel(const float* in, float* out, std::uint64_t n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  store_load_sum<read_only_loads>(out, t,
                                  [=](unsigned k) { return __ldg(in + read_only_load_index<Scattered>(t, k, n)); });
}

}  // namespace membench::cache
