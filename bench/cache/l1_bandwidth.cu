// B2: bandwidth per level, L1. One block of 1024 threads per SM (grid = SM count, one block
// fits an SM) re-reads a set of `bytes` bytes from global memory with plain loads of `width`
// bytes; the block reads the set of the SM it runs on (%smid), so `bytes` is each SM's working
// set whatever SM the scheduler places a block on. 1 to 32 loads per thread per pass at
// immediate offsets, at least 8 independent ones in flight (small sets unroll the pass
// loop), the map turning by one warp per pass (no load is loop-invariant). Every load feeds
// the block's sum, checked against the host reference (passes x the set's sum, passes odd).
// The carveout is set to the L1 maximum (the kernel has 128 bytes of shared memory), leaving
// 248 KiB of L1 per SM on sm_90: every set fits. Each SM reads ~32 MiB per launch.
// bytes_per_clk_per_sm is over the SMs the blocks ran on (sms_used, normally all).
// The build matters: plain loads hit L1 in the default and ca builds; in the cg build they
// bypass L1 and the rows show each SM's share of the L2 rate.
// Expected (Hopper): ~100-128 B/clk/SM with 16-byte loads in the default and ca builds (G5's
// L1 plateau, 25.6 TB/s on 132 SMs, is ~110 B/clk/SM at 1.755 GHz); 4-byte loads need one
// load instruction per clock per SM and may get less; cg: ~25-40 B/clk/SM (the L2). The first
// pass of a launch fills L1 from L2 (under 1 % of the 128 KiB rows).
// Bytes per launch: l1_bw_bytes = blocks * (passes * bytes + 8) (a sum and an SM id per block).
// Tiers: quick has width:16/bytes:64K; the default tier has every row.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/cache/l1_bandwidth.cuh"
#include "kernels/common/fill.cuh"

namespace membench::cache {
namespace {

struct l1_bw_workspace {
  device_buffer<std::uint32_t> sets;
  device_buffer<std::uint32_t> partials, smids;
};

std::vector<std::uint32_t> read_smids(bench_context& ctx, const l1_bw_workspace& ws, unsigned blocks) {
  std::vector<std::uint32_t> smids(blocks);
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(smids.data(), ws.smids.data(), blocks * sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToHost, ctx.stream()));
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  return smids;
}

template <class W, std::uint64_t Bytes>
void run_l1_bandwidth(bench_context& ctx) {
  constexpr unsigned loads = l1_bw_loads(Bytes, sizeof(W));
  static_assert(loads >= 1 && Bytes % (std::uint64_t{l1_bw_block} * sizeof(W)) == 0);
  auto* kernel = l1_bandwidth_kernel<W, loads>;
  // All of the SM's unified memory that shared memory does not need goes to L1.
  MEMBENCH_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           cudaSharedmemCarveoutMaxL1));
  if (resident_blocks_per_sm(kernel, l1_bw_block) < 1) throw infeasible("l1_bandwidth_kernel cannot be resident");
  const auto sms = static_cast<unsigned>(ctx.device().sm_count);
  const unsigned blocks = sms;
  const std::uint32_t passes = shared::bw_passes(l1_bw_bytes_per_sm, Bytes, 1);
  const std::uint64_t words = std::uint64_t{sms} * Bytes / 4;
  auto& ws = ctx.workspace<l1_bw_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(words * 4 + std::uint64_t{blocks} * 8);
    l1_bw_workspace w{device_buffer<std::uint32_t>(words), device_buffer<std::uint32_t>(blocks),
                      device_buffer<std::uint32_t>(blocks)};
    fill_device<l1_bw_sets_word>(w.sets.data(), words, ctx.stream(), Bytes);
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    return w;
  });
  auto launch = [&ws, kernel, blocks, sms, passes](cudaStream_t s) {
    kernel<<<blocks, l1_bw_block, 0, s>>>(reinterpret_cast<const W*>(ws.sets.data()), sms, passes, ws.partials.data(),
                                          ws.smids.data());
  };
  auto poison = [&ws, blocks](cudaStream_t s) {
    poison_words(ws.partials.data(), blocks, 0xBAD)(s);
    MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.smids.data(), 0xff, blocks * sizeof(std::uint32_t), s));
  };
  // The reference depends on where each block ran: read the SM ids the launch stored first.
  auto verify = [&ctx, &ws, blocks, sms, passes] {
    const std::vector<std::uint32_t> expected = l1_bw_expected(read_smids(ctx, ws, blocks), sms, Bytes, passes);
    verify_device_array(ctx.reader(), ws.partials.data(), blocks, [&](std::size_t b) { return expected[b]; },
                        "block sums");
  };
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;  // an L1 (or, in the cg build, L2) rate: no DRAM figure
  const std::uint64_t bytes = l1_bw_bytes(blocks, passes, Bytes);
  const double median = ctx.verify_and_time(opt, bytes, launch, output_check{poison, verify});

  const std::vector<std::uint32_t> smids = read_smids(ctx, ws, blocks);  // the last timed launch's
  const std::set<std::uint32_t> used(smids.begin(), smids.end());
  ctx.set_counter(schema::counter("sms_used"), static_cast<double>(used.size()));
  ctx.set_counter(schema::counter("passes"), passes);
  const double per_clk = shared::bytes_per_clk(bytes, median, ctx.counter(schema::counter("sm_clock_mhz")),
                                               static_cast<double>(used.size()));
  if (std::isfinite(per_clk)) ctx.set_counter(schema::counter("bytes_per_clk_per_sm"), per_clk);
}

template <class W, std::uint64_t... Sizes>
void add_width(family_builder& f) {
  (f.add({{"width", std::to_string(sizeof(W))}, {"bytes", format_size(Sizes)}},
         sizeof(W) == 16 && Sizes == (64 << 10) ? suite_tier::quick : suite_tier::standard,
         [](bench_context& ctx) { run_l1_bandwidth<W, Sizes>(ctx); }),
   ...);
}

void make_cases(family_builder& f) {
  add_width<std::uint32_t, 16 << 10, 64 << 10, 128 << 10>(f);
  add_width<word16, 16 << 10, 64 << 10, 128 << 10>(f);
}

const family_registrar l1_bandwidth_family{"cache/l1_bandwidth", &make_cases,
    "L1 bandwidth: every SM reading a set that fits its L1", family_needs::gpu};

}  // namespace
}  // namespace membench::cache
