// The benchmark boundary and the one measurement shape every benchmark uses:
// resolve and check feasibility, allocate (cached), verify once, warm up, time with
// CUDA events on the benchmark's own stream, report counters.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include "device_info.hpp"
#include "pcie.hpp"
#include "resources.hpp"
#include "sampling.hpp"

namespace membench {

enum class l2_state { cold, warm };
const char* to_string(l2_state l2) noexcept;

/// How a row's samples are timed; every row names its method in its label.
enum class timing_method {
  blocking,  ///< stream held by a blocking kernel while the launch is queued; event-pair cost subtracted
  events,    ///< events around a plain launch: includes host launch latency
  single,    ///< one warm-up, one launch, no stopping rule: for ncu and nsys
};
const char* to_string(timing_method m) noexcept;
/// "blocking", "events" or "single"; null for anything else.
std::optional<timing_method> parse_timing_method(std::string_view s) noexcept;

struct timing_options {
  timing_method method = timing_method::blocking;
  stopping_rule rule;
  double throttle_threshold_pct = 75;  ///< samples below this % of the max SM clock are discarded
  double blocking_timeout_s = 0.5;
  /// CUPTI metrics profiled after each kernel row is timed (--metrics); empty: none.
  std::vector<std::string> metrics;
};

/// How one row's launches are sampled. The defaults fit a kernel on the benchmark's stream.
struct launch_options {
  l2_state l2 = l2_state::cold;
  /// The launch returns only when its work is done (pageable copies, synchronous APIs):
  /// the blocking kernel would deadlock, so the row is timed with plain events.
  bool blocks_host = false;
  /// The work runs on a copy engine. The blocking kernel would add the hand-off from the SMs
  /// to the copy engine to every sample, which the event-pair cost (measured on the SMs)
  /// does not remove: the row is timed with plain events.
  bool copy_engine = false;
  /// Where the events, flush and launch go; null = the benchmark's stream. Synchronous
  /// APIs (cudaMemcpy, cudaMemcpyToSymbol) run on the legacy stream: pass cudaStreamLegacy.
  cudaStream_t stream = nullptr;
  /// Runs before every warm-up and sample, outside the timed region: restores the state a
  /// sample must start from (pages migrated back to the host, ...).
  std::function<void(cudaStream_t)> prepare;
  /// The ceiling `pct_peak` refers to (GB/s) and its name in the label (`peak:pcie`).
  /// No name: the device's theoretical DRAM bandwidth. A name with 0 GB/s (the system does
  /// not say): no pct_peak.
  double peak_gbps = 0;
  const char* peak_name = nullptr;
  /// False for rows no memory ceiling describes (shared memory, registers, L1): no pct_peak.
  bool report_pct_peak = true;
};

/// How a host-timed row is sampled (allocation calls, CPU loops).
struct host_options {
  /// Runs before every warm-up and sample, outside the timed region.
  std::function<void()> prepare;
};

/// A row that cannot run here (not enough memory, ...): reported as skipped, not failed.
class infeasible : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A kernel's output differs from its host reference: an error row, never a time.
class verification_error : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

class bench_context {
 public:
  bench_context(benchmark::State& state, std::string name);
  cudaStream_t stream() const noexcept { return stream_.get(); }
  const device_info& device() const;
  const std::string& name() const noexcept { return name_; }

  /// throws infeasible when `bytes` more device memory would not fit. Call it inside a
  /// workspace's make(), when the previous workspace has been freed.
  void require_device_bytes(std::uint64_t bytes) const;

  /// The object `make()` returns, kept across Google Benchmark's calibration rounds and
  /// across benchmarks asking for the same key. One slot: a new key frees the old first.
  template <class W, class Make>
  W& workspace(const std::string& key, Make&& make) {
    std::shared_ptr<void>& slot = workspace_slot(key, typeid(W));
    if (!slot) {
      slot = std::make_shared<W>(make());
      stream_.synchronize();
    }
    return *static_cast<W*>(slot.get());
  }

