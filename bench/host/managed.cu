// H3: unified (managed) memory (Professional CUDA C ch. 4, "Unified Memory"). A kernel reads
// every word of a cudaMallocManaged array once (checksum), starting from five states:
//   fault        pages on the host; the kernel's page faults migrate them (first GPU touch)
//   prefetch     pages on the host; timed: cudaMemPrefetchAsync to the GPU, then the kernel
//   resident     pages already on the GPU: the kernel alone (the ceiling)
//   read_mostly  cudaMemAdviseSetReadMostly; faults create read-only GPU copies
//   accessed_by  preferred location host, accessed by the GPU: read over PCIe in place
// Before each sample (untimed) the pages go back where the policy starts: prefetched to
// the host; for read_mostly the advice is dropped first so the GPU copy collapses, then set
// again.
//
// Expected: fault migration runs far below the link (faults are serviced in batches by the
// driver), prefetch near the PCIe rate, resident at DRAM speed; accessed_by behaves like
// zero-copy. pct_peak is of the PCIe link except for resident rows (of DRAM).
// Bytes per launch: managed_bytes (the array). Sizes 64 MiB to 4 GiB, never more than the
// GPU has free (skipped with the reason otherwise).
// Tiers: quick has fault, prefetch and resident at 64 MiB (migration on demand, in bulk, and
// the ceiling); the default tier has every policy at 64 and 256 MiB, which show the same
// rates as the larger sizes; 1 and 4 GiB (0.1-0.5 s a fault sample) are in the full tier only.
#include <algorithm>
#include <array>
#include <string>

#include "common/parallel.hpp"
#include "harness/core/verify.hpp"
#include "harness/family/family.hpp"
#include "host/pcie_options.hpp"
#include "kernels/common/types.hpp"
#include "kernels/host/managed.cuh"

namespace membench::host {
namespace {

constexpr unsigned block = 256;
constexpr std::array<std::uint64_t, 4> sizes{std::uint64_t{64} << 20, std::uint64_t{256} << 20, std::uint64_t{1} << 30,
                                             std::uint64_t{4} << 30};

struct managed_workspace {
  managed_buffer<std::uint32_t> words;
  device_buffer<std::uint32_t> partials;
  std::uint32_t checksum = 0;
};

std::uint32_t managed_word(std::size_t i) { return pattern_word(i, managed_seed); }

cudaMemLocation on_host() {
  cudaMemLocation l{};
  l.type = cudaMemLocationTypeHost;
  l.id = 0;
  return l;
}

cudaMemLocation on_device(int device) {
  cudaMemLocation l{};
  l.type = cudaMemLocationTypeDevice;
  l.id = device;
  return l;
}

void run_managed(bench_context& ctx, managed_policy policy, std::uint64_t bytes) {
  const int device = ctx.device().index;
  int concurrent = 0;
  MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
  if (concurrent == 0) throw infeasible("the device has no concurrent managed access (no page-fault migration)");
  const std::size_t n = bytes / sizeof(std::uint32_t);
  const auto blocks = static_cast<unsigned>(std::min<std::uint64_t>(blocks_for(n, block), 8ull * static_cast<unsigned>(ctx.device().sm_count)));
  auto& ws = ctx.workspace<managed_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(bytes + blocks * sizeof(std::uint32_t));
    managed_workspace w{managed_buffer<std::uint32_t>(n), device_buffer<std::uint32_t>(blocks), 0};
    // Written by the host, as an application would: the pages start there.
    fill_host(w.words.data(), n, managed_word);
    w.checksum = parallel_sum_u32(n, managed_word);
    return w;
  });
  std::uint32_t* words = ws.words.data();
  // Each row sets its own advice from a clean slate: rows share the array.
  MEMBENCH_CUDA_CHECK(cudaMemAdvise(words, bytes, cudaMemAdviseUnsetReadMostly, on_device(device)));
  MEMBENCH_CUDA_CHECK(cudaMemAdvise(words, bytes, cudaMemAdviseUnsetPreferredLocation, on_device(device)));
  MEMBENCH_CUDA_CHECK(cudaMemAdvise(words, bytes, cudaMemAdviseUnsetAccessedBy, on_device(device)));
  if (policy == managed_policy::read_mostly)
    MEMBENCH_CUDA_CHECK(cudaMemAdvise(words, bytes, cudaMemAdviseSetReadMostly, on_device(device)));
  if (policy == managed_policy::accessed_by) {
    MEMBENCH_CUDA_CHECK(cudaMemAdvise(words, bytes, cudaMemAdviseSetPreferredLocation, on_host()));
    MEMBENCH_CUDA_CHECK(cudaMemAdvise(words, bytes, cudaMemAdviseSetAccessedBy, on_device(device)));
  }

