// A1: the cost of allocating (The CUDA Handbook 5.2.2 "Dynamic Allocations", mallocSpeed.cu).
// alloc/cost: the host APIs cudaMalloc/cudaFree, cudaMallocHost/cudaFreeHost and
// cudaMallocFromPoolAsync/cudaFreeAsync (a pool of our own whose release threshold,
// pool_release_threshold_bytes, keeps freed memory in the pool), 4 KiB to 1 GiB.
// alloc/device_malloc: malloc()/free() inside a kernel, one allocation per thread, 128
// blocks of 1..512 threads, 64 B, 12 KiB and 1 MiB (the Handbook's grid), from a heap of
// cudaLimitMallocHeapSize = heap_bytes set once per process.
//
// One sample is one half of an allocate/release pair (`op`): op:alloc times the allocations
// and releases them untimed before the next sample; op:free allocates untimed and times the
// releases. Host API rows use the host's steady clock around the calls (label
// timing:host_clock), as the Handbook's host timers: cudaMalloc and cudaMallocHost one call
// per sample; cudaMallocFromPoolAsync/cudaFreeAsync `calls_per_sample` calls (up to 256, as
// many as half the pool's release threshold holds at once), the sample divided by them. A
// pool hit gives the GPU nothing to do: timed one call at a time with events, every size
// read the event pair's own cost (1.3 us on an H100), not the call's. device_malloc rows
// time the kernel with events (timing:blocking).
// `us_per_call` is the median sample per call: per API call, or per thread-allocation for
// in-kernel rows (the Handbook's "microseconds per alloc/free").
//
// Expected: the driver's allocations are expensive (tens of microseconds and up, growing
// with size once the sub-allocator cannot serve them; pinned host memory most of all, as the
// pages are locked one by one), pool allocations cost a host call of well under the
// driver's whatever their size, and in-kernel allocations are cheap when small and slow when large.
// Bytes per call: alloc_bytes (one allocation; the row's time is per call), or threads x
// alloc_bytes for a launch;
// `gb_per_s` is allocation throughput, not memory traffic. No pct_peak.
// Verification: the allocations of one sample are distinct memory (non-null, disjoint); the
// first is written whole (poison, then a pattern, by a kernel) and read back, the others
// their first 64 KiB, before timing; in-kernel, every thread writes its pattern into
// its allocation, a second kernel reads every allocation back and counts mismatches, and
// a null malloc() is counted on every launch: any of them makes the row an error.
// Tiers: quick has cudaMalloc against the pool's cudaMallocAsync (1 MiB) and in-kernel
// malloc of 64 B against 12 KiB (32 threads a block); the default tier has every API up to
// 256 MiB except cudaMallocHost of 256 MiB (0.1 s a call: 16 MiB already shows the page
// locking), and the in-kernel grid at 1, 32 and 128 threads a block, and 512 for 64 B; 1 GiB,
// the 64- and 256-thread points and 512 threads of 12 KiB are in the full tier only.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/core/harness_kernels.hpp"
#include "harness/family/family.hpp"
#include "kernels/alloc/alloc_cost.cuh"

namespace membench::alloc {
namespace {

constexpr std::uint32_t usable_seed = 0xA10C;
constexpr std::uint32_t usable_poison_seed = 0xDEAD;

// A memory pool on the session's device that keeps what cudaFreeAsync returns to it.
class mem_pool {
 public:
  explicit mem_pool(int device) {
    int supported = 0;
    MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
    if (supported == 0) throw infeasible("the device has no stream-ordered allocator (cudaDevAttrMemoryPoolsSupported = 0)");
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    MEMBENCH_CUDA_CHECK(cudaMemPoolCreate(&pool_, &props));
    std::uint64_t threshold = pool_release_threshold;
    const cudaError_t err = cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold);
    if (err != cudaSuccess) {
      MEMBENCH_CUDA_LOG(cudaMemPoolDestroy(pool_));
      throw_cuda_error(err, "cudaMemPoolSetAttribute(cudaMemPoolAttrReleaseThreshold)", __FILE__, __LINE__);
    }
  }
  mem_pool(const mem_pool&) = delete;
  mem_pool& operator=(const mem_pool&) = delete;
  ~mem_pool() { MEMBENCH_CUDA_LOG(cudaMemPoolDestroy(pool_)); }
  cudaMemPool_t get() const noexcept { return pool_; }
  /// throws cuda_error
  std::uint64_t attribute(cudaMemPoolAttr attr) const {
    std::uint64_t v = 0;
    MEMBENCH_CUDA_CHECK(cudaMemPoolGetAttribute(pool_, attr, &v));
    return v;
  }

