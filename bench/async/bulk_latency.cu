// B3: the latency of one bulk copy (1D TMA). One thread chases a random cycle of 16-byte
// nodes 128 bytes apart: arrive.expect_tx on an mbarrier, one cp.async.bulk of the node into
// shared memory, try_wait until the barrier's phase completes, ld.shared of the next node's
// address, the next copy: every copy depends on the one before, so clock64 around the timed
// copies gives the round trip of the async path (cycles_per_load; ns_per_load at the row's
// measured SM clock). bytes:4M is primed into the L2 and stays there; bytes:1G (20 times the
// L2, random order) misses it on almost every copy. The chain is global/latency's for the
// same size and spacing (same seed): compare with global/latency/load:plain/spacing:128.
// Expected (H100 SXM): ~325 cycles from the L2 and ~730 from HBM, about 50 cycles more than
// global/latency's plain loads on the same chains (~270 and ~680): the TMA unit, the
// transaction count and the barrier's wake-up. (Luo et al. measured ~364-369 and ~752 cycles
// on an H800 with such a chain.)
// The dlcm build does not matter (the copy never passes through L1).
// Verification: the node the chain reached after a reset and one launch, against the host walk.
// Bytes per launch: chase_bytes = chase_steps_per_launch copies * 16 bytes (the row time is a
// latency); whole-cycle rows get chase_budget_scale times the sampling budget, as in global/latency.
// Architecture: sm_90 (cp.async.bulk, mbarrier transaction counts); other GPUs skip.
// Tiers: quick has 4M (L2); the default tier has both rows.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/family/chain.hpp"
#include "harness/family/family.hpp"
#include "kernels/async/bulk_latency.cuh"
#include "kernels/common/chase.hpp"
#include "kernels/common/types.hpp"

namespace membench::async {
namespace {

constexpr std::array<std::uint64_t, 2> spans{std::uint64_t{4} << 20, std::uint64_t{1} << 30};
constexpr std::uint64_t spacing = chase_line_bytes;
constexpr unsigned build_block = 256;
constexpr int needed_arch = 90;

std::string arch_token(int arch) { return "sm_" + std::to_string(arch); }

void run_bulk_chase(bench_context& ctx, std::uint64_t span) {
  if (ctx.device().arch() < needed_arch) {
    throw infeasible("needs sm_90 (cp.async.bulk); this GPU is " + arch_token(ctx.device().arch()));
  }
  cudaFuncAttributes attr{};
  MEMBENCH_CUDA_CHECK(cudaFuncGetAttributes(&attr, bulk_chase_kernel));
  if (attr.ptxVersion < needed_arch) {
    throw infeasible("this build has only " + arch_token(attr.ptxVersion) + " code for the kernel; it needs sm_90");
  }
  const std::uint64_t nodes = chase_nodes(span, spacing);
  auto& ws = ctx.workspace<global_chain<bulk_chase_state>>({"bytes"}, [&] {
    auto build = [nodes](std::uint64_t* chain, const std::uint32_t* succ, cudaStream_t s) {
      const auto grid = static_cast<unsigned>(blocks_for(nodes, build_block));
      chase_build_kernel<bulk_node_tag><<<grid, build_block, 0, s>>>(chain, succ, nodes, spacing);
    };
    return make_global_chain<bulk_chase_state>(ctx, span, spacing, build);
  });
  auto chase = [&ws](std::uint64_t warm, std::uint64_t steps, cudaStream_t s) {
    bulk_chase_kernel<<<1, 1, 0, s>>>(ws.state.data(), warm, steps);
  };
  time_resumed_chase(ctx, resumed_chase_row(nodes, bulk_node_bytes, chase), ws, spacing,
                     [&ws](std::uint64_t position, cudaStream_t s) {
                       chase_reset_kernel<<<1, 1, 0, s>>>(ws.state.data(), position);
                     });
}

void make_cases(family_builder& f) {
  for (std::uint64_t span : spans) {
    f.add({{"bytes", format_size(span)}}, span == spans.front() ? suite_tier::quick : suite_tier::standard,
          [=](bench_context& ctx) { run_bulk_chase(ctx, span); });
  }
}

const family_registrar bulk_latency_family{"async/bulk_latency", &make_cases,
    "the latency of one bulk copy (TMA, 1D) into shared memory", family_needs::sm90};

}  // namespace
}  // namespace membench::async
