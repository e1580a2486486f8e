// L1 bandwidth: the kernel (the host part is l1_bandwidth.hpp).
#pragma once

#include "../common/reduce.cuh"
#include "l1_bandwidth.hpp"

namespace membench::cache {

/// Reads the set of the SM it runs on `passes` times with plain loads (the build's -dlcm
/// decides whether they are cached in L1), Loads = l1_bw_loads(set bytes, sizeof(W))
/// independent loads per thread per pass at immediate offsets from one base; stores the
/// block's sum at partials[blockIdx.x] and its %smid at smids[blockIdx.x]. Launch with
/// l1_bw_block threads, one block per SM.
template <class W, unsigned Loads>
__global__ void __launch_bounds__(l1_bw_block, 1) l1_bandwidth_kernel(const W* sets, std::uint32_t slots,
                                                                      std::uint32_t passes, std::uint32_t* partials,
                                                                      std::uint32_t* smids) {
  constexpr unsigned accs = Loads < 8 ? Loads : 8;
  constexpr unsigned pass_unroll = Loads < 8 ? 8 / Loads : 1;  // at least 8 loads in flight per thread
  std::uint32_t smid;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  const W* set = sets + std::uint64_t{l1_bw_slot(smid, slots)} * (Loads * l1_bw_block);
  std::uint32_t acc[accs] = {};
#pragma unroll pass_unroll
  for (std::uint32_t p = 0; p < passes; ++p) {
    const W* base = set + shared::bw_element(threadIdx.x, 0, p, l1_bw_block);
#pragma unroll
    for (unsigned k = 0; k < Loads; ++k) acc[k % accs] += shared::bw_fold(base[k * l1_bw_block]);
  }
  std::uint32_t sum = 0;
#pragma unroll
  for (unsigned a = 0; a < accs; ++a) sum += acc[a];
  block_sum_store(sum, partials);
  if (threadIdx.x == 0) smids[blockIdx.x] = smid;
}

}  // namespace membench::cache