 private:
  cudaMemPool_t pool_ = nullptr;
};

struct cost_workspace {
  std::unique_ptr<mem_pool> pool;  // made by the first malloc_async row
};

// The allocations one sample makes with one API (none while released); released by its
// destructor if still held.
class allocation_set {
 public:
  allocation_set(alloc_api api, cudaMemPool_t pool, cudaStream_t s) : api_(api), pool_(pool), stream_(s) {}
  allocation_set(const allocation_set&) = delete;
  allocation_set& operator=(const allocation_set&) = delete;
  ~allocation_set() {
    for (void* p : held_) MEMBENCH_CUDA_LOG(free_one(p));
    if (api_ == alloc_api::malloc_async && !held_.empty()) MEMBENCH_CUDA_LOG(cudaStreamSynchronize(stream_));
  }
  bool held() const noexcept { return !held_.empty(); }
  const std::vector<void*>& pointers() const noexcept { return held_; }

  /// `count` allocations of `bytes`, back to back. throws cuda_error
  void allocate(std::size_t bytes, std::size_t count) {
    held_.reserve(count);  // no reallocation between the timed calls
    for (std::size_t i = 0; i < count; ++i) {
      void* p = nullptr;
      switch (api_) {
        case alloc_api::malloc: MEMBENCH_CUDA_CHECK(cudaMalloc(&p, bytes)); break;
        case alloc_api::malloc_host: MEMBENCH_CUDA_CHECK(cudaMallocHost(&p, bytes)); break;
        case alloc_api::malloc_async: MEMBENCH_CUDA_CHECK(cudaMallocFromPoolAsync(&p, bytes, pool_, stream_)); break;
      }
      held_.push_back(p);
    }
  }
  /// Releases every allocation, in the order they were made. throws cuda_error
  void release() {
    for (std::size_t i = 0; i < held_.size(); ++i) {
      if (const cudaError_t err = free_one(held_[i]); err != cudaSuccess) {
        held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(i) + 1);  // the rest: the destructor's
        throw_cuda_error(err, "releasing an allocation", __FILE__, __LINE__);
      }
    }
    held_.clear();  // keeps the capacity: no allocation inside the next timed sample
  }

 private:
  cudaError_t free_one(void* p) const {
    switch (api_) {
      case alloc_api::malloc: return cudaFree(p);
      case alloc_api::malloc_host: return cudaFreeHost(p);
      case alloc_api::malloc_async: return cudaFreeAsync(p, stream_);
    }
    return cudaErrorInvalidValue;
  }

  alloc_api api_;
  cudaMemPool_t pool_;
  cudaStream_t stream_;
  std::vector<void*> held_;
};

