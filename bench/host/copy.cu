// H1: host <-> device copies (Professional CUDA C ch. 4 "Pinned Memory"; the Russian
// lecture's pinned-memory slide). H2D and D2H of one buffer from pageable, pinned
// (cudaMallocHost, cudaHostAlloc), write-combined and cudaHostRegister'ed host memory,
// with cudaMemcpy (synchronous, legacy stream) and cudaMemcpyAsync (the benchmark's stream).
//
// Expected: page-locked memory runs near the PCIe link's rate (gen5 x16: 63 GB/s per
// direction, less the protocol's ~10-15 %); pageable memory pays a host-side copy through the
// driver's staging buffer and falls far below. cudaMallocHost and cudaHostAlloc are the same
// pages; write-combined memory only helps H2D when the CPU writes it, so the DMA rate should
// match pinned. Small copies are latency: a few microseconds of API and DMA setup.
// Timing: plain events around the call (timing:events), as the lessons timed copies: the
// blocking method would add the SM-to-copy-engine hand-off after its kernel to every sample.
// cudaMemcpy and pageable rows block the host (fallback:launch_blocks_host), pinned async rows
// do not (fallback:copy_engine); either way a small copy's time includes the call's cost.
// Bytes per launch: copy_bytes (the buffer). pct_peak: of the PCIe link (context pcie_link).
// Sizes: 4 KiB (latency) to 1 GiB (sustained).
// Tiers: quick has pageable against pinned H2D with cudaMemcpyAsync at 16 MiB (the headline:
// staging through the driver against DMA) and pinned D2H at 16 MiB (a level row of
// common/levels.hpp); the default tier has every row up to 256 MiB,
// where pinned copies already run at the sustained rate and pageable ones at theirs (16 MiB
// still partly fits the CPU caches); 1 GiB (0.02-0.15 s a sample, GiB host buffers to make
// and verify) is in the full tier only.
#include <array>
#include <string>

#include "harness/core/host_memory.hpp"
#include "harness/family/family.hpp"
#include "host/pcie_options.hpp"
#include "kernels/host/copy.hpp"

namespace membench::host {
namespace {

constexpr std::array<std::uint64_t, 6> sizes{std::uint64_t{4} << 10,  std::uint64_t{64} << 10, std::uint64_t{1} << 20,
                                             std::uint64_t{16} << 20, std::uint64_t{256} << 20, std::uint64_t{1} << 30};
constexpr std::uint64_t quick_bytes = sizes[3];
constexpr std::uint64_t largest_default_bytes = sizes[4];

struct copy_workspace {
  host_buffer host;
  device_buffer<std::uint32_t> dev;
};

void run_copy(bench_context& ctx, bool h2d, host_kind kind, bool async, std::uint64_t bytes) {
  const std::size_t n = bytes / sizeof(std::uint32_t);
  auto& ws = ctx.workspace<copy_workspace>({"host", "bytes"}, [&] {
    ctx.require_device_bytes(bytes);
    copy_workspace w{host_buffer(kind, bytes), device_buffer<std::uint32_t>(n)};
    fill_host(reinterpret_cast<std::uint32_t*>(w.host.data()), n, copy_word);
    fill_words(w.dev.data(), n, copy_seed, ctx.stream());
    return w;
  });
  auto* host = reinterpret_cast<std::uint32_t*>(ws.host.data());
  std::uint32_t* dev = ws.dev.data();
  const cudaMemcpyKind dir = h2d ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  void* dst = h2d ? static_cast<void*>(dev) : static_cast<void*>(host);
  const void* src = h2d ? static_cast<const void*>(host) : static_cast<const void*>(dev);
  auto launch = [&](cudaStream_t s) {
    if (async) {
      MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, dir, s));
    } else {
      MEMBENCH_CUDA_CHECK(cudaMemcpy(dst, src, bytes, dir));
    }
  };
  // cudaMemcpy runs on the legacy stream and returns when done; pageable async copies too.
  const bool blocks_host = !async || !is_page_locked(kind);
  ctx.verify_and_time(over_pcie(ctx, blocks_host, async ? nullptr : cudaStreamLegacy), copy_bytes(bytes), launch,
                      copy_check(ctx, h2d, host, dev, n, kind != host_kind::wc));
}

constexpr suite_tier tier_of(bool h2d, host_kind kind, bool async, std::uint64_t bytes) {
  if (bytes > largest_default_bytes) return suite_tier::full;
  const bool pageable_or_pinned = kind == host_kind::pageable || kind == host_kind::pinned;
  const bool headline = h2d && async && bytes == quick_bytes && pageable_or_pinned;
  return headline ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  // Host kind and size outermost: the rows sharing a buffer run back to back.
  for (host_kind kind : all_host_kinds) {
    for (std::uint64_t bytes : sizes) {
      for (bool h2d : {true, false}) {
        for (bool async : {false, true}) {
          f.add({{"dir", h2d ? "h2d" : "d2h"},
                 {"host", to_string(kind)},
                 {"api", async ? "memcpy_async" : "memcpy"},
                 {"bytes", format_size(bytes)}},
                tier_of(h2d, kind, async, bytes), [=](bench_context& ctx) { run_copy(ctx, h2d, kind, async, bytes); });
        }
      }
    }
  }
}

const family_registrar copy_family{"host/copy", &make_cases,
    "host-device copies: pageable and pinned, sync and async, by size and direction", family_needs::gpu};

}  // namespace
}  // namespace membench::host
