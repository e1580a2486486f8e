// A2 row-walking kernels over a 2D array of 4-byte elements whose rows are `pitch_words`
// apart: each block walks rows (grid-stride over rows), its threads walk the row's
// elements, so every row starts a fresh run of coalesced requests at the row's alignment.
#pragma once

#include <cstdint>

#include "pitched.hpp"

namespace membench::alloc {

/// out(r, c) = in(r, c) for c < cols; the padding is neither read nor written.
__global__ void __launch_bounds__(pitched_block)
    pitched_kernel(const std::uint32_t* in, std::uint32_t* out, std::uint64_t pitch_words, std::uint64_t cols,
                   std::uint64_t rows) {
  for (std::uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    for (std::uint64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      const std::uint64_t i = pitched_index(r, c, pitch_words);
      out[i] = in[i];
    }
  }
}

/// a(r, c) = pitched_value(r, c, cols): the source of the device-to-device rows.
__global__ void __launch_bounds__(pitched_block)
    pitched_fill_kernel(std::uint32_t* a, std::uint64_t pitch_words, std::uint64_t cols, std::uint64_t rows) {
  for (std::uint64_t r = blockIdx.x; r < rows; r += gridDim.x) {
    for (std::uint64_t c = threadIdx.x; c < cols; c += blockDim.x) a[pitched_index(r, c, pitch_words)] = pitched_value(r, c, cols);
  }
}

}  // namespace membench::alloc
