#pragma once

#include "read_only.hpp"

namespace membench::cache {

// Three kernels with the same loop and three ways to load. Only `out` is written, and only
// after every load, so the restrict kernel is free to use the non-coherent read-only path.

template <bool Scattered>
__global__ void read_only_plain_kernel(const float* in, float* out, std::uint64_t n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  const std::uint64_t threads = std::uint64_t{gridDim.x} * blockDim.x;
  float acc = 0;
#pragma unroll
  for (unsigned k = 0; k < read_only_loads; ++k) acc += in[read_only_index<Scattered>(read_only_position(t, k, n, threads), n)];
  out[t] = acc;
}

template <bool Scattered>
__global__ void read_only_restrict_kernel(const float* __restrict__ in, float* __restrict__ out, std::uint64_t n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  const std::uint64_t threads = std::uint64_t{gridDim.x} * blockDim.x;
  float acc = 0;
#pragma unroll
  for (unsigned k = 0; k < read_only_loads; ++k) acc += in[read_only_index<Scattered>(read_only_position(t, k, n, threads), n)];
  out[t] = acc;
}

template <bool Scattered>
__global__ void read_only_ldg_kernel(const float* in, float* out, std::uint64_t n) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  const std::uint64_t threads = std::uint64_t{gridDim.x} * blockDim.x;
  float acc = 0;
#pragma unroll
  for (unsigned k = 0; k < read_only_loads; ++k)
    acc += __ldg(in + read_only_index<Scattered>(read_only_position(t, k, n, threads), n));
  out[t] = acc;
}

}  // namespace membench::cache
