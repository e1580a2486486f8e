#include "runner.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>

#include "check.hpp"
#include "interrupt.hpp"
#include "metrics.hpp"
#include "nvml.hpp"
#include "stats.hpp"
#include "timing.hpp"
#include "verify.hpp"

namespace membench {
namespace {

struct session {
  std::optional<device_info> device;
  timing_options timing;
  double event_overhead_s = 0;  // blocking method: an event pair with nothing between
  std::unique_ptr<stream_blocker> blocker;
  std::unique_ptr<clock_probe> probe;
  std::unique_ptr<nvml_device> nvml;
  std::string nvml_missing;
  nvtxDomainHandle_t nvtx = nullptr;
  std::vector<std::string> not_run;
  std::string timing_fallback;
  std::unique_ptr<l2_flusher> flusher;
  std::unique_ptr<pinned_buffer<std::byte>> staging;
  std::string workspace_key;
  std::type_index workspace_type{typeid(void)};
  std::shared_ptr<void> workspace;
  std::string verified_name;
  std::string poisoned_by;
  session_counts counts;
  std::map<std::string, double> medians;  // every timed row's median: references for ratios
  std::optional<pcie_link> pcie;
  std::string pcie_source;
  std::unique_ptr<metrics_profiler> metrics;
};

session& the_session() {
  static session s;
  return s;
}

constexpr std::size_t staging_bytes = std::size_t{64} << 20;

class interrupted : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Releases a held stream on every path out of a sample, exceptions included.
struct release_on_exit {
  stream_blocker* blocker;
  ~release_on_exit() {
    if (blocker != nullptr) blocker->release();
  }
};

class nvtx_range {
 public:
  nvtx_range(nvtxDomainHandle_t domain, const std::string& name) : domain_(domain) {
    if (domain_ == nullptr) return;
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name.c_str();
    nvtxDomainRangePushEx(domain_, &a);
  }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
  ~nvtx_range() {
    if (domain_ != nullptr) nvtxDomainRangePop(domain_);
  }

