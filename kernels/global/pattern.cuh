#pragma once

#include "pattern.hpp"

namespace membench::global {

template <class T>
__global__ void read_scatter_kernel(const T* in, T* out, std::uint64_t n) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i < n) read_scatter_element(i, n, in, out);
}

template <class T>
__global__ void read_reuse_kernel(const T* in, T* out) {
  read_reuse_element(blockIdx.x, threadIdx.x, in, out);
}

}  // namespace membench::global
