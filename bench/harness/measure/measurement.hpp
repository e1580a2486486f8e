// Measurement strategies, one per file as in nvbench: blocking.cpp (the default),
// events.cpp (plain events, and the single launch for profilers), host_clock.cpp (the host's
// steady clock), batch.cpp (back-to-back launches of a short kernel). Each is configured from
// the environment the session hands it and returns the row's samples; none reports anything.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "harness/measure/launch.hpp"
#include "harness/options/options.hpp"

namespace membench {

class stream_blocker;
class clock_probe;
class nvml_device;

/// Sampling stopped because a signal asked the run to stop.
class interrupted : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One row's samples and what was seen while taking them.
struct sample_run {
  std::vector<double> samples;     ///< kept, seconds
  std::vector<double> clocks_mhz;  ///< SM clock after each kept sample (kernel rows)
  int discarded = 0;               ///< thrown away for their clock, and re-taken
  std::uint64_t reasons = 0;       ///< NVML clock-event reasons seen while sampling
  double sampling_s = 0;
  bool converged = false;
  std::string unconverged;         ///< why not: budget, throttled, row_limit, single
  double ci_target_pct = 0;
  timing_method method = timing_method::blocking;
  bool host_clock = false;
  std::string fallback;            ///< why the row is not timed with blocking
  double event_overhead_s = 0;     ///< subtracted from each sample (blocking)
  std::optional<double> batch_s;   ///< per launch, back to back (short kernel rows): median of batch_samples
  int batch_launches = 0;
  std::vector<double> batch_samples;     ///< kept batches, each its time per launch, seconds
  std::vector<double> batch_clocks_mhz;  ///< SM clock after each kept batch
  bool timer_floor = false;  ///< the samples do not resolve the work (timer_floor.hpp)
  int calls_per_sample = 1;  ///< calls one sample timed; the samples are per call
};

/// What the session hands every strategy.
struct measure_env {
  const run_options& options;
  stream_blocker* blocker = nullptr;  ///< null: the blocking method is unavailable
  clock_probe* probe = nullptr;       ///< null: clocks are not measured
  const nvml_device* nvml = nullptr;
  double reference_mhz = 0;           ///< the clock samples are judged against
  double event_overhead_s = 0;        ///< what blocking subtracts
  double event_spread_s = 0;          ///< its spread (90th minus 10th percentile)
  double timer_resolution_s = 0;      ///< the event timer's step; 0: not measured
  std::function<void(cudaStream_t)> flush_l2;
};

/// The strategy for a row of launches, by the options and what the launch is: blocking,
/// or plain events where the launch blocks the host or runs on a copy engine, or single;
/// then, for short kernel rows, the batch measurement. throws cuda_error, interrupted
sample_run measure_launch(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t own);

/// Host-clock samples of `call`, each divided by ho.calls_per_sample, under the same warm-up and stopping rule. throws interrupted
sample_run measure_host_clock(const measure_env& env, const host_options& ho, const std::function<void()>& call);

// The strategies measure_launch chooses between.
sample_run measure_blocking(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t st);
sample_run measure_events(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t st);
sample_run measure_single(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t st);
/// Fills run's batch_* members (needs the blocker; no-op without it).
void measure_batch(const measure_env& env, const launch_options& lo, const launch_fn& launch, cudaStream_t st,
                   sample_run& run);

}  // namespace membench
