#pragma once

#include "offset.hpp"

namespace membench::global {

template <class T>
__global__ void read_offset_kernel(const T* a, const T* b, T* c, std::size_t n, std::size_t offset) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) read_offset_element(i, n, offset, a, b, c);
}

template <class T>
__global__ void write_offset_kernel(const T* a, const T* b, T* c, std::size_t n, std::size_t offset) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) write_offset_element(i, n, offset, a, b, c);
}

}  // namespace membench::global
