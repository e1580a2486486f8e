// Grid sizes, from the device and the kernel's occupancy. The pure arithmetic
// (blocks_for) is in kernels/common/types.hpp.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "harness/core/check.hpp"
#include "harness/device/device_info.hpp"
#include "kernels/common/types.hpp"

namespace membench {

/// Blocks of `kernel` (`block` threads, `smem` dynamic bytes) one SM holds at once: 0 when
/// the kernel cannot be resident at all with that block. throws cuda_error
template <class Kernel>
int resident_blocks_per_sm(Kernel kernel, unsigned block, std::size_t smem = 0) {
  int per_sm = 0;
  MEMBENCH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(block), smem));
  return per_sm;
}

/// Blocks of `kernel` (`block` threads, `smem` dynamic bytes) resident on the whole GPU at
/// once: a persistent, grid-stride launch. At least one per SM. throws cuda_error
template <class Kernel>
std::uint64_t resident_blocks(Kernel kernel, unsigned block, const device_info& device, std::size_t smem = 0) {
  const int per_sm = resident_blocks_per_sm(kernel, block, smem);
  return std::uint64_t(per_sm > 0 ? per_sm : 1) * static_cast<std::uint64_t>(device.sm_count);
}

/// A grid-stride launch over `tiles` block-sized tiles: resident blocks, never more than tiles.
template <class Kernel>
unsigned grid_stride_blocks(Kernel kernel, unsigned block, std::uint64_t tiles, const device_info& device) {
  const std::uint64_t resident = resident_blocks(kernel, block, device);
  return static_cast<unsigned>(resident < tiles ? resident : tiles);
}

}  // namespace membench
