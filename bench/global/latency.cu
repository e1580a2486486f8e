// B1: latency per level, global memory. One thread chases pointers through a random cycle
// of nodes at least a cache line apart (no prefetcher can guess the next address), over
// working sets from the L1 through the L2 to DRAM (`spacing:128`), and with one node per
// 2 MiB page over spans up to 64 GiB (`spacing:2M`: TLB reach; each node lies in its own
// page and its own cache set). `load:plain` is ld.global (its caching set by the build's
// -dlcm: compare the three builds), `load:ldg` is __ldg (ld.global.nc).
//
// Measured: clock64 around the timed loads inside the kernel (cycles_per_load), and that
// at the row's measured SM clock (ns_per_load). The chain goes on from launch to launch
// and its cycle is walked once before the row is timed (and, for chains an L1 can hold,
// once more inside every launch, whose L1 starts empty), so each row is the steady state
// of its working set: a set that fits a level hits it on every load, a set larger than
// the L2 misses it. `--metrics` gives the L1 and L2 hit rates behind each plateau.
// Expected (Hopper): ~30-40 cycles from L1, ~200-300 from L2 (more once the set spans
// both L2 partitions), ~500-800 from DRAM, plus a TLB miss where the span passes a TLB's reach.
// Bytes per launch: chase_bytes = chase_steps_per_launch loads * 8 bytes (8192, or whole
// cycles for chains of 8193 to 2^20 nodes; the row time is a latency, not a rate). Rows that
// time whole cycles get chase_budget_scale times the sampling budget: at a cache's edge their
// launches scatter by a few per cent.
// Tiers: quick has plain loads at 16 KiB (L1), 4 MiB (L2), 1 GiB (DRAM) and, as a level row of
// common/levels.hpp, 32 MiB (L2 far); the default tier has every row.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/family/chain.hpp"
#include "harness/family/family.hpp"
#include "kernels/common/chase.hpp"
#include "kernels/common/types.hpp"
#include "kernels/global/latency.cuh"

namespace membench::global {
namespace {

constexpr std::uint64_t KiB = 1024, MiB = KiB * KiB, GiB = MiB * KiB;
constexpr std::array<std::uint64_t, 27> line_spans{
    4 * KiB,   16 * KiB,  32 * KiB,  64 * KiB,  128 * KiB, 192 * KiB, 256 * KiB, 512 * KiB, 1 * MiB,
    2 * MiB,   4 * MiB,   8 * MiB,   16 * MiB,  24 * MiB,  32 * MiB,  40 * MiB,  48 * MiB,  56 * MiB,
    64 * MiB,  72 * MiB,  80 * MiB,  96 * MiB,  128 * MiB, 256 * MiB, 512 * MiB, 1 * GiB,   2 * GiB};
constexpr std::uint64_t page_spacing = 2 * MiB;
constexpr std::array<std::uint64_t, 16> page_spans{2 * MiB,   4 * MiB,   8 * MiB, 16 * MiB, 32 * MiB, 64 * MiB,
                                                   128 * MiB, 256 * MiB, 512 * MiB, 1 * GiB, 2 * GiB, 4 * GiB,
                                                   8 * GiB,   16 * GiB,  32 * GiB, 64 * GiB};
constexpr unsigned build_block = 256;

void run_chase(bench_context& ctx, bool ldg, std::uint64_t spacing, std::uint64_t span) {
  const std::uint64_t nodes = chase_nodes(span, spacing);
  auto& ws = ctx.workspace<global_chain<chase_state>>({"spacing", "bytes"}, [&] {
    auto build = [nodes, spacing](std::uint64_t* chain, const std::uint32_t* succ, cudaStream_t s) {
      const auto grid = static_cast<unsigned>(blocks_for(nodes, build_block));
      chase_build_kernel<><<<grid, build_block, 0, s>>>(chain, succ, nodes, spacing);
    };
    return make_global_chain<chase_state>(ctx, span, spacing, build);
  });
  auto chase = [&ws, ldg](std::uint64_t warm, std::uint64_t steps, cudaStream_t s) {
    if (ldg) {
      global_chase_kernel<true><<<1, 1, 0, s>>>(ws.state.data(), warm, steps);
    } else {
      global_chase_kernel<false><<<1, 1, 0, s>>>(ws.state.data(), warm, steps);
    }
  };
  time_resumed_chase(ctx, resumed_chase_row(nodes, sizeof(std::uint64_t), chase), ws, spacing,
                     [&ws](std::uint64_t position, cudaStream_t s) {
                       chase_reset_kernel<<<1, 1, 0, s>>>(ws.state.data(), position);
                     });
}

constexpr suite_tier tier_of(bool ldg, std::uint64_t spacing, std::uint64_t span) {
  const bool headline = span == 16 * KiB || span == 4 * MiB || span == 1 * GiB;
  return !ldg && spacing == chase_line_bytes && headline ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  for (bool ldg : {false, true}) {
    for (std::uint64_t spacing : {chase_line_bytes, page_spacing}) {
      const auto& spans = spacing == page_spacing ? std::vector<std::uint64_t>(page_spans.begin(), page_spans.end())
                                                  : std::vector<std::uint64_t>(line_spans.begin(), line_spans.end());
      for (std::uint64_t span : spans) {
        f.add({{"load", ldg ? "ldg" : "plain"}, {"spacing", format_size(spacing)}, {"bytes", format_size(span)}},
              tier_of(ldg, spacing, span), [=](bench_context& ctx) { run_chase(ctx, ldg, spacing, span); });
      }
    }
  }
}

const family_registrar latency_family{"global/latency", &make_cases,
    "the latency of each level through global memory: a pointer chase by working set", family_needs::gpu};

}  // namespace
}  // namespace membench::global
