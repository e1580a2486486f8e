// B3 staging: the PTX wrappers of the async copies and the mbarrier, and the kernels (the
// host part is staging.hpp).
#pragma once

#include <cuda.h>  // CUtensorMap (the type only: libcuda is reached at run time, never linked)

#include "../common/reduce.cuh"
#include "staging.hpp"

namespace membench::async {

// ---- PTX wrappers: the async copies and the mbarrier (shared-memory addresses are 32-bit) ---

namespace ptx {

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// LDGSTS: 16 bytes global -> shared, L1 bypassed (.cg), completion per commit group.
__device__ __forceinline__ void cp_async_16(std::uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
/// Waits until at most N of this thread's groups are pending.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void mbar_init(std::uint32_t bar, std::uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
/// After mbarrier.init (generic proxy), before the async proxy completes transactions on it.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
/// One arrival that also expects `bytes` of transactions before the phase can complete.
__device__ __forceinline__ void mbar_arrive_expect_tx(std::uint32_t bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
/// Spins until the phase of parity `parity` has completed (acquire: the copied bytes are
/// visible to this thread afterwards).
__device__ __forceinline__ void mbar_wait(std::uint32_t bar, std::uint32_t parity) {
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}
/// 1D TMA: `bytes` (a multiple of 16, both addresses 16-byte aligned) global -> shared,
/// completing `bytes` transactions on `bar`.
__device__ __forceinline__ void bulk_g2s(std::uint32_t dst, const void* src, std::uint32_t bytes, std::uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}
/// 2D TMA: the box of `map` at element coordinates (c0, c1) -> shared (128-byte aligned).
__device__ __forceinline__ void tensor_g2s_2d(std::uint32_t dst, const CUtensorMap* map, std::int32_t c0, std::int32_t c1,
                                              std::uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}
#endif

}  // namespace ptx

/// Launch with staging_block threads and staging_smem_bytes(Stages) of dynamic shared memory.
/// `map` is used by the tensor method only. Each block writes its checksum to partials[b].
/// Device code below the method's architecture (staging_min_arch) is left out and the block
/// writes 0: the host refuses those rows before launching.
template <staging_method Method, int Stages>
__global__ void __launch_bounds__(staging_block)
    staging_kernel(const uint4* in, const __grid_constant__ CUtensorMap map, staging_shape shape, std::uint32_t* partials) {
  static_assert(Stages >= 1 && Stages <= 4);
  extern __shared__ unsigned char staging_smem_raw[];
  const std::uint32_t raw = ptx::smem_addr(staging_smem_raw);
  const std::uint32_t pad = (staging_smem_align - raw % staging_smem_align) % staging_smem_align;
  uint4* const stage0 = reinterpret_cast<uint4*>(staging_smem_raw + pad);
  const std::uint32_t stage0_addr = raw + pad;

  const std::uint32_t t = threadIdx.x;
  const std::uint64_t grid = gridDim.x;
  const auto n = static_cast<std::uint32_t>(staging_block_items(shape, blockIdx.x, grid));
  auto tile_of = [&](std::uint32_t k) { return staging_tile_of(shape, blockIdx.x + k * grid); };
  auto stage = [&](std::uint32_t s) { return stage0 + s * staging_tile_slots; };
  std::uint32_t acc = 0;
  // The consumer, the same for every method.
  auto consume = [&](const uint4* tile) {
#pragma unroll
    for (std::uint32_t j = 0; j < staging_slots_per_thread; ++j) {
      const std::uint32_t slot = staging_consumer_slot(t, j);
      const uint4 v = tile[slot];
      acc += staging_fold(v.x, v.y, v.z, v.w, slot);
    }
  };

  if constexpr (Method == staging_method::sync) {
    // Plain loads (the build's -dlcm applies) into registers, stores to shared memory.
    uint4 r[staging_slots_per_thread];
    auto load = [&](std::uint32_t k) {
      const uint4* src = in + tile_of(k) * staging_tile_slots;
#pragma unroll
      for (std::uint32_t j = 0; j < staging_slots_per_thread; ++j) r[j] = src[staging_producer_slot(t, j)];
    };
    auto store = [&](uint4* dst) {
#pragma unroll
      for (std::uint32_t j = 0; j < staging_slots_per_thread; ++j) dst[staging_producer_slot(t, j)] = r[j];
    };
    if constexpr (Stages == 1) {
      for (std::uint32_t k = 0; k < n; ++k) {
        load(k);
        store(stage(0));
        __syncthreads();
        consume(stage(0));
        __syncthreads();  // consumed before the next tile overwrites it
      }
    } else {
      // Two buffers, the next tile's loads in flight in registers while this one is consumed.
      // One barrier per tile: the buffer stored in iteration k was last read in iteration
      // k - 2, before every thread reached iteration k - 1's barrier.
      if (n > 0) load(0);
      for (std::uint32_t k = 0; k < n; ++k) {
        uint4* const b = stage(k % 2);
        store(b);
        __syncthreads();
        if (k + 1 < n) load(k + 1);
        consume(b);
      }
    }
  } else if constexpr (Method == staging_method::ldgsts) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    auto issue = [&](std::uint32_t k, std::uint32_t s) {
      const uint4* src = in + tile_of(k) * staging_tile_slots;
      const std::uint32_t dst = stage0_addr + s * staging_tile_bytes;
#pragma unroll
      for (std::uint32_t j = 0; j < staging_slots_per_thread; ++j) {
        const std::uint32_t slot = staging_producer_slot(t, j);
        ptx::cp_async_16(dst + slot * 16, src + slot);
      }
    };
    // Every stage in flight while the block waits, as in the bulk and tensor methods: the
    // prologue fills the stages, and a stage is refilled right after the barrier that ends its
    // consumption. Every iteration commits one group (empty past the end), so before waiting
    // for item k there are Stages + k groups and wait_group<Stages - 1> means item k landed.
#pragma unroll
    for (std::uint32_t p = 0; p < Stages; ++p) {
      if (p < n) issue(p, p);
      ptx::cp_async_commit();
    }
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t s = k % Stages;
      ptx::cp_async_wait<Stages - 1>();
      __syncthreads();  // every thread's copies of item k landed
      consume(stage(s));
      __syncthreads();  // stage s consumed by every thread before it is refilled
      if (k + Stages < n) issue(k + Stages, s);
      ptx::cp_async_commit();
    }
#endif
  } else {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // Thread 0 issues one copy per tile; its stage's barrier completes when the 16 KiB land.
    // Use u of a stage (item k = u * Stages + s) waits for phase u, parity u & 1. A stage is
    // refilled only after the barrier that follows its consumption, so no thread can fall a
    // whole phase behind.
    __shared__ alignas(8) std::uint64_t full[Stages];  // one "tile landed" barrier per stage
    if (t == 0) {
#pragma unroll
      for (int s = 0; s < Stages; ++s) ptx::mbar_init(ptx::smem_addr(&full[s]), 1);
      ptx::fence_barrier_init();
    }
    __syncthreads();
    auto issue = [&](std::uint32_t k, std::uint32_t s) {
      const std::uint32_t bar = ptx::smem_addr(&full[s]);
      const std::uint32_t dst = stage0_addr + s * staging_tile_bytes;
      const std::uint64_t tile = tile_of(k);
      ptx::mbar_arrive_expect_tx(bar, staging_tile_bytes);
      if constexpr (Method == staging_method::bulk) {
        ptx::bulk_g2s(dst, in + tile * staging_tile_slots, staging_tile_bytes, bar);
      } else {
        ptx::tensor_g2s_2d(dst, &map, 0, static_cast<std::int32_t>(staging_box_row(tile)), bar);
      }
    };
    if (t == 0) {
      for (std::uint32_t s = 0; s < Stages && s < n; ++s) issue(s, s);
    }
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t s = k % Stages;
      ptx::mbar_wait(ptx::smem_addr(&full[s]), (k / Stages) & 1);
      consume(stage(s));
      __syncthreads();  // stage s consumed by every thread before it is refilled
      if (t == 0 && k + Stages < n) issue(k + Stages, s);
    }
#endif
  }
  block_sum_store(acc, partials);
}

}  // namespace membench::async
