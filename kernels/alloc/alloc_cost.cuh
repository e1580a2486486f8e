// A1 in-kernel allocation (The CUDA Handbook, mallocSpeed.cu: AllocateBuffers and
// FreeBuffers): one malloc or free per thread, plus the untimed kernels that prove every
// allocation usable.
#pragma once

#include <cstdint>

#include "alloc_cost.hpp"

namespace membench::alloc {

__device__ __forceinline__ std::uint64_t device_malloc_thread() { return blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; }

/// Every thread mallocs `alloc_bytes` and keeps the pointer; a null pointer (heap exhausted)
/// counts into *failures.
__global__ void device_malloc_kernel(void** ptrs, std::uint64_t alloc_bytes, unsigned* failures) {
  const std::uint64_t t = device_malloc_thread();
  void* p = malloc(alloc_bytes);
  ptrs[t] = p;
  if (p == nullptr) atomicAdd(failures, 1u);
}

/// Every thread frees its allocation (free(nullptr) does nothing).
__global__ void device_free_kernel(void** ptrs) {
  const std::uint64_t t = device_malloc_thread();
  free(ptrs[t]);
  ptrs[t] = nullptr;
}

/// Every thread writes its pattern over its whole allocation (16-byte stores: malloc
/// returns 16-byte aligned memory).
__global__ void device_malloc_fill_kernel(void* const* ptrs, std::uint64_t alloc_bytes) {
  const std::uint64_t t = device_malloc_thread();
  auto* p = static_cast<uint4*>(ptrs[t]);
  if (p == nullptr) return;
  for (std::uint64_t k = 0; k < alloc_bytes / 16; ++k) {
    p[k] = make_uint4(device_malloc_word(t, alloc_bytes, k, 0), device_malloc_word(t, alloc_bytes, k, 1),
                      device_malloc_word(t, alloc_bytes, k, 2), device_malloc_word(t, alloc_bytes, k, 3));
  }
}

/// Launched after the fill kernel has finished: every thread reads its allocation back and
/// counts the words that differ from its pattern into *mismatches (missing allocations too).
__global__ void device_malloc_check_kernel(void* const* ptrs, std::uint64_t alloc_bytes, unsigned* mismatches) {
  const std::uint64_t t = device_malloc_thread();
  const auto* p = static_cast<const uint4*>(ptrs[t]);
  if (p == nullptr) {
    atomicAdd(mismatches, 1u);
    return;
  }
  unsigned bad = 0;
  for (std::uint64_t k = 0; k < alloc_bytes / 16; ++k) {
    const uint4 v = p[k];
    bad += (v.x != device_malloc_word(t, alloc_bytes, k, 0)) + (v.y != device_malloc_word(t, alloc_bytes, k, 1)) +
           (v.z != device_malloc_word(t, alloc_bytes, k, 2)) + (v.w != device_malloc_word(t, alloc_bytes, k, 3));
  }
  if (bad != 0) atomicAdd(mismatches, bad);
}

}  // namespace membench::alloc
