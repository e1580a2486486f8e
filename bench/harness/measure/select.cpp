// Which strategy times a row of launches.
#include "harness/core/check.hpp"
#include "harness/measure/sample_loop.hpp"
#include "harness/measure/timer_floor.hpp"

namespace membench {
namespace {

// Labels the samples the event timer cannot resolve; the blocking method took the pair off each.
sample_run judged(const measure_env& env, sample_run run) {
  const timer_floor_inputs t{env.event_overhead_s, env.event_spread_s, env.timer_resolution_s};
  run.timer_floor = at_timer_floor(run.samples, run.method == timing_method::blocking, t);
  return run;
}

}  // namespace

sample_run measure_launch(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t own) {
  const cudaStream_t st = lo.stream != nullptr ? lo.stream : own;
  const bool single = env.options.method == timing_method::single;
  // Warm-up: module load, TLB and (warm) L2 state stay out of the samples. Synchronised
  // one by one: a host-side prepare must not race the previous launch.
  for (int i = 0; i < (single ? 1 : 2); ++i) {
    if (lo.prepare) lo.prepare(st);
    if (lo.l2 == l2_state::cold) env.flush_l2(st);
    launch(st);
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(st));
  }
  if (single) return judged(env, measure_single(env, lo, launch, st));
  const bool blocking = env.options.method == timing_method::blocking;
  if (!blocking || !lo.kernel_row() || env.blocker == nullptr) {
    sample_run run = measure_events(env, lo, launch, st);
    if (blocking) run.fallback = lo.blocks_host ? "launch_blocks_host" : lo.copy_engine ? "copy_engine" : "no_blocker";
    return judged(env, std::move(run));
  }
  sample_run run = measure_blocking(env, lo, launch, st);
  const double below_s = env.options.batch_below_us * 1e-6;
  if (run.method == timing_method::blocking && !lo.prepare && below_s > 0 && !run.samples.empty() &&
      median_of(run.samples) < below_s)
    measure_batch(env, lo, launch, st, run);
  return judged(env, std::move(run));
}

}  // namespace membench
