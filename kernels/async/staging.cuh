// B3 staging: a persistent grid streams an array through shared memory in 16 KiB tiles,
// copied by one of four methods, and consumes every tile with the same position-weighted
// checksum. The host part (above the __CUDACC__ guard) compiles with g++ for the unit tests.
//
// Tiles, work and reference: tile t is bytes [t * 16 KiB, (t + 1) * 16 KiB) of the input
// for every method (the tensor map's rows are 1 KiB, so one 256 x 16 box is one tile).
// Work item w is tile staging_tile_of(w); block b takes items b, b + grid, ...; every block
// ends with the sum of its tiles' checksums (mod 2^32), which the host reference computes
// from one checksum per tile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::async {

enum class staging_method { sync, ldgsts, bulk, tensor };

constexpr const char* to_token(staging_method m) {
  switch (m) {
    case staging_method::sync: return "sync";
    case staging_method::ldgsts: return "ldgsts";
    case staging_method::bulk: return "bulk";
    case staging_method::tensor: return "tensor";
  }
  return "";
}

/// The compute capability a method's instructions need: cp.async sm_80; cp.async.bulk,
/// mbarrier transaction counts and tensor maps sm_90.
constexpr int staging_min_arch(staging_method m) {
  return m == staging_method::sync ? 0 : m == staging_method::ldgsts ? 80 : 90;
}

inline constexpr unsigned staging_block = 256;
inline constexpr std::uint32_t staging_tile_bytes = 16384;
inline constexpr std::uint32_t staging_tile_slots = staging_tile_bytes / 16;                  ///< 16-byte slots
inline constexpr std::uint32_t staging_slots_per_thread = staging_tile_slots / staging_block;  ///< 4
/// Resident blocks per SM for every method. One: the stages are then the only thing that keeps
/// bytes in flight beyond one tile (at most stages x 16 KiB per SM), so the rows read as
/// Little's law. (Two blocks per SM hide most of a stage's wait behind the other block: on an
/// H100 every method then reads HBM at 2.9-3.1 TB/s.)
inline constexpr unsigned staging_blocks_per_sm = 1;
/// A launch reads the array in passes until at least this much was read: an L2-resident
/// array takes a launch of ~100 us, not of a few us of ramp-up and tail.
inline constexpr std::uint64_t staging_target_bytes = std::uint64_t{1} << 30;
/// Each pass moves a block's items by this many tiles, so a block reads data another SM read
/// last pass: the sync method's L1 (the default build caches its loads) sees no reuse.
inline constexpr std::uint64_t staging_rotation = 37;
inline constexpr std::uint32_t staging_seed = 53;
/// Tensor map: 4-byte elements, rows of 256 of them (the widest box), boxes of 16 rows.
inline constexpr std::uint32_t staging_row_elems = 256;
inline constexpr std::uint32_t staging_box_rows = staging_tile_bytes / (staging_row_elems * 4);
/// Dynamic shared memory is aligned up to this (tensor copies need 128-byte destinations).
inline constexpr std::uint32_t staging_smem_align = 128;

/// Which (method, stages) rows exist: sync has one buffer or two with a register prefetch
/// (the pre-Ampere double buffer); the asynchronous methods 1, 2 and 4 buffers.
constexpr bool staging_case_exists(staging_method m, int stages) {
  if (m == staging_method::sync) return stages == 1 || stages == 2;
  return stages == 1 || stages == 2 || stages == 4;
}

struct staging_shape {
  std::uint64_t tiles = 0;   ///< tiles in the array
  std::uint64_t passes = 0;  ///< passes over the array per launch
  std::uint64_t items = 0;   ///< tiles read per launch: passes x tiles
};

/// `bytes`: a multiple of the tile size.
constexpr staging_shape make_staging_shape(std::uint64_t bytes) {
  staging_shape s;
  s.tiles = bytes / staging_tile_bytes;
  s.passes = std::max<std::uint64_t>(1, (staging_target_bytes + bytes - 1) / bytes);
  s.items = s.passes * s.tiles;
  return s;
}