// One allocation of the row's size must hold what a kernel writes: poisoned, then the
// pattern written by a kernel (through UVA for pinned host memory), then read back.
void verify_one(bench_context& ctx, alloc_api api, void* allocation, std::uint64_t bytes) {
  const std::size_t n = bytes / sizeof(std::uint32_t);
  auto* words = static_cast<std::uint32_t*>(allocation);
  const auto pattern = [](std::size_t i) { return pattern_word(i, usable_seed); };
  if (api == alloc_api::malloc_host) {
    std::memset(words, 0xA5, bytes);
    fill_words(words, n, usable_seed, ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    verify_host_array(words, n, pattern, "pinned allocation written by a kernel");
  } else {
    fill_words(words, n, usable_poison_seed, ctx.stream());
    fill_words(words, n, usable_seed, ctx.stream());
    verify_device_array(ctx.reader(), words, n, pattern, "device allocation");
  }
}

// The allocations of one sample: distinct memory, the first checked whole as above and every
// other one on its first 64 KiB (a sample of pool rows holds up to 2 GiB).
void verify_usable(bench_context& ctx, alloc_api api, cudaMemPool_t pool, std::uint64_t bytes, std::uint64_t calls) {
  allocation_set set(api, pool, ctx.stream());
  set.allocate(bytes, calls);
  std::vector<std::uintptr_t> starts;
  for (void* p : set.pointers()) starts.push_back(reinterpret_cast<std::uintptr_t>(p));
  if (!allocations_disjoint(starts, bytes))
    throw verification_error(std::to_string(calls) + " allocations of " + std::to_string(bytes) +
                             " bytes in one sample are not distinct memory (null or overlapping)");
  for (std::size_t i = 0; i < set.pointers().size(); ++i)
    verify_one(ctx, api, set.pointers()[i], i == 0 ? bytes : std::min<std::uint64_t>(bytes, std::uint64_t{64} << 10));
  set.release();
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
}

void run_cost(bench_context& ctx, alloc_api api, alloc_op op, std::uint64_t bytes) {
  const std::uint64_t calls = cost_calls_per_sample(api, bytes);
  // Frees the previous family's buffers: the allocations below start from a quiet device.
  auto& ws = ctx.workspace<cost_workspace>({}, [] { return cost_workspace{}; });
  if (api != alloc_api::malloc_host) ctx.require_device_bytes(calls * bytes);
  cudaMemPool_t pool = nullptr;
  if (api == alloc_api::malloc_async) {
    if (!ws.pool) ws.pool = std::make_unique<mem_pool>(ctx.device().index);
    pool = ws.pool->get();
  }
  ctx.verify_once([&] { verify_usable(ctx, api, pool, bytes, calls); });

  allocation_set a(api, pool, ctx.stream());
  host_options opt;
  opt.calls_per_sample = static_cast<int>(calls);
  // The untimed half: whatever the timed half needs to start from; a pool row's stream
  // drains the frees it was handed before the next sample.
  opt.prepare = [&] {
    if (op == alloc_op::alloc && a.held()) a.release();
    if (op == alloc_op::free && !a.held()) a.allocate(bytes, calls);
    if (api == alloc_api::malloc_async) MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  };
  auto timed = [&] {
    if (op == alloc_op::alloc) {
      a.allocate(bytes, calls);
    } else {
      a.release();
    }
  };
  const double median = ctx.time_host(opt, bytes, timed);
  if (a.held()) a.release();
  ctx.set_counter(schema::counter("us_per_call"), us_per_call(median, 1));
  ctx.set_counter(schema::counter("calls_per_sample"), static_cast<double>(calls));
  if (api == alloc_api::malloc_async) {
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    ctx.set_counter(schema::counter("pool_release_threshold_bytes"),
                    static_cast<double>(ws.pool->attribute(cudaMemPoolAttrReleaseThreshold)));
    ctx.set_counter(schema::counter("pool_reserved_bytes"),
                    static_cast<double>(ws.pool->attribute(cudaMemPoolAttrReservedMemCurrent)));
  }
}

// ---- in-kernel malloc/free ---------------------------------------------------------------

/// Sets cudaLimitMallocHeapSize once per process, before the first launch of a kernel that
/// calls malloc (the limit cannot change after it). Returns the granted size. The only
/// kernels calling malloc are this file's, and every path to them comes through here.
/// throws infeasible, cuda_error, std::runtime_error
std::uint64_t ensure_device_heap(bench_context& ctx) {
  static std::uint64_t granted = 0;  // per process: the session runs on one device
  if (granted != 0) return granted;
  ctx.require_device_bytes(device_heap_bytes);
  const cudaError_t set = cudaDeviceSetLimit(cudaLimitMallocHeapSize, device_heap_bytes);
  if (set != cudaSuccess) (void)cudaGetLastError();  // not sticky; the limit read below tells
  std::size_t now = 0;
  MEMBENCH_CUDA_CHECK(cudaDeviceGetLimit(&now, cudaLimitMallocHeapSize));
  if (now < device_heap_bytes) {
    throw std::runtime_error("cudaLimitMallocHeapSize is " + std::to_string(now) + " bytes and could not be set to " +
                             std::to_string(device_heap_bytes) + " (" + cudaGetErrorString(set) +
                             "): it is fixed once a module calling malloc is loaded (a kernel calling malloc ran "
                             "earlier in this process, or CUDA_MODULE_LOADING=EAGER)");
  }
  granted = now;
  return granted;
}

struct device_malloc_workspace {
  device_buffer<void*> ptrs;          // one pointer per thread of the largest launch
  device_buffer<unsigned> counters;   // [0] null mallocs, [1] mismatching words
};

std::array<unsigned, 2> read_counters(cudaStream_t s, const unsigned* dev) {
  std::array<unsigned, 2> host{};
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(host.data(), dev, sizeof(host), cudaMemcpyDeviceToHost, s));
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
  return host;
}

