#include "sample_loop.hpp"

#include <chrono>

#include <fmt/format.h>

#include "harness/process/interrupt.hpp"

namespace membench {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double seconds_since(double t0) { return steady_seconds() - t0; }

stopping_rule single_sample_rule(const stopping_rule& rule) {
  stopping_rule r = rule;
  r.min_samples = 1;
  r.max_time_s = r.max_time_host_s = r.row_limit_s = 0;
  return r;
}

bool run_sample_loop(const measure_env& env, stopping_criterion& criterion, bool judge_sm_clock,
                     const take_sample& take, sample_run& run) {
  clock_guard guard(env.options.clocks, env.reference_mhz, env.nvml, judge_sm_clock);
  std::vector<clock_guard::sample> kept;
  int dropped = 0;
  auto commit = [&] {
    for (const auto& s : kept) {
      criterion.add(s.seconds);
      run.clocks_mhz.push_back(s.mhz);
    }
    kept.clear();
    for (; dropped > 0; --dropped) criterion.discard();
  };
  const double t0 = steady_seconds();
  while (!criterion.done(seconds_since(t0))) {
    if (const int sig = interrupted_by())
      throw interrupted(fmt::format("interrupted by signal {} after {} samples", sig, criterion.kept()));
    guard.before_sample();
    const auto s = take();
    if (!s) return false;
    guard.offer(*s, kept, dropped);
    commit();
  }
  guard.settle(kept, dropped);
  commit();
  run.samples = criterion.samples();
  run.discarded = criterion.discarded();
  run.reasons = guard.reasons_seen();
  run.sampling_s = seconds_since(t0);
  run.ci_target_pct = criterion.target_pct();
  run.unconverged = criterion.unconverged_reason();
  run.converged = run.unconverged.empty();
  return true;
}

}  // namespace membench