  auto kernel = [&](cudaStream_t s) { managed_read_kernel<<<blocks, block, 0, s>>>(words, n, ws.partials.data()); };
  auto launch = [&](cudaStream_t s) {
    if (policy == managed_policy::prefetch)
      MEMBENCH_CUDA_CHECK(cudaMemPrefetchAsync(words, bytes, on_device(device), 0, s));
    kernel(s);
  };
  launch_fn prepare;
  if (policy == managed_policy::resident) {
    prepare = [&](cudaStream_t s) { MEMBENCH_CUDA_CHECK(cudaMemPrefetchAsync(words, bytes, on_device(device), 0, s)); };
  } else if (policy == managed_policy::read_mostly) {
    prepare = [&](cudaStream_t s) {
      MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
      MEMBENCH_CUDA_CHECK(cudaMemAdvise(words, bytes, cudaMemAdviseUnsetReadMostly, on_device(device)));
      MEMBENCH_CUDA_CHECK(cudaMemPrefetchAsync(words, bytes, on_host(), 0, s));
      MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
      MEMBENCH_CUDA_CHECK(cudaMemAdvise(words, bytes, cudaMemAdviseSetReadMostly, on_device(device)));
    };
  } else {
    prepare = [&](cudaStream_t s) { MEMBENCH_CUDA_CHECK(cudaMemPrefetchAsync(words, bytes, on_host(), 0, s)); };
  }

  ctx.verify_once([&] {
    fill_words(ws.partials.data(), blocks, 0xBADu, ctx.stream());  // a kernel that never ran must not pass
    prepare(ctx.stream());
    launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    const std::uint32_t got = sum_device_words(ctx.stream(), ws.partials.data(), blocks);
    verify_checksum(got, ws.checksum, "sum of the managed array");
  });
  launch_options opt = over_pcie(ctx);
  opt.copy_engine = false;  // a kernel, whatever migrates behind it: the default method applies
  if (policy == managed_policy::resident) opt = launch_options{};
  // Every other policy has the driver migrate or map pages behind the kernel.
  opt.host_work = policy != managed_policy::resident;
  opt.l2 = l2_state::cold;
  opt.prepare = prepare;
  ctx.time_launches(opt, managed_bytes(bytes), launch);
}

// Quick: the three states that frame the family, at the smallest size.
constexpr suite_tier tier_of(managed_policy policy, std::uint64_t bytes) {
  if (bytes > sizes[1]) return suite_tier::full;
  const bool headline = policy == managed_policy::fault || policy == managed_policy::prefetch ||
                        policy == managed_policy::resident;
  return bytes == sizes[0] && headline ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  for (std::uint64_t bytes : sizes) {
    for (managed_policy policy : all_managed_policies) {
      f.add({{"policy", to_string(policy)}, {"bytes", format_size(bytes)}}, tier_of(policy, bytes),
            [=](bench_context& ctx) { run_managed(ctx, policy, bytes); });
    }
  }
}

const family_registrar managed_family{"host/managed", &make_cases,
    "unified (managed) memory: page faults, prefetch, resident and read-mostly pages", family_needs::managed};

}  // namespace
}  // namespace membench::host