  /// Runs `check` (launch, compare with the host reference) once per benchmark name.
  void verify_once(const std::function<void()>& check);

  /// Warm-up, then timed launches until the stopping rule is met; sets the iteration time
  /// (the median sample), counters and label; returns the median in seconds.
  /// `bytes_per_launch` comes from the family's unit-tested formula. throws cuda_error
  double time_launches(l2_state l2, std::uint64_t bytes_per_launch, const std::function<void(cudaStream_t)>& launch);
  double time_launches(const launch_options& opt, std::uint64_t bytes_per_launch,
                       const std::function<void(cudaStream_t)>& launch);

  /// Times `call` with the host's steady clock: the same warm-up, stopping rule and
  /// counters as time_launches, label `timing:host_clock`, no pct_peak. For work the GPU
  /// clock cannot see (cudaMalloc, CPU loops): `call` must return when its work is done.
  /// Returns the median in seconds.
  double time_host(const host_options& opt, std::uint64_t bytes_per_call, const std::function<void()>& call);

  /// Samples `launch` like time_launches but reports nothing: for the parts of a bound
  /// (the copy-engine bound of a pipeline). Returns the median in seconds. throws cuda_error
  double measure(const launch_options& opt, const std::function<void(cudaStream_t)>& launch);

  /// The median (seconds) of the benchmark named `reference`: the row of that name already
  /// timed in this process, or, when it did not run (filtered out), measured now with
  /// `launch`, which must do the same work. For ratios measured in the same run
  /// (slowdown of a bank conflict, of zero-copy). throws cuda_error
  double reference_seconds(const std::string& reference, const launch_options& opt,
                           const std::function<void(cudaStream_t)>& launch);

  /// reference_seconds for a host-timed row (time_host): its median if it ran in this
  /// process, else `call` sampled now on the host clock.
  double reference_host_seconds(const std::string& reference, const std::function<void()>& call);

  /// The PCIe link to the host, when the system tells (NVML, else sysfs).
  const std::optional<pcie_link>& pcie() const;

  void set_counter(const std::string& key, double value);

 private:
  std::shared_ptr<void>& workspace_slot(const std::string& key, std::type_index type);

  /// Profiles the row's launch for the session's metrics (if any): counters or a label token.
  void profile_metrics(const launch_options& opt, const std::function<void(cudaStream_t)>& launch);

  benchmark::State& state_;
  std::string name_;
  std::string label_;
  membench::stream stream_;
};

/// Runs `body` for one benchmark; exceptions become error rows, sticky CUDA errors
/// poison the rest of the run (later rows are skipped naming the culprit).
void run_benchmark(benchmark::State& state, const std::string& name,
                   const std::function<void(bench_context&)>& body);

/// Pinned staging memory for copying results back (64 MiB, reused).
std::span<std::byte> staging_buffer();

/// Throws verification_error describing a mismatch.
[[noreturn]] void throw_mismatch(const char* what, std::size_t index, const std::string& got,
                                 const std::string& expected, std::size_t mismatches, std::size_t count);

/// Process-wide state: opened by main after device selection, closed before exit.
/// Opening measures the event-pair cost (blocking method) and opens NVML. throws cuda_error
void session_open(const device_info& device, const timing_options& timing);
/// Context entries describing the timing: method, rule, event-pair cost, NVML readings.
std::vector<std::pair<std::string, std::string>> session_context();
void session_close() noexcept;
struct session_counts {
  int failed = 0;
  int skipped = 0;
};
session_counts session_result() noexcept;
/// The benchmarks that did not run because an earlier one poisoned the CUDA context,
/// in run order, and the culprit; empty when nothing was poisoned.
const std::vector<std::string>& session_not_run() noexcept;
const std::string& session_poisoned_by() noexcept;

}  // namespace membench
