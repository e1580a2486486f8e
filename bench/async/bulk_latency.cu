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

#include "harness/family/family.hpp"
#include "harness/family/latency.hpp"
#include "kernels/async/bulk_latency.cuh"
#include "kernels/common/chase.hpp"
#include "kernels/common/types.hpp"

namespace membench::async {
namespace {

constexpr std::array<std::uint64_t, 2> spans{std::uint64_t{4} << 20, std::uint64_t{1} << 30};
constexpr std::uint64_t spacing = chase_line_bytes;
constexpr unsigned build_block = 256;
constexpr int needed_arch = 90;

struct bulk_chase_workspace {
  device_buffer<std::uint64_t> chain;
  device_buffer<bulk_chase_state> state;
  std::vector<std::uint32_t> succ;
};

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
  auto& ws = ctx.workspace<bulk_chase_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(span + nodes * sizeof(std::uint32_t));
    bulk_chase_workspace w{device_buffer<std::uint64_t>(span / sizeof(std::uint64_t)), device_buffer<bulk_chase_state>(1),
                           chase_successors(static_cast<std::uint32_t>(nodes))};
    build_chain(ctx, w.succ, [&w, nodes](const std::uint32_t* succ, cudaStream_t s) {
      bulk_chase_build_kernel<<<static_cast<unsigned>(blocks_for(nodes, build_block)), build_block, 0, s>>>(
          w.chain.data(), succ, nodes, spacing);
    });
    return w;
  });
  const auto base = reinterpret_cast<std::uint64_t>(ws.chain.data());
  auto chase = [&ws](std::uint64_t warm_steps, std::uint64_t steps, cudaStream_t s) {
    bulk_chase_kernel<<<1, 1, 0, s>>>(ws.state.data(), warm_steps, steps);
  };
  const chase_row row = resumed_chase_row(nodes, bulk_node_bytes, chase);
  auto reset = [&ws, start = base + chase_node_offset(0, spacing)](cudaStream_t s) {
    bulk_chase_reset_kernel<<<1, 1, 0, s>>>(ws.state.data(), start);
  };
  reset(ctx.stream());
  row.prime(ctx.stream());

  const std::uint64_t walked = chase_walk(ws.succ, 0, chase_launch_warm_steps(nodes) + row.timed_steps);
  const std::uint64_t expected = base + chase_node_offset(walked, spacing);
  const auto* position = reinterpret_cast<const std::uint64_t*>(ws.state.data());
  time_chase(ctx, row, chain_position_check(ctx, position, expected, reset), ws.state.data());
}

void make_cases(family_builder& f) {
  for (std::uint64_t span : spans) {
    f.add({{"bytes", format_size(span)}}, span == spans.front() ? suite_tier::quick : suite_tier::standard,
          [=](bench_context& ctx) { run_bulk_chase(ctx, span); });
  }
}

const family_registrar bulk_latency_family{"async/bulk_latency", &make_cases};

}  // namespace
}  // namespace membench::async
