// B4: distributed shared memory latency (thread-block clusters, sm_90). One cluster of 2 to
// 16 blocks, each with an SM to itself (it asks for more than half an SM's shared memory),
// builds the same random cycle of 128 nodes 128 bytes apart (16 KiB) in its own shared
// memory, every link the 64-bit cluster-window address (mapa) of the successor in that
// block. After a cluster barrier one thread of rank 0 chases, each address the previous
// load's value, the chain of `target:own` (rank 0, its own SM) or `target:remote` (the
// highest rank, another SM of the GPC): the same instructions in both rows, only the
// target differs. The loads are generic (LD.E.64, what ld.shared::cluster compiles to on
// sm_90 as well) so that nothing stands between two loads: a 32-bit shared::cluster address
// would need a move to join it to the window's upper half before every load. One walk of the cycle untimed, then clock64 around
// 8192 timed loads (cycles_per_load; ns_per_load at the row's measured SM clock); a second
// barrier keeps every block's shared memory alive until the chase ends.
// Verified: the node reached against the host walk, the rank written beside it (the walk
// was in the target's memory), and the SMs of rank 0 and the target (different exactly
// for remote).
// Expected (Hopper; Luo et al. measured 33 cycles own, 181-213 remote on an H800): own
// ~26 cycles, as plain shared memory (shared/latency); remote ~185-200 cycles, a round trip
// over the SM-to-SM network inside the GPC, about the same at every cluster size (it
// depends on where in the GPC the target SM lies, not on how many blocks the cluster has). The cluster:16 rows need the non-portable cluster size and 16 free SMs of one GPC:
// skipped with the reason where cudaOccupancyMaxActiveClusters says none fits.
// Shared memory only: the -dlcm build (default, ca, cg) does not matter.
// Bytes per launch: chase_bytes = 8192 loads * 8 bytes (the row time is a latency).
// Tiers: quick has cluster:2 with both targets; the default tier has every row.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cluster/launch.hpp"
#include "harness/family/family.hpp"
#include "harness/family/latency.hpp"
#include "kernels/cluster/dsm_latency.cuh"
#include "kernels/common/chase.hpp"

namespace membench::cluster {
namespace {

struct latency_workspace {
  device_buffer<std::uint32_t> succ;
  device_buffer<dsm_chase_result> out;
  std::vector<std::uint32_t> host_succ;
};

void run_latency(bench_context& ctx, unsigned cluster, dsm_target target) {
  // The chain is 16 KiB; the rest of the request keeps a second block off the SM.
  const cluster_shape shape{cluster, dsm_chase_block, dsm_chase_smem(ctx.device().smem_per_sm_bytes), cluster};
  const cluster_fit fit = fit_clusters(dsm_latency_kernel, shape, ctx.device().arch());
  MEMBENCH_CUDA_CHECK(fit.error);
  if (!fit.problem.empty()) throw infeasible(fit.problem);

  auto& ws = ctx.workspace<latency_workspace>({}, [&] {
    latency_workspace w{device_buffer<std::uint32_t>(dsm_chain_nodes), device_buffer<dsm_chase_result>(1),
                        chase_successors(dsm_chain_nodes)};
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(w.succ.data(), w.host_succ.data(), dsm_chain_nodes * sizeof(std::uint32_t),
                                        cudaMemcpyHostToDevice, ctx.stream()));
    return w;
  });
  const unsigned target_rank = dsm_target_rank(target, cluster);
  auto launch = [&ws, shape, target_rank](cudaStream_t s) {
    MEMBENCH_CUDA_CHECK(launch_clustered(dsm_latency_kernel, shape, s, ws.succ.data(), dsm_chain_nodes, target_rank,
                                         dsm_warm_steps(dsm_chain_nodes), chase_timed_steps, ws.out.data()));
  };
  const auto expected = static_cast<std::uint32_t>(
      chase_node_offset(dsm_chase_expected_node(ws.host_succ, chase_timed_steps), chase_line_bytes));
  const output_check check{
      [&ws](cudaStream_t s) { MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.out.data(), 0xff, sizeof(dsm_chase_result), s)); },
      [&ctx, &ws, expected, target, cluster] {
        const dsm_chase_result r = read_device_value(ctx.reader(), ws.out.data());
        if (const std::string why = dsm_chase_problem(r, expected, target, cluster); !why.empty()) {
          throw verification_error(why);
        }
      }};
  time_chase(ctx, chase_row{dsm_chain_nodes, chase_timed_steps, sizeof(std::uint64_t), launch, {}}, check,
             ws.out.data());
}

void make_cases(family_builder& f) {
  for (unsigned cluster : dsm_latency_clusters) {
    for (dsm_target target : all_dsm_targets) {
      const bool quick = cluster == 2;  // both targets: the page sets remote against own
      f.add({{"cluster", std::to_string(cluster)}, {"target", to_string(target)}},
            quick ? suite_tier::quick : suite_tier::standard,
            [=](bench_context& ctx) { run_latency(ctx, cluster, target); });
    }
  }
}

const family_registrar dsm_latency_family{"cluster/dsm_latency", &make_cases,
    "distributed shared memory latency: this SM's shared memory and another's", family_needs::sm90};

}  // namespace
}  // namespace membench::cluster