// The allocations of the last alloc kernel, if not yet freed: freed by the destructor on
// every path out of a row (exceptions included), so the heap is empty for the next row.
class heap_allocations {
 public:
  heap_allocations(void** ptrs, unsigned blocks, unsigned threads, cudaStream_t s)
      : ptrs_(ptrs), blocks_(blocks), threads_(threads), stream_(s) {}
  heap_allocations(const heap_allocations&) = delete;
  heap_allocations& operator=(const heap_allocations&) = delete;
  ~heap_allocations() {
    if (!held_) return;
    device_free_kernel<<<blocks_, threads_, 0, stream_>>>(ptrs_);
    MEMBENCH_CUDA_LOG(cudaGetLastError());
    MEMBENCH_CUDA_LOG(cudaStreamSynchronize(stream_));
  }
  bool held() const noexcept { return held_; }
  /// Every thread mallocs `alloc_bytes`; null results count into *failures.
  void allocate_all(cudaStream_t s, std::uint64_t alloc_bytes, unsigned* failures) {
    device_malloc_kernel<<<blocks_, threads_, 0, s>>>(ptrs_, alloc_bytes, failures);
    held_ = true;
  }
  void free_all(cudaStream_t s) {
    device_free_kernel<<<blocks_, threads_, 0, s>>>(ptrs_);
    held_ = false;
  }

 private:
  void** ptrs_;
  unsigned blocks_, threads_;
  cudaStream_t stream_;
  bool held_ = false;
};

void run_device_malloc(bench_context& ctx, device_malloc_point pt, alloc_op op) {
  // The workspace first (it frees the previous family's memory), then the heap, before any
  // kernel of this file runs.
  auto& ws = ctx.workspace<device_malloc_workspace>({}, [] {
    return device_malloc_workspace{device_buffer<void*>(device_malloc_threads(device_malloc_blocks, device_malloc_max_threads)),
                                   device_buffer<unsigned>(2)};
  });
  const std::uint64_t heap = ensure_device_heap(ctx);
  const cudaStream_t s = ctx.stream();
  const unsigned blocks = device_malloc_blocks;
  const std::uint64_t calls = device_malloc_threads(blocks, pt.threads);
  unsigned* failures = ws.counters.data();
  unsigned* mismatches = ws.counters.data() + 1;
  heap_allocations heap_state{ws.ptrs.data(), blocks, pt.threads, s};

  ctx.verify_once([&] {
    MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.counters.data(), 0, 2 * sizeof(unsigned), s));
    heap_state.allocate_all(s, pt.alloc_bytes, failures);
    device_malloc_fill_kernel<<<blocks, pt.threads, 0, s>>>(ws.ptrs.data(), pt.alloc_bytes);
    device_malloc_check_kernel<<<blocks, pt.threads, 0, s>>>(ws.ptrs.data(), pt.alloc_bytes, mismatches);
    heap_state.free_all(s);
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    const auto c = read_counters(s, ws.counters.data());
    if (c[0] != 0) {
      throw verification_error(std::to_string(c[0]) + " of " + std::to_string(calls) + " in-kernel mallocs of " +
                               std::to_string(pt.alloc_bytes) + " bytes returned NULL (heap " + std::to_string(heap) +
                               " bytes)");
    }
    if (c[1] != 0) {
      throw verification_error(std::to_string(c[1]) + " 32-bit words of the in-kernel allocations differ from "
                               "what their threads wrote (overlapping or unusable allocations)");
    }
  });

  MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.counters.data(), 0, 2 * sizeof(unsigned), s));
  launch_options opt;
  opt.l2 = l2_state::warm;  // allocator state, not data: no flush between samples
  opt.report_pct_peak = false;
  opt.host_work = true;  // the device heap's allocator, not memory traffic: as noisy as a host call
  if (op == alloc_op::alloc) {
    opt.prepare = [&](cudaStream_t st) {
      if (heap_state.held()) heap_state.free_all(st);
    };
  } else {
    opt.prepare = [&](cudaStream_t st) { heap_state.allocate_all(st, pt.alloc_bytes, failures); };
  }
  const double median = ctx.time_launches(opt, device_malloc_bytes(blocks, pt.threads, pt.alloc_bytes), [&](cudaStream_t st) {
    if (op == alloc_op::alloc) {
      heap_state.allocate_all(st, pt.alloc_bytes, failures);
    } else {
      heap_state.free_all(st);
    }
  });
  if (heap_state.held()) heap_state.free_all(s);
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  const auto c = read_counters(s, ws.counters.data());
  if (c[0] != 0) {
    throw verification_error(std::to_string(c[0]) + " in-kernel mallocs of " + std::to_string(pt.alloc_bytes) +
                             " bytes returned NULL while timing (" + std::to_string(calls) + " per launch, heap " +
                             std::to_string(heap) + " bytes)");
  }
  ctx.set_counter(schema::counter("us_per_call"), us_per_call(median, calls));
  ctx.set_counter(schema::counter("heap_bytes"), static_cast<double>(heap));
  ctx.set_counter(schema::counter("grid_blocks"), blocks);
  ctx.set_counter(schema::counter("calls_per_launch"), static_cast<double>(calls));
}

