// A3 memset kernels (The CUDA Handbook 5.2, GPUmemset / GlobalWrites): word stores of 4
// (std::uint32_t) or 16 bytes (uint4), a grid-stride loop over a 1D buffer, or rows walked
// by blocks in a pitched 2D allocation.
#pragma once

#include <cstdint>

#include "memset.hpp"

namespace membench::alloc {

/// out[i] = value for i < n.
template <class T>
__global__ void __launch_bounds__(memset_block) memset_kernel(T* out, std::uint64_t n, T value) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::uint64_t{gridDim.x} * blockDim.x)
    out[i] = value;
}

/// Row r's first row_elems elements = value; rows pitch_elems apart, padding untouched.
template <class T>
__global__ void __launch_bounds__(memset_block)
    memset_2d_kernel(T* base, std::uint64_t pitch_elems, std::uint64_t row_elems, std::uint64_t rows, T value) {
  for (std::uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    T* row = base + r * pitch_elems;
    for (std::uint64_t c = threadIdx.x; c < row_elems; c += blockDim.x) row[c] = value;
  }
}

}  // namespace membench::alloc
