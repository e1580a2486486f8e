// A1 allocation cost (The CUDA Handbook 5.2.2, mallocSpeed.cu): the parameter grids, the
// in-kernel allocations' data pattern, the heap they need and the per-call arithmetic.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::alloc {

/// The host API a cost row times (the `api` name key).
enum class alloc_api {
  malloc,        ///< cudaMalloc / cudaFree
  malloc_host,   ///< cudaMallocHost / cudaFreeHost (page-locked host memory)
  malloc_async,  ///< cudaMallocFromPoolAsync / cudaFreeAsync, stream-ordered, from a pool that keeps its memory
};
inline constexpr std::array<alloc_api, 3> all_alloc_apis{alloc_api::malloc, alloc_api::malloc_host,
                                                         alloc_api::malloc_async};
constexpr const char* to_string(alloc_api a) {
  switch (a) {
    case alloc_api::malloc: return "malloc";
    case alloc_api::malloc_host: return "malloc_host";
    case alloc_api::malloc_async: return "malloc_async";
  }
  return "?";
}

/// Which half of an allocate/release pair a row times (the `op` name key); the other
/// half runs between samples, untimed.
enum class alloc_op { alloc, free };
inline constexpr std::array<alloc_op, 2> all_alloc_ops{alloc_op::alloc, alloc_op::free};
constexpr const char* to_string(alloc_op o) { return o == alloc_op::alloc ? "alloc" : "free"; }

/// Host-API allocation sizes: a page (the driver's sub-allocator), then up to 1 GiB
/// (new virtual ranges and page-table work per call).
inline constexpr std::array<std::uint64_t, 6> cost_sizes{std::uint64_t{4} << 10,  std::uint64_t{64} << 10,
                                                         std::uint64_t{1} << 20,  std::uint64_t{16} << 20,
                                                         std::uint64_t{256} << 20, std::uint64_t{1} << 30};

/// The pool's release threshold: above the largest allocation, so memory freed with
/// cudaFreeAsync stays in the pool and the next cudaMallocAsync reuses it.
inline constexpr std::uint64_t pool_release_threshold = std::uint64_t{4} << 30;

/// Most pool calls one sample makes: 256 calls of a few hundred nanoseconds are a sample of
/// tens of microseconds, far above what the clock around it costs.
inline constexpr std::uint64_t max_pool_calls = 256;

/// Calls one sample of a cost row times; the row's time is per call. A pool hit
/// (cudaMallocAsync, cudaFreeAsync) costs less than an event pair, so it is timed many calls
/// at a time: as many allocations as half the release threshold holds alive at once (all
/// of them stay in the pool), at most max_pool_calls. The driver's allocations cost tens of
/// microseconds and more: one call per sample.
constexpr std::uint64_t cost_calls_per_sample(alloc_api api, std::uint64_t bytes) {
  if (api != alloc_api::malloc_async || bytes == 0) return 1;
  const std::uint64_t fit = pool_release_threshold / 2 / bytes;
  return fit < 1 ? 1 : fit > max_pool_calls ? max_pool_calls : fit;
}

/// True when allocations of `bytes` at `starts` are all non-null and no two overlap: the
/// allocations one sample made are distinct memory.
inline bool allocations_disjoint(std::vector<std::uintptr_t> starts, std::uint64_t bytes) {
  std::sort(starts.begin(), starts.end());
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (starts[i] == 0) return false;
    if (i > 0 && starts[i] - starts[i - 1] < bytes) return false;
  }
  return true;
}

// ---- in-kernel malloc/free (mallocSpeed) -------------------------------------------------

inline constexpr std::uint32_t device_malloc_seed = 0xA11C;

/// Blocks per launch: fixed, so rows are comparable across GPUs (the Handbook used 500).
inline constexpr unsigned device_malloc_blocks = 128;

/// The largest block in the grid: the pointer array holds blocks x this many.
inline constexpr unsigned device_malloc_max_threads = 512;

/// One point of the in-kernel grid: every thread of `blocks` x `threads` mallocs `alloc_bytes`.
struct device_malloc_point {
  unsigned threads;  ///< threads per block
  std::uint64_t alloc_bytes;
};

/// The Handbook's grid: 32..512 threads per block with 64-byte and 12 KiB allocations, and
/// one thread per block allocating 1 MiB. Sizes are multiples of 16 (16-byte accesses).
inline constexpr std::array<device_malloc_point, 11> device_malloc_grid{{
    {1, std::uint64_t{1} << 20},
    {32, 64},
    {64, 64},
    {128, 64},
    {256, 64},
    {512, 64},
    {32, 12288},
    {64, 12288},
    {128, 12288},
    {256, 12288},
    {512, 12288},
}};

/// cudaLimitMallocHeapSize, set once per process before the first kernel that calls malloc.
inline constexpr std::uint64_t device_heap_bytes = std::uint64_t{2} << 30;

/// Allocations alive at once in one launch.
constexpr std::uint64_t device_malloc_threads(unsigned blocks, unsigned threads) {
  return std::uint64_t{blocks} * threads;
}

/// Bytes requested by one launch (every thread's allocation): the row's `bytes`.
constexpr std::uint64_t device_malloc_bytes(unsigned blocks, unsigned threads, std::uint64_t alloc_bytes) {
  return device_malloc_threads(blocks, threads) * alloc_bytes;
}

/// Microseconds per call when one sample of `seconds` made `calls` calls.
constexpr double us_per_call(double seconds, std::uint64_t calls) {
  return calls == 0 ? 0.0 : seconds * 1e6 / static_cast<double>(calls);
}

/// 16-byte word `k` of thread `thread`'s allocation of `alloc_bytes`: distinct per thread,
/// so two threads handed overlapping memory see each other's pattern.
MEMBENCH_HD std::uint32_t device_malloc_word(std::uint64_t thread, std::uint64_t alloc_bytes, std::uint64_t k,
                                             unsigned lane) {
  return pattern_word((thread * (alloc_bytes / 16) + k) * 4 + lane, device_malloc_seed);
}

}  // namespace membench::alloc
