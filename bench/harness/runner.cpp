#include "runner.hpp"

#include <cstdio>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "check.hpp"
#include "stats.hpp"
#include "verify.hpp"

namespace membench {
namespace {

struct session {
  std::optional<device_info> device;
  std::unique_ptr<l2_flusher> flusher;
  std::unique_ptr<pinned_buffer<std::byte>> staging;
  std::string workspace_key;
  std::type_index workspace_type{typeid(void)};
  std::shared_ptr<void> workspace;
  std::string verified_name;
  std::string poisoned_by;
  session_counts counts;
};

session& the_session() {
  static session s;
  return s;
}

constexpr std::size_t staging_bytes = std::size_t{64} << 20;

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

void bench_context::time_launches(l2_state l2, std::uint64_t bytes_per_launch,
                                  const std::function<void(cudaStream_t)>& launch) {
  session& s = the_session();
  const cudaStream_t st = stream();
  const bool cold = l2 == l2_state::cold;
  if (cold && !s.flusher) s.flusher = std::make_unique<l2_flusher>(s.device->l2_bytes);

  // Warm-up: module load, TLB and (warm) L2 state stay out of the samples.
  for (int i = 0; i < 2; ++i) {
    if (cold) s.flusher->flush(st);
    launch(st);
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
  }
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(st));

  event_timer timer;
  std::vector<double> samples;
  for (auto _ : state_) {
    if (cold) s.flusher->flush(st);
    timer.start(st);
    launch(st);
    timer.stop(st);
    const double secs = timer.seconds();
    state_.SetIterationTime(secs);
    samples.push_back(secs);
  }
  MEMBENCH_CUDA_CHECK(cudaGetLastError());

  const sample_stats stats = summarize(samples);
  const double bytes = static_cast<double>(bytes_per_launch);
  state_.SetBytesProcessed(static_cast<std::int64_t>(bytes_per_launch) * state_.iterations());
  state_.counters["bytes"] = bytes;
  state_.counters["samples"] = static_cast<double>(stats.count);
  state_.counters["t_min_us"] = stats.min * 1e6;
  state_.counters["t_median_us"] = stats.median * 1e6;
  state_.counters["t_max_us"] = stats.max * 1e6;
  state_.counters["noise_pct"] = stats.noise * 100;
  if (stats.median > 0) {
    const double gbps = bytes / stats.median / 1e9;
    state_.counters["gb_per_s"] = gbps;
    const double peak = s.device->peak_dram_gbps();
    if (peak > 0) state_.counters["pct_peak"] = 100 * gbps / peak;
  }
}

void run_benchmark(benchmark::State& state, const std::string& name,
                   const std::function<void(bench_context&)>& body) {
  session& s = the_session();
  auto fail = [&](const std::string& msg) {
    ++s.counts.failed;
    state.SkipWithError(msg.c_str());
  };
  if (!s.device) return fail("not run: no CUDA device session");
  if (!s.poisoned_by.empty()) return fail(fmt::format("not run: CUDA context poisoned earlier by {}", s.poisoned_by));
  try {
    bench_context ctx(state, name);
    body(ctx);
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

void verify_checksum(std::uint64_t got, std::uint64_t expected, const char* what) {
  if (got != expected) {
    throw verification_error(fmt::format("{}: checksum {:#x}, expected {:#x}", what, got, expected));
  }
}

void session_open(const device_info& device) { the_session().device = device; }

void session_close() noexcept {
  session& s = the_session();
  s.workspace.reset();
  s.flusher.reset();
  s.staging.reset();
  s.device.reset();
}

session_counts session_result() noexcept { return the_session().counts; }

}  // namespace membench
