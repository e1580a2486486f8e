#pragma once

#include "stride.hpp"

namespace membench::global {

template <class T>
__global__ void read_stride_kernel(const T* in, T* out, std::uint64_t n_out, std::uint64_t stride) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (i < n_out) read_stride_element(i, stride, in, out);
}

}  // namespace membench::global
