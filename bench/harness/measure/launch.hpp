// What a family hands the harness to time: a launch on a stream and how its samples are
// taken (cache state, whether it blocks the host, what runs before each sample).
#pragma once

#include <functional>

#include <cuda_runtime_api.h>

namespace membench {

enum class l2_state { cold, warm };
const char* to_string(l2_state l2) noexcept;

/// Enqueues the work of one sample on the stream it is given.
using launch_fn = std::function<void(cudaStream_t)>;

/// How one row's launches are sampled. The defaults fit a kernel on the benchmark's stream.
struct launch_options {
  l2_state l2 = l2_state::cold;
  /// The launch returns only when its work is done (pageable copies, synchronous APIs):
  /// the blocking kernel would deadlock, so the row is timed with plain events.
  bool blocks_host = false;
  /// The samples include host or driver work although the launch returns at once (page
  /// faults serviced by the driver, a device-side heap allocator): such rows are as noisy
  /// as host calls and get the host target and budget (--max-ci-host, --max-time-host).
  bool host_work = false;
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
  /// Runs before each pass of a `--metrics` profile, after `prepare`, outside the profiled
  /// range: brings back the cache state the timed launches saw (a chain's untimed walk), which
  /// whatever ran between the last sample and the profile may have changed.
  std::function<void(cudaStream_t)> profile_prepare;
  /// The ceiling `pct_peak` refers to (GB/s) and its name in the label (`peak:pcie`).
  /// No name: the device's theoretical DRAM bandwidth. A name with 0 GB/s (the system does
  /// not say): no pct_peak.
  double peak_gbps = 0;
  const char* peak_name = nullptr;
  /// False for rows no memory ceiling describes (shared memory, registers, L1): no pct_peak.
  bool report_pct_peak = true;
  /// The row's sampling budget (--max-time or --max-time-host) times this: for rows whose
  /// samples are long and scatter by nature (a chase that times a whole cycle at a cache's
  /// edge), so that the budget holds enough samples to place the median. A row that
  /// converges stops early whatever its budget.
  double budget_scale = 1;

  /// The samples include host work (a call that blocks the host): host target and budget.
  bool host_row() const noexcept { return blocks_host || host_work; }
  /// The launch is SM work that the blocking method and the batch measurement can time.
  bool kernel_row() const noexcept { return !blocks_host && !copy_engine; }
};

/// How a host-timed row is sampled (allocation calls, CPU loops).
struct host_options {
  /// Runs before every warm-up and sample, outside the timed region.
  std::function<void()> prepare;
  /// Calls `call` makes: a call far shorter than the clock's own cost is timed many at a
  /// time, and each sample is divided by this (the row's time is per call).
  int calls_per_sample = 1;
};

}  // namespace membench
