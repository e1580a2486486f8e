// The session: everything one run of membench shares, owned by main and handed to what
// needs it (no global state). Constructed from the options without touching the GPU (so
// that registration and --benchmark_list_tests work anywhere); open() takes the device.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include "harness/core/resources.hpp"
#include "harness/device/device_info.hpp"
#include "harness/device/pcie.hpp"
#include "harness/measure/calibration.hpp"
#include "harness/measure/measurement.hpp"
#include "harness/options/options.hpp"
#include "harness/session/workspace.hpp"

namespace membench {

class bench_context;
class clock_probe;
struct link_endpoint;
class metrics_profiler;
class nvml_device;
class progress;
class stream_blocker;

struct session_counts {
  int failed = 0;
  int skipped = 0;
};

class session {
 public:
  explicit session(run_options options);
  ~session();
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  /// Takes the device: NVML, the profiler, the blocker, the reference clock and the
  /// event-pair calibration. throws cuda_error
  void open(const device_info& device);
  /// Repeats the calibration (drift shows in the context), then frees every CUDA resource.
  void close() noexcept;
  bool is_open() const noexcept { return device_.has_value(); }

  /// Runs one benchmark inside the error boundary: exceptions become error rows; a sticky
  /// CUDA error poisons the rest of the run (later rows are "not run", naming the culprit).
  void run(benchmark::State& state, const std::string& name, const std::function<void(bench_context&)>& body);

  /// Shows `[i/N]` progress for `total` rows (0: no progress).
  void expect_rows(std::size_t total, std::string build);

  const run_options& options() const noexcept { return options_; }
  const device_info& device() const;
  const std::optional<pcie_link>& pcie() const noexcept { return pcie_; }
  metrics_profiler* profiler() noexcept { return metrics_.get(); }
  const nvml_device* nvml() const noexcept { return nvml_.get(); }

  // Other GPUs of the process, for the peer rows: each is read on first use (and timed on
  // first use, environment()); the session's own device answers from what open() read.
  /// The properties of device `index`. throws cuda_error
  const device_info& device_of(int index);
  /// Its NVML; null where NVML is missing. throws cuda_error
  const nvml_device* nvml_of(int index);
  /// What NVML says of its links (NVLinks and their far ends, PCIe); null without NVML.
  /// throws cuda_error
  const link_endpoint* links_of(int index);

  /// What a measurement strategy needs (measurement.hpp) on the current device: the session's,
  /// or another a peer row moved to (bench_context::move_to), with that device's clock
  /// reference, event-pair cost and L2 flush, measured on first use. throws cuda_error
  measure_env environment();
  workspace_cache& workspaces() noexcept { return workspaces_; }
  /// Pinned staging memory for copying results back (64 MiB, made on first use).
  std::span<std::byte> staging();

  /// Medians of the rows already timed in this process, by name: references for ratios.
  std::map<std::string, double>& medians() noexcept { return medians_; }
  /// Samples kept for the JSON (--keep-samples), per name, one list per repetition; the
  /// batch samples likewise (an empty list for a repetition without a batch figure).
  void keep_samples(const std::string& name, const std::vector<double>& samples,
                    const std::vector<double>& batch_samples);
  const std::map<std::string, std::vector<std::vector<double>>>& kept_samples() const noexcept { return kept_; }
  const std::map<std::string, std::vector<std::vector<double>>>& kept_batch_samples() const noexcept {
    return kept_batch_;
  }
  /// Whether `name` was verified already (verification runs once per benchmark name).
  bool verified(const std::string& name) const noexcept { return verified_name_ == name; }
  void set_verified(const std::string& name) { verified_name_ = name; }

  /// Context entries describing the timing, calibration, NVML and the link.
  std::vector<std::pair<std::string, std::string>> context() const;
  /// Entries only the end of the run knows (the closing calibration), after close().
  std::vector<std::pair<std::string, std::string>> closing_context() const;
  session_counts counts() const noexcept { return counts_; }
  /// The benchmarks not run because an earlier one poisoned the context, and the culprit.
  const std::vector<std::string>& not_run() const noexcept { return not_run_; }
  const std::string& poisoned_by() const noexcept { return poisoned_by_; }

 private:
  struct other_device;
  other_device& other(int index);
  other_device& timed_other(int index);
  void flush_l2(cudaStream_t s);
  void release_cuda() noexcept;
  void fail(benchmark::State& state, const std::string& message);

  run_options options_;
  std::optional<device_info> device_;
  std::unique_ptr<nvml_device> nvml_;
  std::string nvml_missing_;
  std::optional<pcie_link> pcie_;
  std::string pcie_source_;
  std::unique_ptr<metrics_profiler> metrics_;
  std::unique_ptr<stream_blocker> blocker_;
  std::unique_ptr<clock_probe> probe_;
  std::unique_ptr<l2_flusher> flusher_;
  std::unique_ptr<pinned_buffer<std::byte>> staging_;
  std::optional<event_calibration> calibration_;
  std::optional<event_calibration> end_calibration_;
  double reference_mhz_ = 0;
  std::string timing_fallback_;
  void* nvtx_ = nullptr;
  workspace_cache workspaces_;
  std::map<int, std::unique_ptr<other_device>> others_;  ///< by device index
  std::string verified_name_;
  std::map<std::string, double> medians_;
  std::map<std::string, std::vector<std::vector<double>>> kept_;
  std::map<std::string, std::vector<std::vector<double>>> kept_batch_;
  std::unique_ptr<progress> progress_;
  session_counts counts_;
  std::vector<std::string> not_run_;
  std::string poisoned_by_;
};

}  // namespace membench
