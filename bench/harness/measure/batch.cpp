// Short kernels, back to back: the stream is held while `launches` copies of the launch
// are queued between the events, then released, so the GPU runs them with no host gap;
// the time per launch is what a stream of such launches sustains (nvbench's batch mode).
// No flush between the launches: after the first one the data is as warm as L2 keeps it.
// Reported beside the cold single-launch time, never instead of it.
#include <algorithm>
#include <cmath>

#include "harness/core/check.hpp"
#include "harness/core/resources.hpp"
#include "harness/measure/device_timers.hpp"
#include "harness/measure/sample_loop.hpp"

namespace membench {
namespace {

constexpr double batch_target_s = 2e-3;  // a batch long enough that the event pair is < 0.1 %
constexpr int max_launches = 2000;
// The batch is what judges a short row (a 3 us kernel's single launches scatter by several
// percent): its interval must be a small fraction of the 5 % a comparison should see, and
// its order statistics need enough batches to mean something (20 gives [x(6), x(15)] at 95 %).
constexpr double batch_max_ci_pct = 0.25;
constexpr int batch_min_samples = 20;
constexpr double batch_max_time_s = 0.25;  // about 120 batches of 2 ms

struct release_on_exit {
  stream_blocker* blocker;
  ~release_on_exit() { blocker->release(); }
};

}  // namespace

void measure_batch(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t st,
                   sample_run& run) {
  // A per-sample preparation cannot run inside a batch; copies and host calls are not SM work.
  if (env.blocker == nullptr || env.probe == nullptr || run.samples.empty() || lo.prepare || !lo.kernel_row()) return;
  const double single = median_of(run.samples);
  const int launches = std::clamp(static_cast<int>(std::ceil(batch_target_s / std::max(single, 1e-7))), 4, max_launches);
  event_timer timer;
  bool timed_out = false;
  auto take = [&]() -> std::optional<clock_guard::sample> {
    {
      release_on_exit guard{env.blocker};
      env.blocker->hold(st);
      timer.start(st);
      for (int i = 0; i < launches; ++i) launch(st);
      timer.stop(st);
      env.probe->record(st);
    }
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(st));
    const double secs = timer.seconds();
    if (env.blocker->timed_out()) {
      timed_out = true;  // queuing took longer than the blocker waits: no batch figure
      return std::nullopt;
    }
    return clock_guard::sample{std::max(0.0, secs - env.event_overhead_s) / launches, env.probe->mhz()};
  };
  stopping_rule rule = env.options.rule;
  rule.max_ci_pct = std::min(rule.max_ci_pct, batch_max_ci_pct);
  rule.min_samples = std::max(rule.min_samples, batch_min_samples);
  rule.max_time_s = std::min(rule.max_time_s, batch_max_time_s);
  rule.row_limit_s = std::min(rule.row_limit_s, 2.0);
  stopping_criterion criterion(rule, false);
  sample_run batch;
  if (!run_sample_loop(env, criterion, true, take, batch) || timed_out || batch.samples.empty()) return;
  run.batch_s = median_of(batch.samples);
  run.batch_launches = launches;
  run.batch_samples = std::move(batch.samples);
  run.batch_clocks_mhz = std::move(batch.clocks_mhz);
  run.discarded += batch.discarded;
  run.reasons |= batch.reasons;
}

}  // namespace membench
