#pragma once

#include "fault.hpp"

namespace membench::global {

__global__ void fault_kernel(const float* in, float* out, std::size_t n, std::uintptr_t bad_address) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  fault_copy_element(i, n, in, out);
  if (i == 0) out[0] += *reinterpret_cast<const volatile float*>(bad_address);
}

}  // namespace membench::global
