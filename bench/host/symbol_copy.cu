// A4: static __device__ variables (Professional CUDA C ch. 4 "Global Memory"; The CUDA
// Handbook 5.2). cudaMemcpyToSymbol / cudaMemcpyFromSymbol against cudaMemcpy to the same
// symbol's address (cudaGetSymbolAddress) and against cudaMemcpy to cudaMalloc'ed memory,
// from and to pinned host memory, sizes from one float to 16 MiB.
//
// Expected: a symbol copy is a cudaMemcpy after a symbol lookup: the same bandwidth, and at
// most a small constant more per call, which only shows for tiny copies (one float: the
// call's latency, several microseconds). Synchronous calls are timed with events around
// the call on the legacy stream (timing:events).
// Bytes per launch: copy_bytes. pct_peak: of the PCIe link.
// Tiers: quick has the three H2D calls of one float (where the lookup's cost could show);
// the default tier has 4 bytes, 1 MiB and 16 MiB in both directions (latency, and the
// bandwidth every call reaches); 4 KiB and 64 KiB (latency bound like 4 bytes) are in the
// full tier only.
#include <array>
#include <string>

#include "harness/core/host_memory.hpp"
#include "harness/family/family.hpp"
#include "host/pcie_options.hpp"
#include "kernels/host/copy.hpp"
#include "kernels/host/symbol_copy.hpp"

namespace membench::host {

__device__ std::uint32_t symbol_words[symbol_capacity_bytes / sizeof(std::uint32_t)];

namespace {

constexpr std::array<std::uint64_t, 5> sizes{4, std::uint64_t{4} << 10, std::uint64_t{64} << 10, std::uint64_t{1} << 20,
                                             symbol_capacity_bytes};

enum class target { symbol_api, symbol_memcpy, device_memcpy };

struct symbol_workspace {
  host_buffer host;
  device_buffer<std::uint32_t> dev;
};

void run_symbol(bench_context& ctx, bool h2d, target t, std::uint64_t bytes) {
  const std::size_t n = bytes / sizeof(std::uint32_t);
  auto& ws = ctx.workspace<symbol_workspace>({}, [&] {
    ctx.require_device_bytes(symbol_capacity_bytes);
    return symbol_workspace{host_buffer(host_kind::pinned, symbol_capacity_bytes),
                            device_buffer<std::uint32_t>(symbol_capacity_bytes / sizeof(std::uint32_t))};
  });
  void* symbol_address = nullptr;
  MEMBENCH_CUDA_CHECK(cudaGetSymbolAddress(&symbol_address, symbol_words));
  auto* dev = t == target::device_memcpy ? ws.dev.data() : static_cast<std::uint32_t*>(symbol_address);
  auto* host = reinterpret_cast<std::uint32_t*>(ws.host.data());
  auto launch = [&](cudaStream_t) {
    if (t == target::symbol_api) {
      if (h2d) {
        MEMBENCH_CUDA_CHECK(cudaMemcpyToSymbol(symbol_words, host, bytes));
      } else {
        MEMBENCH_CUDA_CHECK(cudaMemcpyFromSymbol(host, symbol_words, bytes));
      }
    } else {
      MEMBENCH_CUDA_CHECK(cudaMemcpy(h2d ? static_cast<void*>(dev) : static_cast<void*>(host),
                                     h2d ? static_cast<const void*>(host) : static_cast<const void*>(dev), bytes,
                                     h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
    }
  };
  ctx.verify_and_time(over_pcie(ctx, true, cudaStreamLegacy), copy_bytes(bytes), launch,
                      copy_check(ctx, h2d, host, dev, n));
}

// Quick: one float to the symbol three ways; 4 KiB and 64 KiB add nothing to 4 bytes.
constexpr suite_tier tier_of(bool h2d, std::uint64_t bytes) {
  if (bytes == sizes[1] || bytes == sizes[2]) return suite_tier::full;
  return h2d && bytes == sizes[0] ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  for (bool h2d : {true, false}) {
    for (target t : {target::symbol_api, target::symbol_memcpy, target::device_memcpy}) {
      for (std::uint64_t bytes : sizes) {
        f.add({{"dir", h2d ? "h2d" : "d2h"},
               {"api", t == target::symbol_api ? "symbol" : "memcpy"},
               {"memory", t == target::device_memcpy ? "device" : "symbol"},
               {"bytes", format_size(bytes)}},
              tier_of(h2d, bytes), [=](bench_context& ctx) { run_symbol(ctx, h2d, t, bytes); });
      }
    }
  }
}

const family_registrar symbol_copy_family{"host/symbol_copy", &make_cases,
    "static __device__ variables: cudaMemcpyToSymbol and FromSymbol", family_needs::gpu};

}  // namespace
}  // namespace membench::host