 private:
  nvtxDomainHandle_t domain_;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The cost of the timer itself: events around nothing on a held stream (1.3 us on an
// H200). Subtracting it makes blocking-method times the kernel's own duration.
std::optional<double> measure_event_overhead(stream_blocker& blocker) {
  membench::stream st;
  event_timer timer;
  std::vector<double> samples;
  int timeouts = 0;
  for (int i = 0; i < 203; ++i) {
    release_on_exit guard{&blocker};
    blocker.hold(st.get());
    timer.start(st.get());
    timer.stop(st.get());
    blocker.release();
    st.synchronize();
    const double secs = timer.seconds();
    if (blocker.timed_out()) {
      // Launches block the host here (a profiler, CUDA_LAUNCH_BLOCKING): blocking cannot work.
      if (++timeouts == 3) return std::nullopt;
      continue;
    }
    if (i >= 3) samples.push_back(secs);  // 3 warm-ups
  }
  return summarize(samples).median;
}

// A context error that survives cudaGetLastError() is sticky, whatever its code.
bool context_poisoned(cudaError_t seen) {
  if (is_sticky(seen)) return true;
  (void)cudaGetLastError();
  return cudaDeviceSynchronize() != cudaSuccess;
}

}  // namespace

const char* to_string(l2_state l2) noexcept { return l2 == l2_state::cold ? "cold" : "warm"; }

bench_context::bench_context(benchmark::State& state, std::string name) : state_(state), name_(std::move(name)) {}

const device_info& bench_context::device() const { return *the_session().device; }

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

std::shared_ptr<void>& bench_context::workspace_slot(const std::string& key, std::type_index type) {
  session& s = the_session();
  if (s.workspace_key != key || s.workspace_type != type) {
    s.workspace.reset();  // free before the next allocation, never hold both
    s.workspace_key = key;
    s.workspace_type = type;
  }
  return s.workspace;
}

void bench_context::verify_once(const std::function<void()>& check) {
  session& s = the_session();
  if (s.verified_name == name_) return;
  s.verified_name.clear();
  check();
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(stream()));
  s.verified_name = name_;
}

void bench_context::set_counter(const std::string& key, double value) { state_.counters[key] = value; }

namespace {

// --timing=single: one sample, no stopping rule (for ncu and nsys).
constexpr stopping_rule single_rule{.min_samples = 1, .max_noise_pct = 100, .max_time_s = 0};

// One row's samples and what was seen while taking them.
struct sample_run {
  sample_stats stats;
  timing_method method = timing_method::blocking;
  const char* host_clock = nullptr;  ///< set when the host's clock took the samples
  std::string fallback;
  std::vector<double> clocks;
  double lowest_mhz = 0;
  double sampling_s = 0;
  int discarded = 0;
  bool converged = false;
};

// The state a sample starts from: the row's own preparation, then the L2 flush of a cold row.
void prepare_sample(const launch_options& lo, cudaStream_t st) {
  session& s = the_session();
  if (lo.prepare) lo.prepare(st);
  if (lo.l2 == l2_state::cold) {
    if (!s.flusher) s.flusher = std::make_unique<l2_flusher>(s.device->l2_bytes);
    s.flusher->flush(st);
  }
}

// Warm-up, then samples until the stopping rule is met. Shared by timed rows and by the
// untimed measurements behind references and bounds.
sample_run take_samples(const launch_options& lo, const std::function<void(cudaStream_t)>& launch, cudaStream_t own) {
  session& s = the_session();
  const timing_options& opt = s.timing;
  const cudaStream_t st = lo.stream != nullptr ? lo.stream : own;
  const bool single = opt.method == timing_method::single;
  if (!single && !s.probe) s.probe = std::make_unique<clock_probe>();
  // A launch that waits for its own work would deadlock behind the blocking kernel.
  const bool plain = lo.blocks_host || lo.copy_engine;
  timing_method method = opt.method == timing_method::blocking && plain ? timing_method::events : opt.method;
  if (method == timing_method::blocking && !s.blocker) s.blocker = std::make_unique<stream_blocker>(opt.blocking_timeout_s);
  auto prepare = [&] { prepare_sample(lo, st); };

  // Warm-up: module load, TLB and (warm) L2 state stay out of the samples.
  // Synchronised one by one: a host-side prepare must not race the previous launch.
  for (int i = 0; i < (single ? 1 : 2); ++i) {
    prepare();
    launch(st);
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(st));
  }

  const double max_mhz = s.device->sm_clock_khz / 1000.0;
  const double throttle_mhz = max_mhz * opt.throttle_threshold_pct / 100;
  sample_run run;
  run.method = method;
  if (opt.method == timing_method::blocking && plain) run.fallback = lo.blocks_host ? "launch_blocks_host" : "copy_engine";
  sampler samples(single ? single_rule : opt.rule);
  event_timer timer;
  auto t0 = std::chrono::steady_clock::now();
  while (!samples.done(seconds_since(t0))) {
    if (const int sig = interrupted_by())
      throw interrupted(fmt::format("interrupted by signal {} after {} samples", sig, samples.kept()));
    prepare();
    const bool blocking = run.method == timing_method::blocking;
    {
      release_on_exit guard{blocking ? s.blocker.get() : nullptr};
      if (blocking) s.blocker->hold(st);
      timer.start(st);
      launch(st);
      timer.stop(st);
      if (!single) s.probe->record(st);
    }
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(st));
    const double secs = timer.seconds();
    if (blocking && s.blocker->timed_out()) {
      // The launch blocked the host (or a profiler serialised it): time the row plainly,
      // from scratch, so that no sample mixes the two methods.
      run.method = timing_method::events;
      run.fallback = "blocking_timed_out";
      samples = sampler(opt.rule);
      run.clocks.clear();
      run.lowest_mhz = 0;
      t0 = std::chrono::steady_clock::now();
      continue;
    }
    if (!single) {
      const double mhz = s.probe->mhz();
      run.lowest_mhz = run.lowest_mhz == 0 ? mhz : std::min(run.lowest_mhz, mhz);
      if (max_mhz > 0 && mhz < throttle_mhz) {
        samples.discard();
        continue;
      }
      run.clocks.push_back(mhz);
    }
    samples.add(blocking ? std::max(0.0, secs - s.event_overhead_s) : secs);
  }
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  run.sampling_s = seconds_since(t0);
  if (samples.kept() == 0) {
    throw std::runtime_error(fmt::format("all {} samples ran with the SM clock under {:.0f} MHz ({:.0f} % of {:.0f}); lowest {:.0f} MHz",
                                         samples.discarded(), throttle_mhz, opt.throttle_threshold_pct, max_mhz,
                                         run.lowest_mhz));
  }
  run.stats = summarize(samples.samples());
  run.discarded = samples.discarded();
  run.converged = samples.converged();
  if (!(run.stats.median > 0))
    throw std::runtime_error(fmt::format("median sample is {} us after subtracting the event-pair cost ({:.3f} us): "
                                         "below what events resolve; time it with --timing=events",
                                         run.stats.median * 1e6, s.event_overhead_s * 1e6));
  return run;
}

}  // namespace

