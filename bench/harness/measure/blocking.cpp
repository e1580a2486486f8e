// The default strategy, as nvbench's cold measurement: a one-thread kernel holds the stream
// while the flush, the start event, the launch and the stop event are queued, then lets go,
// so the GPU runs them back to back without the host's launch latency between the events.
// The event pair's own cost (calibration.hpp) is subtracted from every sample.
#include <algorithm>

#include <fmt/format.h>

#include "harness/core/check.hpp"
#include "harness/core/resources.hpp"
#include "harness/measure/device_timers.hpp"
#include "harness/measure/sample_loop.hpp"

namespace membench {
namespace {

struct release_on_exit {
  stream_blocker* blocker;
  ~release_on_exit() {
    if (blocker != nullptr) blocker->release();
  }
};

}  // namespace

sample_run measure_blocking(const measure_env& env, const launch_options& lo, const launch_fn& launch,
                            cudaStream_t st) {
  sample_run run;
  run.method = timing_method::blocking;
  run.event_overhead_s = env.event_overhead_s;
  event_timer timer;
  auto take = [&]() -> std::optional<clock_guard::sample> {
    if (lo.prepare) lo.prepare(st);
    if (lo.l2 == l2_state::cold) env.flush_l2(st);
    {
      release_on_exit guard{env.blocker};
      env.blocker->hold(st);
      timer.start(st);
      launch(st);
      timer.stop(st);
      env.probe->record(st);
    }
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(st));
    const double secs = timer.seconds();
    if (env.blocker->timed_out()) return std::nullopt;
    return clock_guard::sample{std::max(0.0, secs - env.event_overhead_s), env.probe->mhz()};
  };
  stopping_criterion criterion(env.options.rule, lo.host_row(), lo.budget_scale);
  if (!run_sample_loop(env, criterion, true, take, run)) {
    // The launch blocked the host (or a profiler serialised it): time the row plainly,
    // from scratch, so that no sample mixes the two methods.
    sample_run plain = measure_events(env, lo, launch, st);
    plain.fallback = "blocking_timed_out";
    return plain;
  }
  const double median = median_of(run.samples);
  if (!(median > 0))
    throw std::runtime_error(fmt::format("median sample is {} us after subtracting the event-pair cost ({:.3f} us): "
                                         "below what events resolve; time it with --timing=events",
                                         median * 1e6, env.event_overhead_s * 1e6));
  return run;
}

}  // namespace membench
