// The host's steady clock around a call that returns when its work is done: work the
// GPU's clock cannot see (cudaMalloc, cudaMallocHost, CPU loops). Label timing:host_clock.
#include <algorithm>
#include <chrono>

#include "harness/core/check.hpp"
#include "harness/measure/sample_loop.hpp"

namespace membench {

sample_run measure_host_clock(const measure_env& env, const host_options& ho, const std::function<void()>& call) {
  const bool single = env.options.method == timing_method::single;
  for (int i = 0; i < (single ? 1 : 2); ++i) {
    if (ho.prepare) ho.prepare();
    call();
  }
  sample_run run;
  run.method = env.options.method;
  run.host_clock = true;
  run.calls_per_sample = std::max(ho.calls_per_sample, 1);
  auto take = [&]() -> std::optional<clock_guard::sample> {
    if (ho.prepare) ho.prepare();
    const double t0 = steady_seconds();
    call();
    return clock_guard::sample{seconds_since(t0) / run.calls_per_sample, 0.0};
  };
  // The GPU's clock events say nothing about work on the CPU.
  measure_env host_env = env;
  host_env.nvml = nullptr;
  stopping_criterion criterion(single ? single_sample_rule(env.options.rule) : env.options.rule, true);
  run_sample_loop(host_env, criterion, false, take, run);
  if (single) {
    run.converged = false;
    run.unconverged = "single";
  }
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  return run;
}

}  // namespace membench