double bench_context::time_launches(l2_state l2, std::uint64_t bytes_per_launch,
                                    const std::function<void(cudaStream_t)>& launch) {
  launch_options opt;
  opt.l2 = l2;
  return time_launches(opt, bytes_per_launch, launch);
}

double bench_context::measure(const launch_options& opt, const std::function<void(cudaStream_t)>& launch) {
  return take_samples(opt, launch, stream()).stats.median;
}

double bench_context::reference_seconds(const std::string& reference, const launch_options& opt,
                                        const std::function<void(cudaStream_t)>& launch) {
  session& s = the_session();
  if (auto it = s.medians.find(reference); it != s.medians.end()) return it->second;
  const double median = measure(opt, launch);
  s.medians[reference] = median;
  return median;
}

const std::optional<pcie_link>& bench_context::pcie() const { return the_session().pcie; }

namespace {

// Host-clock samples of `call`, under the same warm-up and stopping rule as take_samples.
sample_run take_host_samples(const host_options& ho, const std::function<void()>& call) {
  const timing_options& opt = the_session().timing;
  const bool single = opt.method == timing_method::single;
  for (int i = 0; i < (single ? 1 : 2); ++i) {
    if (ho.prepare) ho.prepare();
    call();
  }
  sample_run run;
  run.host_clock = "host_clock";
  sampler samples(single ? single_rule : opt.rule);
  const auto t0 = std::chrono::steady_clock::now();
  while (!samples.done(seconds_since(t0))) {
    if (const int sig = interrupted_by())
      throw interrupted(fmt::format("interrupted by signal {} after {} samples", sig, samples.kept()));
    if (ho.prepare) ho.prepare();
    const auto start = std::chrono::steady_clock::now();
    call();
    samples.add(seconds_since(start));
  }
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  run.sampling_s = seconds_since(t0);
  run.stats = summarize(samples.samples());
  run.converged = samples.converged();
  return run;
}

double report_row(benchmark::State& state, const std::string& name, std::string& label, const launch_options& lo,
                  std::uint64_t bytes_per_launch, const std::function<sample_run()>& sample);

}  // namespace

double bench_context::time_host(const host_options& opt, std::uint64_t bytes_per_call,
                                const std::function<void()>& call) {
  launch_options lo;
  lo.report_pct_peak = false;
  return report_row(state_, name_, label_, lo, bytes_per_call, [&] { return take_host_samples(opt, call); });
}

double bench_context::reference_host_seconds(const std::string& reference, const std::function<void()>& call) {
  session& s = the_session();
  if (auto it = s.medians.find(reference); it != s.medians.end()) return it->second;
  const double median = take_host_samples(host_options{}, call).stats.median;
  s.medians[reference] = median;
  return median;
}

double bench_context::time_launches(const launch_options& lo, std::uint64_t bytes_per_launch,
                                    const std::function<void(cudaStream_t)>& launch) {
  const double median =
      report_row(state_, name_, label_, lo, bytes_per_launch, [&] { return take_samples(lo, launch, stream()); });
  profile_metrics(lo, launch);
  return median;
}

