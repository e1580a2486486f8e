// B1: latency per level, shared memory. One block copies a random cycle of nodes 128 bytes
// apart into its dynamic shared memory; one thread then chases it with ld.shared, each
// address the previous load's value, timed with clock64 around the timed loads (cycles_per_load,
// and ns_per_load at the row's measured SM clock). The sizes run up to the 227 KiB a block
// may ask for on sm_90.
// Expected (Hopper): ~30 cycles at every size (no cache in the way): the floor the L1 rows
// of global/latency add their tag check to.
// Bytes per launch: chase_bytes = 8192 loads * 4 bytes (the row time is a latency).
// Tiers: quick has 16 KiB; the default tier has every size.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/family/family.hpp"
#include "harness/family/latency.hpp"
#include "kernels/common/chase.hpp"
#include "kernels/shared/latency.cuh"

namespace membench::shared {
namespace {

constexpr std::array<std::uint64_t, 7> spans{1 << 10, 4 << 10, 16 << 10, 64 << 10, 128 << 10, 192 << 10, 224 << 10};
constexpr unsigned copy_block = 256;

struct chase_workspace {
  device_buffer<std::uint32_t> succ;
  device_buffer<chase_result> out;
  std::vector<std::uint32_t> host_succ;
};

void run_chase(bench_context& ctx, std::uint64_t span) {
  const auto nodes = static_cast<std::uint32_t>(chase_nodes(span, chase_line_bytes));
  if (span > static_cast<std::uint64_t>(ctx.device().smem_per_block_optin_bytes)) {
    throw infeasible("the chain needs " + std::to_string(span) + " bytes of shared memory per block; this GPU allows " +
                     std::to_string(ctx.device().smem_per_block_optin_bytes));
  }
  auto& ws = ctx.workspace<chase_workspace>({"bytes"}, [&] {
    chase_workspace w{device_buffer<std::uint32_t>(nodes), device_buffer<chase_result>(1), chase_successors(nodes)};
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(w.succ.data(), w.host_succ.data(), nodes * sizeof(std::uint32_t),
                                        cudaMemcpyHostToDevice, ctx.stream()));
    return w;
  });
  MEMBENCH_CUDA_CHECK(cudaFuncSetAttribute(shared_chase_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(span)));
  auto launch = [&ws, nodes, span](cudaStream_t s) {
    const auto warm = static_cast<std::uint32_t>(chase_cycle_steps(nodes));
    shared_chase_kernel<<<1, copy_block, span, s>>>(ws.succ.data(), nodes, chase_line_bytes, warm, chase_timed_steps,
                                                    ws.out.data());
  };
  time_fresh_chase(ctx, ws.host_succ, sizeof(std::uint32_t), launch, ws.out.data());
}

void make_cases(family_builder& f) {
  for (std::uint64_t span : spans) {
    f.add({{"bytes", format_size(span)}}, span == (16 << 10) ? suite_tier::quick : suite_tier::standard,
          [=](bench_context& ctx) { run_chase(ctx, span); });
  }
}

const family_registrar latency_family{"shared/latency", &make_cases,
    "the latency of shared memory: a pointer chase", family_needs::gpu};

}  // namespace
}  // namespace membench::shared
