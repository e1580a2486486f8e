// C1: the L1 / shared-memory split (ru lecture: cudaFuncSetCacheConfig; it ch. 4). One
// block of 1024 threads per SM (grid = SM count; the SMs the blocks ran on are recorded)
// re-reads its own region of block_bytes with plain 16-byte loads, 8 MiB per block per
// launch, and stores per-warp sums checked against the host reference. The kernel uses no
// shared memory itself, so the preference set before the launch decides how much of the
// SM's unified 256 KiB (sm_90) stays L1: cudaFuncSetCacheConfig (config:prefer_*, carveout
// default) or cudaFuncAttributePreferredSharedMemoryCarveout in percent of the maximum
// shared memory (config:prefer_none, carveout:0..100).
//
// Expected: full L1 bandwidth while the region fits the L1 left by the split, L2 bandwidth
// beyond; the cliff moves with the split. The occupancy calculator's rules (cuda_occupancy.h,
// unit-tested here) map a preference to the next supported shared capacity on sm_90 (0, 8,
// 16, 32, 64, 100, 132, 164, 196, 228 KiB), at least the 1 KiB the system reserves per
// block: carveout 0 -> 8 KiB shared, 248 KiB L1; 25 -> 64 / 192; 50 -> 132 / 124;
// 75 -> 196 / 60; 100 -> 228 / 28; prefer_l1, prefer_equal and prefer_shared map to 0, 50
// and 100, and no preference at all to the maximum (the calculator's conservative choice:
// the driver may well keep more L1). These are model_smem_bytes and model_l1_bytes (sm_90
// only). The preference is a
// hint, so each row also records what the runtime grants: granted_smem_bytes is
// cudaOccupancyAvailableDynamicSMemPerBlock for one block under the preference (the most
// dynamic shared memory a block may get with it), carveout_readback the attribute read back
// with cudaFuncGetAttributes, and cta_smem_bytes / cta_dynamic_smem_bytes the
// %total_smem_size / %dynamic_smem_size special registers read by the kernel itself.
// In the cg build plain loads skip L1 and the cliff should vanish.
// Bytes per launch: l1_split_bytes = blocks * (passes * block_bytes + 32 * 4).
// Sizes: 16 KiB to 384 KiB, dense around the L1 capacities above.
// Tiers: quick has carveouts 0, 50 and 100 at 96 KiB and 192 KiB (the cliff moving with the
// split) and 0 and 100 at 64 KiB (the profile page's lesson); the default tier has no preference and every carveout at every size, and the
// cudaFuncSetCacheConfig preferences (which measure like carveouts 0, 50 and 100) at 32, 128
// and 256 KiB, the sizes just past the 28, 124 and 248 KiB of L1 those leave.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/parallel.hpp"
#include "harness/family/family.hpp"
#include "kernels/cache/l1_split.cuh"
#include "kernels/common/fill.cuh"

namespace membench::cache {
namespace {

struct split_setting {
  cache_preference config;
  int carveout;  ///< -1 = not set (cudaSharedmemCarveoutDefault)
};

constexpr std::array<split_setting, 9> settings{{{cache_preference::none, -1},
                                                 {cache_preference::shared, -1},
                                                 {cache_preference::l1, -1},
                                                 {cache_preference::equal, -1},
                                                 {cache_preference::none, 0},
                                                 {cache_preference::none, 25},
                                                 {cache_preference::none, 50},
                                                 {cache_preference::none, 75},
                                                 {cache_preference::none, 100}}};
constexpr std::array<std::uint64_t, 11> block_sizes_kib{16, 32, 48, 64, 96, 128, 160, 192, 224, 256, 384};

const char* to_string(cache_preference p) {
  switch (p) {
    case cache_preference::none: return "prefer_none";
    case cache_preference::shared: return "prefer_shared";
    case cache_preference::l1: return "prefer_l1";
    case cache_preference::equal: return "prefer_equal";
  }
  return "?";
}

cudaFuncCache to_func_cache(cache_preference p) {
  switch (p) {
    case cache_preference::none: return cudaFuncCachePreferNone;
    case cache_preference::shared: return cudaFuncCachePreferShared;
    case cache_preference::l1: return cudaFuncCachePreferL1;
    case cache_preference::equal: return cudaFuncCachePreferEqual;
  }
  return cudaFuncCachePreferNone;
}

struct l1_split_workspace {
  device_buffer<word16> in;
  device_buffer<std::uint32_t> warp_sums, info;
};

void run_l1_split(bench_context& ctx, split_setting setting, std::uint64_t block_bytes) {
  MEMBENCH_CUDA_CHECK(cudaFuncSetCacheConfig(l1_split_kernel, to_func_cache(setting.config)));
  MEMBENCH_CUDA_CHECK(cudaFuncSetAttribute(l1_split_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           setting.carveout < 0 ? cudaSharedmemCarveoutDefault : setting.carveout));
  const auto blocks = static_cast<unsigned>(ctx.device().sm_count);
  const l1_split_shape shape = make_l1_split_shape(block_bytes);
  const std::uint64_t n = blocks * shape.block_elems;
  auto& ws = ctx.workspace<l1_split_workspace>({"block_bytes"}, [&] {
    ctx.require_device_bytes(n * sizeof(word16) + blocks * (l1_split_warps + l1_split_info_words) * 4);
    l1_split_workspace w{device_buffer<word16>(n), device_buffer<std::uint32_t>(blocks * l1_split_warps),
                         device_buffer<std::uint32_t>(blocks * l1_split_info_words)};
    fill_device<l1_split_value>(w.in.data(), n, ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    return w;
  });
  auto launch = [&](cudaStream_t s) {
    l1_split_kernel<<<blocks, l1_split_block, 0, s>>>(ws.in.data(), shape, ws.warp_sums.data(), ws.info.data());
  };
  auto zero_sums = [&ws](cudaStream_t s) {
    MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.warp_sums.data(), 0, ws.warp_sums.bytes(), s));
  };
  auto check_sums = [&] {
    std::vector<std::uint32_t> expected(blocks * std::size_t{l1_split_warps});
    parallel_parts(
        expected.size(),
        [&](std::size_t b, std::size_t e, std::size_t) {
          for (std::size_t w = b; w < e; ++w) expected[w] = l1_split_warp_expected(shape, w / l1_split_warps, w % l1_split_warps);
        },
        1);
    verify_device_array(ctx.reader(), ws.warp_sums.data(), expected.size(), [&](std::size_t w) { return expected[w]; },
                        "warp sums");
  };
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;  // L1-resident working sets: no DRAM figure
  ctx.verify_and_time(opt, l1_split_bytes(shape, blocks), launch, output_check{zero_sums, check_sums});

