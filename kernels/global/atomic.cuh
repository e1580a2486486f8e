#pragma once

#include "atomic.hpp"

namespace membench::global {

struct device_atomic_add {
  template <class T>
  __device__ void operator()(T* address, T value) const {
    atomicAdd(address, value);
  }
};

template <class T>
__global__ void atomic_kernel(T* counters, std::size_t n, std::uint64_t threads, unsigned adds, atomic_pattern p) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  if (t < threads) atomic_add_element(t, counters, n, adds, p, device_atomic_add{});
}

}  // namespace membench::global
