// Device-side helpers of the timing loop: a stream blocker (so a queued launch starts
// without host launch latency between the events) and an SM clock probe.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "harness/core/resources.hpp"

namespace membench {

/// Holds a stream with a spinning one-thread kernel until release(), so that the events
/// and the launch queued behind it run back to back on the GPU, as nvbench does. The
/// kernel gives up after `timeout_s` (a launch that blocks the host, such as a pageable
/// copy or a profiler serialising kernels, would otherwise deadlock) and says so.
class stream_blocker {
 public:
  explicit stream_blocker(double timeout_s);  ///< throws cuda_error
  stream_blocker(const stream_blocker&) = delete;
  stream_blocker& operator=(const stream_blocker&) = delete;
  ~stream_blocker();  ///< releases a held stream

  void hold(cudaStream_t s);  ///< throws cuda_error
  void release() noexcept;
  /// Whether the last hold ended by timeout; valid once the stream has synchronized.
  bool timed_out() const noexcept;

 private:
  mapped_buffer<int> flags_;  // [0] release, [1] timed out
  int* device_flags_ = nullptr;
  std::uint64_t timeout_ns_ = 0;
  bool held_ = false;
};

/// The SM clock just after a sample: a one-thread kernel counts clock64() cycles over
/// a window of %globaltimer (32 ns ticks on Hopper, so a 4 us window reads within 1 %).
class clock_probe {
 public:
  clock_probe();                 ///< throws cuda_error
  void record(cudaStream_t s);   ///< throws cuda_error
  double mhz() const noexcept;   ///< of the last record, once the stream has synchronized

 private:
  mapped_buffer<double> result_;
  double* device_result_ = nullptr;
};

/// Keeps every SM busy for about `seconds` (one spinning block per SM): brings an idle GPU
/// up to its working clocks before anything is calibrated. throws cuda_error
void spin_gpu(cudaStream_t s, int sm_count, double seconds);

/// Launches a kernel of one thread that does nothing: the cheapest launch there is, for
/// calibrating what a launch costs beyond its work. throws cuda_error
void launch_empty_kernel(cudaStream_t s);

/// Launches a one-thread kernel that spins for `cycles` SM clock cycles: a sweep of such
/// launches moves event readings across neighbouring timer steps. throws cuda_error
void launch_spin_cycles(cudaStream_t s, std::uint32_t cycles);

}  // namespace membench