/// Bytes read per launch (the per-block results written are not counted).
constexpr std::uint64_t staging_bytes(const staging_shape& s) { return s.items * staging_tile_bytes; }

/// Dynamic shared memory a block asks for: the stages, plus slack to align them.
constexpr std::uint32_t staging_smem_bytes(int stages) {
  return static_cast<std::uint32_t>(stages) * staging_tile_bytes + staging_smem_align;
}

/// Items block `b` of `grid` takes: b, b + grid, ... below s.items.
MEMBENCH_HD std::uint64_t staging_block_items(const staging_shape& s, std::uint64_t b, std::uint64_t grid) {
  return s.items > b ? (s.items - b + grid - 1) / grid : 0;
}

/// The tile work item `w` reads: pass w / tiles, rotated by `staging_rotation` per pass.
MEMBENCH_HD std::uint64_t staging_tile_of(const staging_shape& s, std::uint64_t w) {
  const std::uint64_t pass = w / s.tiles;
  return (w - pass * s.tiles + pass * staging_rotation) % s.tiles;
}

/// The input's 32-bit word g.
MEMBENCH_HD std::uint32_t staging_word(std::uint64_t g) { return pattern_word(g, staging_seed); }

/// The 16-byte slots a thread copies (coalesced: consecutive threads, consecutive slots).
MEMBENCH_HD std::uint32_t staging_producer_slot(std::uint32_t t, std::uint32_t j) { return t + j * staging_block; }

/// The slots a thread consumes: the next warp's, so every tile crosses threads through shared
/// memory (no bank conflicts: a warp reads 512 consecutive bytes).
MEMBENCH_HD std::uint32_t staging_consumer_slot(std::uint32_t t, std::uint32_t j) {
  return (t + 32) % staging_block + j * staging_block;
}

/// The consumer: word i of a tile (i = 4 * slot + lane of the slot) weighs 2i + 1, so a word
/// in the wrong place changes the checksum as a wrong word does.
MEMBENCH_HD std::uint32_t staging_fold(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t w,
                                       std::uint32_t slot) {
  const std::uint32_t base = 8 * slot;
  return x * (base + 1) + y * (base + 3) + z * (base + 5) + w * (base + 7);
}

/// Reference: the checksum of tile `t`, word by word.
inline std::uint32_t staging_tile_checksum(std::uint64_t t) {
  std::uint32_t acc = 0;
  const std::uint64_t first = t * (staging_tile_bytes / 4);
  for (std::uint32_t i = 0; i < staging_tile_bytes / 4; ++i) acc += staging_word(first + i) * (2 * i + 1);
  return acc;
}

/// Reference: what block `b` of `grid` ends with, from the tiles' checksums.
inline std::uint32_t staging_block_expected(const staging_shape& s, const std::vector<std::uint32_t>& tile_sums,
                                            std::uint64_t b, std::uint64_t grid) {
  std::uint32_t acc = 0;
  for (std::uint64_t w = b; w < s.items; w += grid) acc += tile_sums[staging_tile_of(s, w)];
  return acc;
}

/// The 2D view the tensor method's map describes (cuTensorMapEncodeTiled's arguments).
struct staging_tensor_geometry {
  std::uint64_t dims[2];         ///< elements per row, rows
  std::uint64_t row_stride;      ///< bytes from one row to the next
  std::uint32_t box[2];          ///< elements, rows of one copy
  std::uint32_t element_bytes;
};

constexpr staging_tensor_geometry make_staging_tensor_geometry(std::uint64_t bytes) {
  return {{staging_row_elems, bytes / (staging_row_elems * 4)}, staging_row_elems * 4, {staging_row_elems, staging_box_rows}, 4};
}

/// The row coordinate of tile t's box.
MEMBENCH_HD std::uint32_t staging_box_row(std::uint64_t t) { return static_cast<std::uint32_t>(t * staging_box_rows); }

}  // namespace membench::async

#if defined(__CUDACC__)
#include <cuda.h>  // CUtensorMap (the type only: libcuda is reached at run time, never linked)

#include "../common/reduce.cuh"

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
#endif  // __CUDACC__
