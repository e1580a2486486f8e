// B2: bandwidth per level, shared memory. Every block of 512 threads copies one 32 KiB set
// from global memory into its shared memory, then re-reads it with conflict-free loads of
// `width` bytes (LDS, LDS.64, LDS.128): 16, 8 or 4 independent loads per thread per pass at
// immediate offsets from one base (the compiler unrolls the pass loop further), the map
// turning by one warp per pass so that no load can be hoisted out of the pass loop. Every
// load feeds a sum; each block stores its sum, checked against the host reference (passes x
// the set's sum, passes odd). The grid is every SM's resident blocks (occupancy API, carveout
// at the shared maximum: 4 blocks per SM on sm_90), each SM reading ~32 MiB per launch
// (~150 us). bytes_per_clk_per_sm is the launch's bytes per SM clock per SM.
// Expected (Hopper): ~128 B/clk/SM for 8- and 16-byte loads (32 banks x 4 bytes a clock;
// ~29 TB/s on 132 SMs at 1.755 GHz); 4-byte loads need one LDS per clock per SM and may get
// less. Shared memory only: the three builds run the same loads.
// Bytes per launch: smem_bw_bytes = blocks * (passes * 32 KiB + 4); the 32 KiB copy into
// shared memory (under 1 % of the launch) is not counted.
// Tiers: quick has width:16; the default tier has every width.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/shared/bandwidth.cuh"

namespace membench::shared {
namespace {

struct smem_bw_workspace {
  device_buffer<std::uint32_t> in;
  device_buffer<std::uint32_t> partials;
};

__global__ void shared_bandwidth_fill_kernel(std::uint32_t* in) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < smem_bw_set_bytes / 4; i += gridDim.x * blockDim.x)
    in[i] = smem_bw_word(i);
}

template <class W>
void run_bandwidth(bench_context& ctx) {
  // The kernel's 32 KiB of static shared memory: ask for the largest shared share of the SM
  // so that the occupancy below is not capped by the L1's.
  MEMBENCH_CUDA_CHECK(cudaFuncSetAttribute(shared_bandwidth_kernel<W>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                           cudaSharedmemCarveoutMaxShared));
  const int per_sm = resident_blocks_per_sm(shared_bandwidth_kernel<W>, smem_bw_block);
  if (per_sm < 1) throw infeasible("shared_bandwidth_kernel cannot be resident");
  const auto sms = static_cast<unsigned>(ctx.device().sm_count);
  const unsigned blocks = static_cast<unsigned>(per_sm) * sms;
  const std::uint32_t passes = bw_passes(smem_bw_bytes_per_sm, smem_bw_set_bytes, static_cast<std::uint64_t>(per_sm));
  auto& ws = ctx.workspace<smem_bw_workspace>({"width"}, [&] {
    ctx.require_device_bytes(smem_bw_set_bytes + std::uint64_t{blocks} * 4);
    smem_bw_workspace w{device_buffer<std::uint32_t>(smem_bw_set_bytes / 4), device_buffer<std::uint32_t>(blocks)};
    shared_bandwidth_fill_kernel<<<8, 256, 0, ctx.stream()>>>(w.in.data());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    return w;
  });
  auto launch = [&ws, blocks, passes](cudaStream_t s) {
    shared_bandwidth_kernel<W><<<blocks, smem_bw_block, 0, s>>>(reinterpret_cast<const W*>(ws.in.data()), passes,
                                                                 ws.partials.data());
  };
  const std::uint32_t expected = smem_bw_expected(passes);
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;  // shared memory: no DRAM figure
  const std::uint64_t bytes = smem_bw_bytes(blocks, passes);
  const double median = ctx.verify_and_time(opt, bytes, launch,
                                            array_check(ctx, ws.partials.data(), blocks, [expected](std::size_t) { return expected; },
                                                        "block sums", poison_words(ws.partials.data(), blocks, 0xBAD)));
  ctx.set_counter(schema::counter("blocks_per_sm"), per_sm);
  ctx.set_counter(schema::counter("passes"), passes);
  const double per_clk = bytes_per_clk(bytes, median, ctx.counter(schema::counter("sm_clock_mhz")), sms);
  if (std::isfinite(per_clk)) ctx.set_counter(schema::counter("bytes_per_clk_per_sm"), per_clk);
}

void make_cases(family_builder& f) {
  f.add({{"width", "4"}}, suite_tier::standard, [](bench_context& ctx) { run_bandwidth<std::uint32_t>(ctx); });
  f.add({{"width", "8"}}, suite_tier::standard, [](bench_context& ctx) { run_bandwidth<word8>(ctx); });
  f.add({{"width", "16"}}, suite_tier::quick, [](bench_context& ctx) { run_bandwidth<word16>(ctx); });
}

const family_registrar bandwidth_family{"shared/bandwidth", &make_cases,
    "shared-memory bandwidth: every block copying its own set", family_needs::gpu};

}  // namespace
}  // namespace membench::shared
