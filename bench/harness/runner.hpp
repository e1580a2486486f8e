// The benchmark boundary and the one measurement shape every benchmark uses:
// resolve and check feasibility, allocate (cached), verify once, warm up, time with
// CUDA events on the benchmark's own stream, report counters.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <typeindex>

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include "device_info.hpp"
#include "resources.hpp"

namespace membench {

enum class l2_state { cold, warm };
const char* to_string(l2_state l2) noexcept;

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

  /// Warm-up, then one timed launch per iteration; sets iteration times and counters.
  /// `bytes_per_launch` comes from the family's unit-tested formula. throws cuda_error
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
void session_open(const device_info& device);
void session_close() noexcept;
struct session_counts {
  int failed = 0;
  int skipped = 0;
};
session_counts session_result() noexcept;

}  // namespace membench
