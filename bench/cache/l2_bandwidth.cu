// B2: bandwidth per level, L2. Every SM's resident blocks (occupancy API, 512 threads each)
// read one global set of `bytes` bytes with ld.global.cg (explicit PTX, 16-byte vectors: L1
// is bypassed in every build, so the build does not matter), 8 independent loads per thread
// at a time, ~8 GiB of loads per launch with the L2 warm. Thread t's load j reads element
// (t + j * step) mod n, step = the grid's threads mod n: each load round of the grid reads
// the next stretch of the set, so every pass spreads over all of it and every block starts
// at a different offset. Each block's sum is checked against the host reference (prefix sums
// of the set over the ranges its warps read). Counters: bytes_per_clk (all SMs together, at
// the measured SM clock) and bytes_per_clk_per_sm.
// Expected (Hopper): published L2 bandwidth ~7.7 TB/s on an H100 PCIe and ~10 TB/s on an
// H200 (~30-45 B/clk per SM, 4-6 KB/clk in all, at 1.755 GHz on 132 SMs). The H100's L2 is
// two partitions: the latency chase sees ~270 cycles up to 16-24 MiB and ~520 from 32 MiB
// (lines served from the far partition), so the rate may step down between 16M and 32M.
// Sets larger than the GPU's L2 (gpu_l2_bytes: 50 MiB on an H100, 60 MiB on an H200; every
// row fits those, not a 40 MiB A100's 48M) still run and then measure partly DRAM.
// Bytes per launch: l2_bw_bytes = blocks * (512 * loads * 16 + 4).
// Tiers: quick has 8M and 32M (the level rows of common/levels.hpp: L2 near and far); the
// default tier has every size.
#include <cuda_runtime_api.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "common/parallel.hpp"
#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/cache/l2_bandwidth.cuh"
#include "kernels/common/fill.cuh"

namespace membench::cache {
namespace {

constexpr std::array<std::uint64_t, 7> sizes_mib{2, 4, 8, 16, 24, 32, 48};

struct l2_bw_workspace {
  device_buffer<word16> set;
  device_buffer<std::uint32_t> partials;
};

void run_l2_bandwidth(bench_context& ctx, std::uint64_t set_bytes) {
  const int per_sm = resident_blocks_per_sm(l2_bandwidth_kernel, l2_bw_block);
  if (per_sm < 1) throw infeasible("l2_bandwidth_kernel cannot be resident");
  const auto sms = static_cast<unsigned>(ctx.device().sm_count);
  const unsigned blocks = static_cast<unsigned>(per_sm) * sms;
  const l2_bw_shape shape = make_l2_bw_shape(set_bytes, std::uint64_t{blocks} * l2_bw_block);
  auto& ws = ctx.workspace<l2_bw_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(set_bytes + std::uint64_t{blocks} * 4);
    l2_bw_workspace w{device_buffer<word16>(shape.n), device_buffer<std::uint32_t>(blocks)};
    fill_device<l2_bw_value>(w.set.data(), shape.n, ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    return w;
  });
  auto launch = [&ws, blocks, shape](cudaStream_t s) {
    l2_bandwidth_kernel<<<blocks, l2_bw_block, 0, s>>>(ws.set.data(), shape, ws.partials.data());
  };
  auto verify = [&ctx, &ws, blocks, shape] {
    const std::vector<std::uint32_t> prefix = l2_bw_prefix(shape.n);
    std::vector<std::uint32_t> expected(blocks);
    parallel_parts(
        blocks,
        [&](std::size_t b, std::size_t e, std::size_t) {
          for (std::size_t blk = b; blk < e; ++blk) expected[blk] = l2_bw_block_expected(prefix, shape, l2_bw_block, blk);
        },
        1);
    verify_device_array(ctx.reader(), ws.partials.data(), blocks, [&](std::size_t b) { return expected[b]; },
                        "block sums");
  };
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;  // an L2 rate: no DRAM figure
  const std::uint64_t bytes = l2_bw_bytes(shape, blocks, l2_bw_block);
  const double median =
      ctx.verify_and_time(opt, bytes, launch, output_check{poison_words(ws.partials.data(), blocks, 0xBAD), verify});
  ctx.set_counter(schema::counter("blocks_per_sm"), per_sm);
  const double mhz = ctx.counter(schema::counter("sm_clock_mhz"));
  const double per_clk = shared::bytes_per_clk(bytes, median, mhz);
  if (std::isfinite(per_clk)) {
    ctx.set_counter(schema::counter("bytes_per_clk"), per_clk);
    ctx.set_counter(schema::counter("bytes_per_clk_per_sm"), shared::bytes_per_clk(bytes, median, mhz, sms));
  }
}

void make_cases(family_builder& f) {
  for (std::uint64_t mib : sizes_mib) {
    const std::uint64_t set_bytes = mib << 20;
    f.add({{"bytes", format_size(set_bytes)}}, mib == 8 ? suite_tier::quick : suite_tier::standard,
          [=](bench_context& ctx) { run_l2_bandwidth(ctx, set_bytes); });
  }
}

const family_registrar l2_bandwidth_family{"cache/l2_bandwidth", &make_cases,
    "L2 bandwidth: every SM reading a set that fits the L2", family_needs::gpu};

}  // namespace
}  // namespace membench::cache
