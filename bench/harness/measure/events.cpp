// Plain events around the launch (host launch latency included): rows whose launch blocks
// the host or runs on a copy engine, and --timing=events. Also --timing=single: one
// warm-up and one launch with no stopping rule, for ncu and nsys.
#include "harness/core/check.hpp"
#include "harness/core/resources.hpp"
#include "harness/measure/device_timers.hpp"
#include "harness/measure/sample_loop.hpp"

namespace membench {
namespace {

sample_run events_with_rule(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t st,
                            const stopping_rule& rule) {
  sample_run run;
  run.method = timing_method::events;
  event_timer timer;
  // SM clocks say nothing about copy engines or host calls; NVML's clock events still count.
  const bool judge_sm_clock = lo.kernel_row() && env.probe != nullptr;
  auto take = [&]() -> std::optional<clock_guard::sample> {
    if (lo.prepare) lo.prepare(st);
    if (lo.l2 == l2_state::cold) env.flush_l2(st);
    timer.start(st);
    launch(st);
    timer.stop(st);
    if (judge_sm_clock) env.probe->record(st);
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(st));
    return clock_guard::sample{timer.seconds(), judge_sm_clock ? env.probe->mhz() : 0.0};
  };
  stopping_criterion criterion(rule, lo.host_row(), lo.budget_scale);
  run_sample_loop(env, criterion, judge_sm_clock, take, run);
  return run;
}

}  // namespace

sample_run measure_events(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t st) {
  return events_with_rule(env, lo, launch, st, env.options.rule);
}

sample_run measure_single(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t st) {
  // One sample, whatever the clocks: a profiler replays it anyway.
  measure_env quiet = env;
  quiet.nvml = nullptr;
  quiet.probe = nullptr;
  sample_run run = events_with_rule(quiet, lo, launch, st, single_sample_rule(env.options.rule));
  run.method = timing_method::single;
  run.converged = false;
  run.unconverged = "single";
  return run;
}

}  // namespace membench
