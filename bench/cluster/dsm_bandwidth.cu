// B4: distributed shared memory bandwidth (thread-block clusters, sm_90). As many clusters
// of 1 to 16 blocks as can be resident at once (cudaOccupancyMaxActiveClusters), one
// 1024-thread block per SM (its 128 KiB array leaves no room for a second): every block
// fills its array with values of its own, and after a cluster barrier reads the array of
// its neighbour (rank + 1 mod cluster size) again and again with 16-byte ld.shared::cluster
// loads, 8 in flight per thread, a warp's 32 loads 512 contiguous bytes (conflict-free).
// cluster:1 reads the block's own array through the same mapa + ld.shared::cluster code:
// the local reference. A last cluster barrier keeps every array alive until its reader is done.
// Verified: every block's sum of what it read against the host reference (each block's
// data differs, so reading the wrong block fails), and that no block shares an SM with
// its neighbour. Reported: GB/s, and bytes_per_clk_per_sm = bytes / (median time x
// measured SM clock x SMs the launch ran on).
// Expected (Hopper): cluster:1 near local shared memory's 128 B/clk/SM (~100 through these
// generic loads); remote reads share the GPC's SM-to-SM network and come out far below:
// ~15 B/clk/SM (~4 TB/s on 132 SMs) at cluster size 2, ~12 (~2.7 TB/s) at 4 to 16
// (published: ~3.3 TB/s on an H800 at size 2, falling with size). Fewer SMs take part at
// 4 and up (whole clusters per GPC: 120, and 112 at 16). cluster:16 needs the non-portable
// size and skips with the reason where none fits.
// Shared memory only: the -dlcm build (default, ca, cg) does not matter.
// Bytes per launch: dsm_bw_bytes = blocks x passes x 128 KiB, passes bringing it to at
// least 1 GiB (the in-kernel fill and the 4-byte sum per block are not counted).
// Tiers: quick has cluster:2 (a level row of common/levels.hpp); the default tier every row.
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cluster/launch.hpp"
#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "kernels/cluster/dsm_bandwidth.cuh"

namespace membench::cluster {
namespace {

constexpr std::uint32_t poison_seed = 0xBAD4;

struct bandwidth_workspace {
  device_buffer<std::uint32_t> partials;  ///< the sum each block read
  device_buffer<std::uint32_t> smids;     ///< the SM each block ran on
};

std::vector<std::uint32_t> read_smids(bench_context& ctx, const bandwidth_workspace& ws, std::uint64_t blocks) {
  std::vector<std::uint32_t> smids(blocks);
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(smids.data(), ws.smids.data(), blocks * sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToHost, ctx.stream()));
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  return smids;
}

void run_bandwidth(bench_context& ctx, unsigned cluster) {
  cluster_shape shape{cluster, dsm_bw_block, dsm_bw_array_bytes, cluster};
  const cluster_fit fit = fit_clusters(dsm_bandwidth_kernel, shape, ctx.device().arch());
  MEMBENCH_CUDA_CHECK(fit.error);
  if (!fit.problem.empty()) throw infeasible(fit.problem);
  shape.grid = static_cast<unsigned>(fit.clusters) * cluster;
  const std::uint64_t blocks = shape.grid;
  const std::uint32_t passes = dsm_bw_passes(blocks);

  auto& ws = ctx.workspace<bandwidth_workspace>({"cluster"}, [&] {
    return bandwidth_workspace{device_buffer<std::uint32_t>(blocks), device_buffer<std::uint32_t>(blocks)};
  });
  auto launch = [&ws, shape, passes](cudaStream_t s) {
    MEMBENCH_CUDA_CHECK(launch_clustered(dsm_bandwidth_kernel, shape, s, passes, dsm_bw_shift, ws.partials.data(),
                                         ws.smids.data()));
  };
  const output_check check{
      [&ws, blocks](cudaStream_t s) {
        fill_words(ws.partials.data(), blocks, poison_seed, s);
        MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.smids.data(), 0xff, blocks * sizeof(std::uint32_t), s));
      },
      [&ctx, &ws, blocks, cluster, passes] {
        std::vector<std::uint32_t> expected(blocks);
        for (std::uint64_t b = 0; b < blocks; ++b) expected[b] = dsm_bw_block_expected(b, cluster, passes);
        verify_device_array(ctx.reader(), ws.partials.data(), blocks, [&](std::size_t b) { return expected[b]; },
                            "block sums of the neighbour's array");
        if (const std::string why = dsm_neighbour_sm_problem(read_smids(ctx, ws, blocks), cluster); !why.empty()) {
          throw verification_error(why);
        }
      }};
  launch_options opt{};
  opt.l2 = l2_state::warm;  // nothing in global memory to flush
  opt.report_pct_peak = false;
  const double median_s = ctx.verify_and_time(opt, dsm_bw_bytes(blocks, passes), launch, check);
  // Every launch writes the SMs its blocks ran on: those of the last timed launch.
  const auto sms = static_cast<double>(dsm_sms_used(read_smids(ctx, ws, blocks)));
  ctx.set_counter(schema::counter("sms_used"), sms);
  ctx.set_counter(schema::counter("passes"), static_cast<double>(passes));
  const double mhz = ctx.counter(schema::counter("sm_clock_mhz"));
  if (std::isfinite(mhz) && mhz > 0 && median_s > 0) {
    ctx.set_counter(schema::counter("bytes_per_clk_per_sm"),
                    bytes_per_clk_per_sm(static_cast<double>(dsm_bw_bytes(blocks, passes)), median_s, mhz, sms));
  }
}

void make_cases(family_builder& f) {
  for (unsigned cluster : dsm_bandwidth_clusters) {
    f.add({{"cluster", std::to_string(cluster)}}, suite_tier::standard,
          [=](bench_context& ctx) { run_bandwidth(ctx, cluster); });
  }
}

const family_registrar dsm_bandwidth_family{"cluster/dsm_bandwidth", &make_cases,
    "distributed shared memory bandwidth between the blocks of a cluster", family_needs::sm90};

}  // namespace
}  // namespace membench::cluster
