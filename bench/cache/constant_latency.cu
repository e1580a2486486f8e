// B1: latency per level, constant memory. A random cycle of nodes 128 bytes apart in a
// __constant__ table of 256 bytes to the whole 64 KiB bank; one thread chases it with LDC,
// each offset the previous load's value, walking the cycle once untimed and then timing
// 8192 loads with clock64 (cycles_per_load; ns_per_load at the row's measured SM clock).
// Expected: a few tens of cycles while the set fits the SM's small constant cache (~2 KiB),
// more from the larger second-level constant cache, and L2 latency beyond it.
// Bytes per launch: chase_bytes = 8192 loads * 4 bytes (the row time is a latency).
// Tiers: quick has 1 KiB and 64 KiB; the default tier has every size.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <vector>

#include "harness/family/family.hpp"
#include "harness/family/latency.hpp"
#include "kernels/cache/constant_latency.cuh"
#include "kernels/common/chase.hpp"

namespace membench::cache {
namespace {

constexpr std::array<std::uint64_t, 9> spans{256, 512, 1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10};

struct chase_workspace {
  device_buffer<constant_chase_result> out;
};

void run_chase(bench_context& ctx, std::uint64_t span) {
  const auto nodes = static_cast<std::uint32_t>(chase_nodes(span, chase_line_bytes));
  auto& ws = ctx.workspace<chase_workspace>({}, [] { return chase_workspace{device_buffer<constant_chase_result>(1)}; });
  // The table is the row's own: write it every time (the rows of other sizes overwrite it).
  const std::vector<std::uint32_t> succ = chase_successors(nodes);
  const std::vector<std::uint32_t> table = constant_chase_table(succ, span);
  MEMBENCH_CUDA_CHECK(cudaMemcpyToSymbol(chase_constant, table.data(), span));
  const auto warm = static_cast<std::uint32_t>(chase_cycle_steps(nodes));
  auto launch = [&ws, warm](cudaStream_t s) { constant_chase_kernel<<<1, 1, 0, s>>>(warm, chase_timed_steps, ws.out.data()); };
  time_fresh_chase(ctx, succ, sizeof(std::uint32_t), launch, ws.out.data());
}

void make_cases(family_builder& f) {
  for (std::uint64_t span : spans) {
    const bool quick = span == (1 << 10) || span == (64 << 10);
    f.add({{"bytes", format_size(span)}}, quick ? suite_tier::quick : suite_tier::standard,
          [=](bench_context& ctx) { run_chase(ctx, span); });
  }
}

const family_registrar latency_family{"cache/constant_latency", &make_cases,
    "the latency of the constant cache: a pointer chase", family_needs::gpu};

}  // namespace
}  // namespace membench::cache
