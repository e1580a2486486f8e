// L2 bandwidth: the load and the kernel (the host part is l2_bandwidth.hpp).
#pragma once

#include "../common/reduce.cuh"
#include "l2_bandwidth.hpp"

namespace membench::cache {

/// 16 bytes from L2: .cg skips L1 whatever -dlcm the build has.
__device__ __forceinline__ word16 l2_bw_load(const word16* p) {
  word16 v;
  asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

/// Every thread makes s.loads loads at l2_bw_element(s, t, j), l2_bw_unroll of them
/// independent at a time, and the block stores its sum at partials[blockIdx.x].
__global__ void __launch_bounds__(l2_bw_block) l2_bandwidth_kernel(const word16* set, l2_bw_shape s,
                                                                    std::uint32_t* partials) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  auto e = static_cast<std::uint32_t>(t % s.n);
  std::uint32_t acc[4] = {};
  for (std::uint32_t j = 0; j < s.loads; j += l2_bw_unroll) {
#pragma unroll
    for (unsigned u = 0; u < l2_bw_unroll; ++u) {
      acc[u % 4] += shared::bw_fold(l2_bw_load(set + e));
      e += s.step;
      if (e >= s.n) e -= s.n;
    }
  }
  block_sum_store(acc[0] + acc[1] + acc[2] + acc[3], partials);
}

}  // namespace membench::cache