void bench_context::profile_metrics(const launch_options& lo, const std::function<void(cudaStream_t)>& launch) {
  session& s = the_session();
  if (!s.metrics) return;
  std::string token;
  if (lo.copy_engine || lo.blocks_host) {
    token = "metrics:none(not_a_kernel_row)";  // copies and host calls: no SM counters to read
  } else if (!s.metrics->unavailable()) {
    const cudaStream_t st = lo.stream != nullptr ? lo.stream : stream();
    auto prepare = [&] { prepare_sample(lo, st); };
    std::vector<std::pair<std::string, double>> values;
    try {
      s.metrics->profile(prepare, [&] { launch(st); }, values);
      for (const auto& [k, v] : metric_counters(values)) state_.counters[k] = v;
      state_.counters["metrics_passes"] = static_cast<double>(s.metrics->passes());
      state_.counters["metrics_kernels"] = static_cast<double>(s.metrics->kernels());
      if (s.metrics->kernels() > 1) token = fmt::format("metrics:sums_only({}_kernels)", s.metrics->kernels());
    } catch (const cuda_error&) {
      throw;  // the launch itself failed: an error row like any other
    } catch (const std::exception& e) {
      std::fprintf(stderr, "membench: metrics of %s: %s\n", name_.c_str(), e.what());
      token = metrics_unavailable_token(e.what());
    }
  }
  if (s.metrics->unavailable()) token = metrics_unavailable_token(*s.metrics->unavailable());
  if (!token.empty()) state_.SetLabel(label_ += " " + token);
}

namespace {

// Samples a row, then sets its time, counters and label.
double report_row(benchmark::State& state, const std::string& name, std::string& label, const launch_options& lo,
                  std::uint64_t bytes_per_launch, const std::function<sample_run()>& sample) {
  session& s = the_session();
  const std::optional<gpu_snapshot> before = s.nvml ? s.nvml->read() : std::nullopt;
  const sample_run run = sample();
  const std::optional<gpu_snapshot> after = s.nvml ? s.nvml->read() : std::nullopt;
  const sample_stats& stats = run.stats;
  for (auto _ : state) state.SetIterationTime(stats.median);  // one iteration: see main.cpp
  s.medians[name] = stats.median;

  const double bytes = static_cast<double>(bytes_per_launch);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes_per_launch) * state.iterations());
  auto& c = state.counters;
  c["bytes"] = bytes;
  c["samples"] = static_cast<double>(stats.count);
  c["throttled_samples"] = run.discarded;
  c["converged"] = run.converged ? 1 : 0;
  c["sampling_s"] = run.sampling_s;
  c["t_min_us"] = stats.min * 1e6;
  c["t_median_us"] = stats.median * 1e6;
  c["t_mean_us"] = stats.mean * 1e6;
  c["t_max_us"] = stats.max * 1e6;
  c["noise_pct"] = stats.noise * 100;
  if (run.method == timing_method::blocking && run.host_clock == nullptr) c["event_overhead_us"] = s.event_overhead_s * 1e6;
  if (!run.clocks.empty()) {
    c["sm_clock_mhz"] = summarize(run.clocks).median;
    c["sm_clock_min_mhz"] = run.lowest_mhz;
  }
  const double gbps = bytes / stats.median / 1e9;
  c["gb_per_s"] = gbps;
  // A named ceiling the system does not report (a VM hiding its PCIe link) gives no percentage.
  const double peak = lo.peak_name != nullptr ? lo.peak_gbps : s.device->peak_dram_gbps();
  if (peak > 0 && lo.report_pct_peak) c["pct_peak"] = 100 * gbps / peak;
  label = fmt::format("timing:{}", run.host_clock != nullptr ? run.host_clock : to_string(run.method));
  if (!run.fallback.empty()) label += fmt::format(" fallback:{}", run.fallback);
  if (lo.peak_name != nullptr) label += fmt::format(" peak:{}", lo.peak_name);
  if (before && after) {
    c["power_w"] = std::max(before->power_w, after->power_w);
    c["temp_c"] = std::max(before->temp_c, after->temp_c);
    c["nvml_sm_clock_mhz"] = after->sm_mhz;
    const std::uint64_t reasons = (before->reasons | after->reasons) & ~clock_reason::gpu_idle;
    c["clock_reasons"] = static_cast<double>(reasons);
    if (reasons & clock_reason::throttling) label += fmt::format(" throttle:{}", describe_clock_reasons(reasons));
  }
  state.SetLabel(label);
  return stats.median;
}

}  // namespace

