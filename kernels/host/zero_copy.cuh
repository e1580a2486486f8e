#pragma once

#include "zero_copy.hpp"

namespace membench::host {

/// One element per thread, as in the lesson.
template <class T>
__global__ void sum_arrays_kernel(const T* a, const T* b, T* c, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i < n) sum_arrays_element(i, a, b, c);
}

}  // namespace membench::host
