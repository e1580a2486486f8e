#pragma once

#include "../common/reduce.cuh"
#include "bandwidth.hpp"

namespace membench::global {

// Tiles of blockDim*Unroll elements; GridStride loops a resident grid over the tiles,
// otherwise each block does one tile. Plain loads (no __restrict__/__ldg): the -dlcm
// flag decides their caching.

/// Tiles of blockDim.x * Unroll elements over n elements.
template <int Unroll>
__device__ __forceinline__ std::uint64_t tile_count(std::size_t n) {
  return (n + std::uint64_t{blockDim.x} * Unroll - 1) / (std::uint64_t{blockDim.x} * Unroll);
}

/// v[k] = in[the thread's k-th element of tile t] for its elements below n: every load of the
/// tile issued before any is used.
template <class T, int Unroll>
__device__ __forceinline__ void load_tile(const T* in, std::size_t n, std::uint64_t t, T (&v)[Unroll]) {
#pragma unroll
  for (int k = 0; k < Unroll; ++k) {
    const std::uint64_t i = tile_element(t, blockDim.x, Unroll, threadIdx.x, k);
    if (i < n) v[k] = in[i];
  }
}

template <class T, int Unroll, bool GridStride>
__global__ void read_kernel(const T* in, std::size_t n, std::uint32_t* partials) {
  const std::uint64_t tiles = tile_count<Unroll>(n);
  std::uint32_t acc = 0;
  for (std::uint64_t t = blockIdx.x; t < tiles; t += GridStride ? gridDim.x : tiles) {
    T v[Unroll] = {};
    load_tile(in, n, t, v);
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      const std::uint64_t i = tile_element(t, blockDim.x, Unroll, threadIdx.x, k);
      if (i < n) acc += fold_element(v[k], i);
    }
  }
  block_sum_store(acc, partials);
}

template <class T, int Unroll, bool GridStride>
__global__ void write_kernel(T* out, std::size_t n) {
  const std::uint64_t tiles = tile_count<Unroll>(n);
  for (std::uint64_t t = blockIdx.x; t < tiles; t += GridStride ? gridDim.x : tiles) {
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      const std::uint64_t i = tile_element(t, blockDim.x, Unroll, threadIdx.x, k);
      if (i < n) out[i] = write_element<T>(i);
    }
  }
}

template <class T, int Unroll, bool GridStride>
__global__ void copy_kernel(const T* in, T* out, std::size_t n) {
  const std::uint64_t tiles = tile_count<Unroll>(n);
  for (std::uint64_t t = blockIdx.x; t < tiles; t += GridStride ? gridDim.x : tiles) {
    T v[Unroll] = {};
    load_tile(in, n, t, v);
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      const std::uint64_t i = tile_element(t, blockDim.x, Unroll, threadIdx.x, k);
      if (i < n) out[i] = v[k];
    }
  }
}

}  // namespace membench::global
