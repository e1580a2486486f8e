// The loop every strategy shares: samples until the stopping criterion says so, each one
// judged by the clock guard, with interrupt checks. Internal to measure/.
#pragma once

#include <functional>
#include <optional>

#include "harness/measure/clock_guard.hpp"
#include "harness/measure/measurement.hpp"
#include "harness/measure/stopping.hpp"

namespace membench {

/// One sample: its seconds and the SM clock after it (0: not measured); null when the
/// method cannot go on (the blocker timed out) and the row must start again another way.
using take_sample = std::function<std::optional<clock_guard::sample>()>;

/// Runs `take` until `criterion` is done. Returns false when `take` gave up. Fills
/// run.samples, clocks_mhz, discarded, reasons, sampling_s, converged, unconverged,
/// ci_target_pct. throws interrupted
bool run_sample_loop(const measure_env& env, stopping_criterion& criterion, bool judge_sm_clock,
                     const take_sample& take, sample_run& run);

/// The stopping rule of --timing=single: one sample.
stopping_rule single_sample_rule(const stopping_rule& rule);

/// Whole seconds since `t0` on the steady clock.
double seconds_since(double t0);
double steady_seconds();

}  // namespace membench
