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
  /// (the median sample), counters and label. `bytes_per_launch` comes from the family's
  /// unit-tested formula. throws cuda_error
  void time_launches(l2_state l2, std::uint64_t bytes_per_launch, const std::function<void(cudaStream_t)>& launch);

  void set_counter(const std::string& key, double value);

 private:
  std::shared_ptr<void>& workspace_slot(const std::string& key, std::type_index type);

  benchmark::State& state_;
  std::string name_;
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
