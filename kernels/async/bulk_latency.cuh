// B3 bulk-copy latency: the chase kernel (the host part is bulk_latency.hpp; the chain's build
// and reset kernels are kernels/common/chase.cuh).
#pragma once

#include "../common/chase.cuh"
#include "bulk_latency.hpp"
#include "staging.cuh"  // the PTX wrappers

namespace membench::async {

/// `warm` untimed and then `steps` timed dependent copies (multiples of 8) from
/// state->position, one thread: arrive.expect_tx, one 16-byte cp.async.bulk into shared
/// memory, try_wait on the barrier, ld.shared of the next address. Launch <<<1, 1>>>.
/// Below sm_90 the body is compiled out (the host refuses the rows first).
__global__ void bulk_chase_kernel(bulk_chase_state* state, std::uint64_t warm, std::uint64_t steps) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ alignas(16) std::uint64_t node[2];
  __shared__ alignas(8) std::uint64_t bar;
  __shared__ volatile std::uint64_t sink;
  const std::uint32_t node_addr = ptx::smem_addr(node);
  const std::uint32_t bar_addr = ptx::smem_addr(&bar);
  ptx::mbar_init(bar_addr, 1);
  ptx::fence_barrier_init();
  std::uint32_t phase = 0;
  std::uint64_t p = state->position;
  // The wait's memory clobber makes node[0] a fresh ld.shared after every copy; the next
  // copy's source is that value, so the read is done before the copy overwrites the node.
  auto step = [&] {
    ptx::mbar_arrive_expect_tx(bar_addr, bulk_node_bytes);
    ptx::bulk_g2s(node_addr, reinterpret_cast<const void*>(p), bulk_node_bytes, bar_addr);
    ptx::mbar_wait(bar_addr, phase);
    phase ^= 1;
    p = node[0];
  };
  for (std::uint64_t k = 0; k < warm; k += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) step();
  }
  const long long start = clock64();
  for (std::uint64_t k = 0; k < steps; k += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) step();
  }
  sink = p;  // the store waits for the last node's read, so the clock read below comes after it
  const long long stop = clock64();
  state->position = sink;
  state->cycles = static_cast<std::uint64_t>(stop - start);
#else
  (void)state;
  (void)warm;
  (void)steps;
#endif
}

}  // namespace membench::async