void run_benchmark(benchmark::State& state, const std::string& name,
                   const std::function<void(bench_context&)>& body) {
  session& s = the_session();
  auto fail = [&](const std::string& msg) {
    ++s.counts.failed;
    state.SkipWithError(msg.c_str());
  };
  if (!s.device) return fail("not run: no CUDA device session");
  if (const int sig = interrupted_by()) return fail(fmt::format("not run: interrupted by signal {}", sig));
  if (!s.poisoned_by.empty()) {
    // The culprit's own later repetitions are not "not run": rerunning them would fault again.
    const bool culprit = s.poisoned_by.rfind(name + " (", 0) == 0;
    if (!culprit && std::find(s.not_run.begin(), s.not_run.end(), name) == s.not_run.end()) s.not_run.push_back(name);
    return fail(fmt::format("not run: CUDA context poisoned earlier by {}", s.poisoned_by));
  }
  nvtx_range range(s.nvtx, name);
  try {
    bench_context ctx(state, name);
    body(ctx);
  } catch (const interrupted& e) {
    fail(e.what());
  } catch (const infeasible& e) {
    ++s.counts.skipped;
    state.SkipWithError(fmt::format("skipped: {}", e.what()).c_str());
  } catch (const verification_error& e) {
    fail(fmt::format("verification failed: {}", e.what()));
  } catch (const cuda_error& e) {
    if (context_poisoned(e.code())) {
      s.poisoned_by = fmt::format("{} ({})", name, cudaGetErrorName(e.code()));
      s.workspace.reset();
      s.flusher.reset();
      s.blocker.reset();
      s.probe.reset();
      std::fprintf(stderr, "membench: %s poisoned the CUDA context; later benchmarks will not run\n", name.c_str());
    }
    fail(fmt::format("CUDA error: {}", e.what()));
  } catch (const std::exception& e) {
    fail(fmt::format("error: {}", e.what()));
  }
}

std::span<std::byte> staging_buffer() {
  session& s = the_session();
  if (!s.staging) s.staging = std::make_unique<pinned_buffer<std::byte>>(staging_bytes);
  return {s.staging->data(), s.staging->size()};
}

void throw_mismatch(const char* what, std::size_t index, const std::string& got, const std::string& expected,
                    std::size_t mismatches, std::size_t count) {
  throw verification_error(fmt::format("{}: element {} is {}, expected {} ({} mismatches in the first {} checked)",
                                       what, index, got, expected, mismatches, count));
}

std::uint32_t sum_device_words(cudaStream_t s, const std::uint32_t* dev, std::size_t count) {
  std::vector<std::uint32_t> host(count);
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(host.data(), dev, count * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s));
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
  std::uint32_t sum = 0;
  for (std::uint32_t v : host) sum += v;
  return sum;
}

void verify_checksum(std::uint64_t got, std::uint64_t expected, const char* what) {
  if (got != expected) {
    throw verification_error(fmt::format("{}: checksum {:#x}, expected {:#x}", what, got, expected));
  }
}

const char* to_string(timing_method m) noexcept {
  switch (m) {
    case timing_method::blocking: return "blocking";
    case timing_method::events: return "events";
    case timing_method::single: return "single";
  }
  return "?";
}

std::optional<timing_method> parse_timing_method(std::string_view s) noexcept {
  for (timing_method m : {timing_method::blocking, timing_method::events, timing_method::single}) {
    if (s == to_string(m)) return m;
  }
  return std::nullopt;
}

