#include "row.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "common/stats.hpp"
#include "harness/measure/stopping.hpp"
#include "harness/process/devices.hpp"

namespace membench {
namespace {

void set(benchmark::State& state, const schema::field& key, double value) {
  state.counters[std::string(key.key)] = value;
}

double median_clock_mhz(const std::vector<double>& clocks_mhz) {
  std::vector<double> measured;
  for (double mhz : clocks_mhz) {
    if (mhz > 0) measured.push_back(mhz);
  }
  return measured.empty() ? 0 : median_of(measured);
}

// The batch figure with its own samples and interval, as the row's (median_ci at the run's level).
void write_batch(benchmark::State& state, const sample_run& run, double ci_level) {
  using schema::counter;
  if (!run.batch_s) return;
  set(state, counter("batch_us"), *run.batch_s * 1e6);
  set(state, counter("batch_launches"), run.batch_launches);
  if (run.batch_samples.empty()) return;
  const sample_stats stats = summarize(run.batch_samples);
  const median_interval ci = median_ci(run.batch_samples, ci_level);
  set(state, counter("batch_ci_low_us"), ci.low * 1e6);
  set(state, counter("batch_ci_high_us"), ci.high * 1e6);
  set(state, counter("batch_samples"), static_cast<double>(stats.count));
  set(state, counter("batch_noise_pct"), stats.noise * 100);
  if (const double mhz = median_clock_mhz(run.batch_clocks_mhz); mhz > 0) set(state, counter("batch_sm_clock_mhz"), mhz);
}

}  // namespace

std::string write_row(benchmark::State& state, const device_info& device, const row_inputs& in) {
  using schema::counter;
  const sample_run& run = in.run;
  const sample_stats stats = summarize(run.samples);
  for (auto _ : state) state.SetIterationTime(stats.median);  // one iteration: see main.cpp
  state.SetBytesProcessed(static_cast<std::int64_t>(in.bytes) * state.iterations());
  const median_interval ci = median_ci(run.samples, in.ci_level);
  set(state, counter("bytes"), static_cast<double>(in.bytes));
  set(state, counter("samples"), static_cast<double>(stats.count));
  set(state, counter("throttled_samples"), run.discarded);
  set(state, counter("converged"), run.converged ? 1 : 0);
  set(state, counter("sampling_s"), run.sampling_s);
  set(state, counter("wall_s"), in.wall_s);
  set(state, counter("t_min_us"), stats.min * 1e6);
  set(state, counter("t_median_us"), stats.median * 1e6);
  set(state, counter("t_mean_us"), stats.mean * 1e6);
  set(state, counter("t_max_us"), stats.max * 1e6);
  set(state, counter("ci_low_us"), ci.low * 1e6);
  set(state, counter("ci_high_us"), ci.high * 1e6);
  const double half = stopping_criterion::half_width_pct(ci, stats.median);
  if (std::isfinite(half)) set(state, counter("ci_pct"), half);
  set(state, counter("ci_target_pct"), run.ci_target_pct);
  set(state, counter("noise_pct"), stats.noise * 100);
  if (run.method == timing_method::blocking && !run.host_clock)
    set(state, counter("event_overhead_us"), run.event_overhead_s * 1e6);
  write_batch(state, run, in.ci_level);
  if (run.calls_per_sample > 1) set(state, counter("calls_per_sample"), run.calls_per_sample);
  std::vector<double> clocks;
  for (double mhz : run.clocks_mhz) {
    if (mhz > 0) clocks.push_back(mhz);
  }
  if (!clocks.empty()) {
    set(state, counter("sm_clock_mhz"), median_of(clocks));
    set(state, counter("sm_clock_min_mhz"), *std::min_element(clocks.begin(), clocks.end()));
    set(state, counter("sm_clock_max_mhz"), *std::max_element(clocks.begin(), clocks.end()));
  }
  const double gbps = static_cast<double>(in.bytes) / stats.median / 1e9;
  set(state, counter("gb_per_s"), gbps);
  // A named ceiling the system does not report (a VM hiding its PCIe link) gives no percentage.
  const launch_options& lo = in.launch;
  const double peak = lo.peak_name != nullptr ? lo.peak_gbps : device.peak_dram_gbps();
  if (peak > 0 && lo.report_pct_peak) set(state, counter("pct_peak"), 100 * gbps / peak);

  std::string label = fmt::format("{}:{}", schema::label("timing").key,
                                  run.host_clock ? "host_clock" : to_string(run.method));
  if (!run.fallback.empty()) label += fmt::format(" {}:{}", schema::label("fallback").key, run.fallback);
  if (lo.peak_name != nullptr) label += fmt::format(" {}:{}", schema::label("peak").key, lo.peak_name);
  const char* work = run.host_clock || lo.host_row() ? "host" : lo.copy_engine ? "copy" : "kernel";
  label += fmt::format(" {}:{}", schema::label("work").key, work);
  // Host work and copies share the host's memory and PCIe with the other GPUs' processes.
  if (const int others = concurrent_devices(); others > 1 && work[0] != 'k')
    label += fmt::format(" {}:{}", schema::label("concurrent").key, others);
  std::uint64_t reasons = run.reasons;
  if (in.before && in.after) {
    set(state, counter("power_w"), std::max(in.before->power_w, in.after->power_w));
    set(state, counter("temp_c"), std::max(in.before->temp_c, in.after->temp_c));
    set(state, counter("nvml_sm_clock_mhz"), in.after->sm_mhz);
    reasons |= (in.before->reasons | in.after->reasons) & ~clock_reason::gpu_idle;
    set(state, counter("clock_reasons"), static_cast<double>(reasons));
  }
  if (reasons & clock_reason::throttling)
    label += fmt::format(" {}:{}", schema::label("throttle").key, describe_clock_reasons(reasons & clock_reason::throttling));
  if (!run.converged) label += fmt::format(" {}:{}", schema::label("unconverged").key, run.unconverged);
  if (run.timer_floor) label += fmt::format(" {}:timer", schema::label("floor").key);
  state.SetLabel(label);
  return label;
}

}  // namespace membench