  // What the last timed launch was given, where it ran, and what the runtime grants.
  std::vector<std::uint32_t> info(blocks * std::size_t{l1_split_info_words});
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(info.data(), ws.info.data(), ws.info.bytes(), cudaMemcpyDeviceToHost, ctx.stream()));
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  std::set<std::uint32_t> sms;
  for (unsigned b = 0; b < blocks; ++b) sms.insert(info[b * l1_split_info_words]);
  std::size_t granted = 0;
  MEMBENCH_CUDA_CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&granted, l1_split_kernel, 1, l1_split_block));
  cudaFuncAttributes attr{};
  MEMBENCH_CUDA_CHECK(cudaFuncGetAttributes(&attr, l1_split_kernel));
  ctx.set_counter(schema::counter("granted_smem_bytes"), static_cast<double>(granted));
  ctx.set_counter(schema::counter("carveout_readback"), attr.preferredShmemCarveout);
  ctx.set_counter(schema::counter("cta_smem_bytes"), info[1]);
  ctx.set_counter(schema::counter("cta_dynamic_smem_bytes"), info[2]);
  ctx.set_counter(schema::counter("sms_used"), static_cast<double>(sms.size()));
  ctx.set_counter(schema::counter("passes"), shape.passes);
  if (ctx.device().arch() == 90) {
    int reserved = 0;
    MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, ctx.device().index));
    const int pct = setting.carveout >= 0 ? setting.carveout : preference_carveout(setting.config);
    const std::uint64_t needed = attr.sharedSizeBytes + static_cast<std::uint64_t>(reserved);
    const std::uint64_t smem = sm90_smem_capacity(pct, ctx.device().smem_per_sm_bytes, needed);
    ctx.set_counter(schema::counter("model_smem_bytes"), static_cast<double>(smem));
    ctx.set_counter(schema::counter("model_l1_bytes"), static_cast<double>(sm90_unified_bytes - smem));
  }
}

// Quick: carveouts 0, 50 and 100 on both sides of the 124 KiB capacity. Default: the
// cudaFuncSetCacheConfig rows only just past their L1 (they measure like carveouts 0, 50, 100).
constexpr suite_tier tier_of(split_setting setting, std::uint64_t kib) {
  if (setting.carveout >= 0 && setting.carveout % 50 == 0 && (kib == 96 || kib == 192)) return suite_tier::quick;
  // The profile page's carveout lesson: a 64 KiB block with no L1 and with all of it.
  if (setting.config == cache_preference::none && kib == 64 && setting.carveout % 100 == 0) return suite_tier::quick;
  if (setting.config == cache_preference::none || kib == 32 || kib == 128 || kib == 256) return suite_tier::standard;
  return suite_tier::full;
}

void make_cases(family_builder& f) {
  for (split_setting setting : settings) {
    for (std::uint64_t kib : block_sizes_kib) {
      const std::uint64_t block_bytes = kib << 10;
      f.add({{"config", to_string(setting.config)},
             {"carveout", setting.carveout < 0 ? "default" : std::to_string(setting.carveout)},
             {"block_bytes", format_size(block_bytes)}},
            tier_of(setting, kib), [=](bench_context& ctx) { run_l1_split(ctx, setting, block_bytes); });
    }
  }
}

const family_registrar l1_split_family{"cache/l1_split", &make_cases,
    "the L1 / shared-memory carveout and what it does to a reused working set", family_needs::gpu};

}  // namespace
}  // namespace membench::cache