void session_open(const device_info& device, const timing_options& timing) {
  session& s = the_session();
  s.device = device;
  s.timing = timing;
  s.nvtx = nvtxDomainCreateA("membench");
  s.nvml = nvml_device::open(device.pci_bus_id, s.nvml_missing);
  // The host-device ceiling. NVML's maximum is what the device and slot allow; an idle
  // link may have trained down, and virtual machines often hide sysfs ("Unknown").
  const std::optional<nvml_pcie> np = s.nvml ? s.nvml->pcie() : std::nullopt;
  if (np) s.pcie = pcie_link_of(np->max_generation, np->max_width);
  if (s.pcie) {
    s.pcie_source = fmt::format("nvml maximum; now gen{} x{}", np->current_generation, np->current_width);
  } else if ((s.pcie = read_pcie_link(device.pci_bus_id))) {
    s.pcie_source = "sysfs current link";
  }
  if (!timing.metrics.empty()) {
    s.metrics = std::make_unique<metrics_profiler>(device.index, timing.metrics);
    if (s.metrics->unavailable())
      std::fprintf(stderr, "membench: metrics unavailable: %s; rows are timed without them\n",
                   s.metrics->unavailable()->c_str());
  }
  if (timing.method == timing_method::blocking) {
    s.blocker = std::make_unique<stream_blocker>(timing.blocking_timeout_s);
    if (const auto overhead = measure_event_overhead(*s.blocker)) {
      s.event_overhead_s = *overhead;
    } else {
      s.timing.method = timing_method::events;
      s.blocker.reset();
      s.timing_fallback = "the blocking kernel timed out at start-up: launches block the host (a profiler? "
                          "CUDA_LAUNCH_BLOCKING?); every row uses plain events";
      std::fprintf(stderr, "membench: %s\n", s.timing_fallback.c_str());
    }
  }
}

std::vector<std::pair<std::string, std::string>> session_context() {
  const session& s = the_session();
  const timing_options& t = s.timing;
  std::vector<std::pair<std::string, std::string>> out{
      {"membench_timing", to_string(t.method)},
      {"membench_min_samples", fmt::format("{}", t.rule.min_samples)},
      {"membench_max_noise_pct", fmt::format("{}", t.rule.max_noise_pct)},
      {"membench_max_time_s", fmt::format("{}", t.rule.max_time_s)},
      {"membench_min_time_s", fmt::format("{}", t.rule.min_time_s)},
      {"membench_throttle_threshold_pct", fmt::format("{}", t.throttle_threshold_pct)},
  };
  if (t.method == timing_method::blocking)
    out.emplace_back("membench_event_overhead_us", fmt::format("{:.3f}", s.event_overhead_s * 1e6));
  if (!s.timing_fallback.empty()) out.emplace_back("membench_timing_fallback", s.timing_fallback);
  if (s.metrics) {
    std::string list;
    for (const auto& m : s.metrics->metrics()) list += (list.empty() ? "" : ",") + m;
    out.emplace_back("membench_metrics", list);
    if (!s.metrics->rejected().empty()) {
      std::string rejected;
      for (const auto& m : s.metrics->rejected()) rejected += (rejected.empty() ? "" : ",") + m;
      out.emplace_back("membench_metrics_rejected", rejected);
    }
    out.emplace_back("membench_metrics_status",
                     s.metrics->unavailable() ? fmt::format("unavailable: {}", *s.metrics->unavailable())
                                              : fmt::format("CUPTI range profiler, chip {}, {} passes per row, one range per "
                                                            "kernel, user replay of the row's launch after its timing",
                                                            s.metrics->chip(), s.metrics->passes()));
  }
  // Hardware queues behind the streams (8 unless raised): bounds multi-stream overlap.
  const char* connections = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
  out.emplace_back("cuda_device_max_connections", connections != nullptr ? connections : "unset (8)");
  if (s.pcie) {
    out.emplace_back("pcie_link", fmt::format("{} ({})", s.pcie->str(), s.pcie_source));
    out.emplace_back("pcie_peak_gbps", fmt::format("{:.1f}", s.pcie->gbps()));
  } else {
    out.emplace_back("pcie_link", "unknown (neither NVML nor sysfs gives the link generation and width)");
  }
  if (s.nvml) {
    for (auto& kv : s.nvml->context()) out.push_back(std::move(kv));
  } else {
    out.emplace_back("nvml", fmt::format("unavailable: {}", s.nvml_missing));
  }
  return out;
}

void session_close() noexcept {
  session& s = the_session();
  s.workspace.reset();
  s.flusher.reset();
  s.blocker.reset();
  s.probe.reset();
  s.nvml.reset();
  s.metrics.reset();
  s.staging.reset();
  s.device.reset();
  s.medians.clear();
}

session_counts session_result() noexcept { return the_session().counts; }
const std::vector<std::string>& session_not_run() noexcept { return the_session().not_run; }
const std::string& session_poisoned_by() noexcept { return the_session().poisoned_by; }

}  // namespace membench
