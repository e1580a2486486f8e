#include "context.hpp"

#include <cstdio>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "harness/core/check.hpp"
#include "harness/device/metrics.hpp"
#include "harness/device/nvml.hpp"
#include "harness/measure/sample_loop.hpp"
#include "harness/session/row.hpp"

namespace membench {

const char* to_string(l2_state l2) noexcept { return l2 == l2_state::cold ? "cold" : "warm"; }

bench_context::bench_context(session& s, benchmark::State& state, std::string name)
    : session_(s), state_(state), name_(std::move(name)), parsed_(parse_name(name_)), started_s_(steady_seconds()) {}

bench_context::~bench_context() = default;

std::string bench_context::param(std::string_view key) const { return parsed_.get(key).value_or(""); }

const device_info& bench_context::device() const { return moved_device_ != nullptr ? *moved_device_ : session_.device(); }

void bench_context::move_to(int index) {
  if (index == device().index) return;
  if (moved_device_ != nullptr) throw std::logic_error("membench: a row moves to another device once, first");
  const device_info& info = session_.device_of(index);
  stream_.synchronize();
  moved_scope_ = std::make_unique<device_scope>(index);
  moved_stream_.emplace();
  moved_device_ = &info;
}

std::string bench_context::workspace_key(std::initializer_list<std::string_view> keys) const {
  std::string key = parsed_.space;
  for (std::string_view k : keys) key += fmt::format("/{}:{}", k, param(k));
  return key;
}

void bench_context::require_device_bytes(std::uint64_t bytes) const {
  std::size_t free_bytes = 0, total = 0;
  MEMBENCH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  if (bytes > free_bytes) {
    constexpr double gib = 1024.0 * 1024.0 * 1024.0;
    throw infeasible(fmt::format("needs {:.2f} GiB of device memory, {:.2f} GiB of {:.2f} GiB free",
                                 static_cast<double>(bytes) / gib, static_cast<double>(free_bytes) / gib,
                                 static_cast<double>(total) / gib));
  }
}

void bench_context::verify_once(const std::function<void()>& check) {
  if (session_.verified(name_)) return;
  session_.set_verified("");
  check();
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
  session_.set_verified(name_);
}

double bench_context::verify_and_time(const launch_options& opt, std::uint64_t bytes_per_launch, const launch_fn& launch,
                                      const output_check& check) {
  verify_once([&] {
    if (check.poison) check.poison(stream());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
    const cudaStream_t st = opt.stream != nullptr ? opt.stream : stream();
    launch(st);
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    // Another stream (the legacy one of a synchronous call) does not order with ours.
    MEMBENCH_CUDA_CHECK(st == stream() ? cudaStreamSynchronize(st) : cudaDeviceSynchronize());
    check.verify();
  });
  return time_launches(opt, bytes_per_launch, launch);
}

double bench_context::verify_and_time(l2_state l2, std::uint64_t bytes_per_launch, const launch_fn& launch,
                                      const output_check& check) {
  launch_options opt;
  opt.l2 = l2;
  return verify_and_time(opt, bytes_per_launch, launch, check);
}

double bench_context::report(const launch_options& opt, std::uint64_t bytes, const std::function<sample_run()>& sample) {
  const nvml_device* nvml = session_.nvml_of(device().index);
  const std::optional<gpu_snapshot> before = nvml != nullptr ? nvml->read() : std::nullopt;
  const sample_run run = sample();
  const std::optional<gpu_snapshot> after = nvml != nullptr ? nvml->read() : std::nullopt;
  if (run.samples.empty())
    throw std::runtime_error(fmt::format("no clean sample: all {} samples were taken under a clock event or below "
                                         "{:.0f} % of the run's reference SM clock",
                                         run.discarded, session_.options().clocks.threshold_pct));
  row_inputs in{opt, bytes, run, before, after, seconds_since(started_s_), session_.options().rule.ci_level_pct / 100};
  label_ = write_row(state_, device(), in);
  const double median = median_of(run.samples);
  session_.medians()[name_] = median;
  session_.keep_samples(name_, run.samples, run.batch_samples);
  return median;
}

double bench_context::time_launches(const launch_options& opt, std::uint64_t bytes_per_launch, const launch_fn& launch) {
  const measure_env env = session_.environment();
  const double median = report(opt, bytes_per_launch, [&] { return measure_launch(env, opt, launch, stream()); });
  profile_metrics(opt, launch);
  return median;
}

double bench_context::time_launches(l2_state l2, std::uint64_t bytes_per_launch, const launch_fn& launch) {
  launch_options opt;
  opt.l2 = l2;
  return time_launches(opt, bytes_per_launch, launch);
}

double bench_context::time_host(const host_options& opt, std::uint64_t bytes_per_call, const std::function<void()>& call) {
  launch_options lo;
  lo.report_pct_peak = false;
  const measure_env env = session_.environment();
  return report(lo, bytes_per_call, [&] { return measure_host_clock(env, opt, call); });
}

double bench_context::measure(const launch_options& opt, const launch_fn& launch) {
  const measure_env env = session_.environment();
  return median_of(measure_launch(env, opt, launch, stream()).samples);
}

double bench_context::reference_seconds(const std::string& reference, const launch_options& opt, const launch_fn& launch) {
  auto& medians = session_.medians();
  if (auto it = medians.find(reference); it != medians.end()) return it->second;
  const double median = measure(opt, launch);
  medians[reference] = median;
  return median;
}

double bench_context::reference_host_seconds(const std::string& reference, const std::function<void()>& call) {
  auto& medians = session_.medians();
  if (auto it = medians.find(reference); it != medians.end()) return it->second;
  const measure_env env = session_.environment();
  const double median = median_of(measure_host_clock(env, host_options{}, call).samples);
  medians[reference] = median;
  return median;
}

void bench_context::set_counter(const schema::field& counter, double value) {
  state_.counters[std::string(counter.key)] = value;
}

double bench_context::counter(const schema::field& counter) const {
  const auto it = state_.counters.find(std::string(counter.key));
  return it == state_.counters.end() ? std::numeric_limits<double>::quiet_NaN() : it->second.value;
}

void bench_context::profile_metrics(const launch_options& lo, const launch_fn& launch) {
  metrics_profiler* metrics = session_.profiler();
  if (metrics == nullptr) return;
  std::string token;
  if (!lo.kernel_row()) {
    token = "metrics:none(not_a_kernel_row)";  // copies and host calls: no SM counters to read
  } else if (moved_device_ != nullptr) {
    token = metrics_unavailable_token(fmt::format("the profiler is on device {}", session_.device().index));
  } else if (!metrics->unavailable()) {
    const cudaStream_t st = lo.stream != nullptr ? lo.stream : stream();
    const measure_env env = session_.environment();
    auto prepare = [&] {
      if (lo.prepare) lo.prepare(st);
      if (lo.l2 == l2_state::cold) env.flush_l2(st);
      if (lo.profile_prepare) lo.profile_prepare(st);
    };
    std::vector<std::pair<std::string, double>> values;
    try {
      metrics->profile(prepare, [&] { launch(st); }, values);
      for (const auto& [k, v] : metric_counters(values)) state_.counters[k] = v;
      set_counter(schema::counter("metrics_passes"), static_cast<double>(metrics->passes()));
      set_counter(schema::counter("metrics_kernels"), static_cast<double>(metrics->kernels()));
      if (metrics->kernels() > 1) token = fmt::format("metrics:sums_only({}_kernels)", metrics->kernels());
    } catch (const cuda_error&) {
      throw;  // the launch itself failed: an error row like any other
    } catch (const std::exception& e) {
      std::fprintf(stderr, "membench: metrics of %s: %s\n", name_.c_str(), e.what());
      token = metrics_unavailable_token(e.what());
    }
  }
  if (metrics->unavailable()) token = metrics_unavailable_token(*metrics->unavailable());
  if (!token.empty()) state_.SetLabel(label_ += " " + token);
}

}  // namespace membench
