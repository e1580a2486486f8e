// B5 L2 persistence: the load, the kernel and the fill (the host part is l2_persist.hpp).
#pragma once

#include "../common/reduce.cuh"
#include "l2_persist.hpp"

namespace membench::global {

/// ld.global.cg: the L2 only. An SM meets a hot chunk again only after about 1 MiB of its own
/// loads (a pass over its L1 several times), so L1 would never hit anyway; the explicit
/// qualifier makes the SASS the same in the default, ca and cg builds.
__device__ __forceinline__ word16 l2_persist_load(const word16* p) {
  word16 v;
  asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

/// Grid-stride over the launch's items; blockDim.x must be l2_persist_block. Each block
/// writes the sum of what its threads loaded to partials[blockIdx.x].
__global__ void l2_persist_kernel(const word16* hot, const word16* stream, l2_persist_shape s, std::uint32_t* partials) {
  std::uint32_t acc = 0;
  const std::uint32_t items = s.items();
  for (std::uint32_t k = blockIdx.x; k < items; k += gridDim.x) {
    const l2_persist_item it = l2_persist_item_at(s, k);
    const word16* base = (it.hot ? hot : stream) + l2_persist_index(it.chunk, 0, threadIdx.x);
    word16 v[l2_persist_loads];
#pragma unroll
    for (unsigned u = 0; u < l2_persist_loads; ++u) v[u] = l2_persist_load(base + u * l2_persist_block);
#pragma unroll
    for (unsigned u = 0; u < l2_persist_loads; ++u) acc += l2_persist_fold(v[u]);
  }
  block_sum_store(acc, partials);
}

}  // namespace membench::global
