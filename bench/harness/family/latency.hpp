// Timing a pointer-chase row (the latency families of every space): verify once, time the
// launches in the chain's steady state, read the last launch's clock ticks back, and the
// counters that go with them.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include <cuda_runtime_api.h>

#include "common/schema.hpp"
#include "harness/core/check.hpp"
#include "harness/core/verify.hpp"
#include "harness/family/check.hpp"
#include "harness/session/context.hpp"
#include "kernels/common/chase.hpp"

namespace membench {

/// After timing: `cycles` clock64 ticks of the last launch's `steps` timed loads, over a
/// cycle of `nodes` nodes; ns at the SM clock the row measured (none when it measured none).
inline void report_chase(bench_context& ctx, std::uint64_t cycles, std::uint64_t steps, std::uint64_t nodes) {
  const double per_load = static_cast<double>(cycles) / static_cast<double>(steps);
  ctx.set_counter(schema::counter("cycles_per_load"), per_load);
  const double mhz = ctx.counter(schema::counter("sm_clock_mhz"));
  if (std::isfinite(mhz) && mhz > 0) ctx.set_counter(schema::counter("ns_per_load"), per_load / mhz * 1e3);
  ctx.set_counter(schema::counter("chain_nodes"), static_cast<double>(nodes));
}

/// One chase row: how its launches walk the chain and what they load.
struct chase_row {
  std::uint64_t nodes = 0;        ///< nodes in the chain's cycle
  std::uint64_t timed_steps = 0;  ///< dependent loads each launch times
  std::uint64_t word_bytes = 0;   ///< bytes one step loads (chase_bytes)
  launch_fn launch;               ///< one launch; writes its clock ticks to the row's result
  /// Empty for chains each launch builds or walks in full itself; for a chain that goes on
  /// from launch to launch, its untimed walk back to the steady state the timed launches see.
  launch_fn prime;
};

/// The node a launch reached (`dev`, after `reset`) against the host walk's `expected`.
template <class Word>
output_check chain_position_check(bench_context& ctx, const Word* dev, Word expected, launch_fn reset) {
  return {std::move(reset), [&ctx, dev, expected] {
            verify_device_array(ctx.reader(), dev, 1, [expected](std::size_t) { return expected; }, "chain position");
          }};
}

/// Verifies once, times `row`'s launches (never flushed: the row is its chain's steady state;
/// no memory ceiling describes a latency) and reports the clock ticks `result->cycles` of the
/// last launch. After a --metrics pass those of a fresh launch in the primed steady state
/// instead, and the profiled launch's own ticks beside them: the counters describe that
/// launch, which need not have seen the timed launches' cache state. Reads go through the
/// row's stream, which does not order with the legacy one. throws cuda_error, verification_error
template <class Result>
void time_chase(bench_context& ctx, const chase_row& row, const output_check& check, const Result* result) {
  launch_options opt{};
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;
  opt.budget_scale = chase_budget_scale(row.nodes);
  opt.profile_prepare = row.prime;
  ctx.verify_and_time(opt, chase_bytes(row.timed_steps, row.word_bytes), row.launch, check);
  if (std::isfinite(ctx.counter(schema::counter("metrics_passes")))) {
    const Result profiled = read_device_value(ctx.reader(), result);
    ctx.set_counter(schema::counter("metrics_cycles_per_load"),
                    static_cast<double>(profiled.cycles) / static_cast<double>(row.timed_steps));
    if (row.prime) row.prime(ctx.stream());
    row.launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
  }
  const Result last = read_device_value(ctx.reader(), result);
  report_chase(ctx, last.cycles, row.timed_steps, row.nodes);
}

/// Times a chase whose every launch walks its chain of `succ.size()` nodes from node 0:
/// chase_cycle_steps untimed, then chase_timed_steps of `word_bytes` each. The check: the byte
/// offset the launch reached (the first word of *result, poisoned first) against the host walk.
/// throws cuda_error, verification_error
template <class Result>
void time_fresh_chase(bench_context& ctx, const std::vector<std::uint32_t>& succ, std::uint64_t word_bytes,
                      launch_fn launch, Result* result) {
  const std::uint64_t nodes = succ.size();
  const std::uint64_t walked = chase_walk(succ, 0, chase_cycle_steps(nodes) + chase_timed_steps);
  const auto expected = static_cast<std::uint32_t>(chase_node_offset(walked, chase_line_bytes));
  const auto* position = reinterpret_cast<const std::uint32_t*>(result);
  const output_check check = chain_position_check(ctx, position, expected, poison_bytes(result, sizeof(Result), 0xff));
  time_chase(ctx, chase_row{nodes, chase_timed_steps, word_bytes, std::move(launch), {}}, check, result);
}

}  // namespace membench