constexpr std::uint64_t quick_alloc_bytes = std::uint64_t{1} << 20;

constexpr suite_tier cost_tier(alloc_api api, alloc_op op, std::uint64_t bytes) {
  if (bytes == cost_sizes.back() || (api == alloc_api::malloc_host && bytes >= (std::uint64_t{256} << 20)))
    return suite_tier::full;
  const bool headline = api != alloc_api::malloc_host && op == alloc_op::alloc && bytes == quick_alloc_bytes;
  return headline ? suite_tier::quick : suite_tier::standard;
}

// Host-bound: every API here calls into the driver, which the GPUs of a host share. With four
// H100s allocating at once a 1 MiB cudaMalloc read 48-280 us from one process to the next
// (each GPU's median 116-226 us), and 47-49 us on hosts of one GPU.
void make_cost_cases(family_builder& f) {
  for (alloc_api api : all_alloc_apis) {
    for (alloc_op op : all_alloc_ops) {
      for (std::uint64_t bytes : cost_sizes) {
        f.add({{"api", to_string(api)}, {"op", to_string(op)}, {"alloc_bytes", format_size(bytes)}},
              cost_tier(api, op, bytes), [=](bench_context& ctx) { run_cost(ctx, api, op, bytes); },
              host_bound::yes);
      }
    }
  }
}

// The default tier keeps the sweep's ends and middle; at 12 KiB the cost per call is flat
// from 32 threads on, so 512 threads (0.08 s a sample) adds nothing there.
constexpr suite_tier device_malloc_tier(device_malloc_point pt, alloc_op op) {
  if (pt.threads == 64 || pt.threads == 256 || (pt.threads == 512 && pt.alloc_bytes > 64)) return suite_tier::full;
  return pt.threads == 32 && op == alloc_op::alloc ? suite_tier::quick : suite_tier::standard;
}

void make_device_malloc_cases(family_builder& f) {
  for (const device_malloc_point& pt : device_malloc_grid) {
    for (alloc_op op : all_alloc_ops) {
      f.add({{"block", std::to_string(pt.threads)},
             {"op", to_string(op)},
             {"alloc_bytes", format_size(pt.alloc_bytes)}},
            device_malloc_tier(pt, op), [=](bench_context& ctx) { run_device_malloc(ctx, pt, op); });
    }
  }
}

const family_registrar cost_family{"alloc/cost", &make_cost_cases,
    "the time of cudaMalloc, cudaMallocHost and pool allocations (cudaMallocFromPoolAsync) and their frees", family_needs::gpu};
const family_registrar device_malloc_family{"alloc/device_malloc", &make_device_malloc_cases,
    "malloc and free inside a kernel (the device heap)", family_needs::gpu};

}  // namespace
}  // namespace membench::alloc
