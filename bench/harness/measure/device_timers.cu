#include "device_timers.hpp"

#include <atomic>

namespace membench {
namespace {

inline constexpr std::uint64_t probe_window_ns = 4000;

__device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void block_stream_kernel(const volatile int* release, volatile int* timed_out, std::uint64_t timeout_ns) {
  const std::uint64_t t0 = global_ns();
  while (*release == 0) {
    if (global_ns() - t0 > timeout_ns) {
      *timed_out = 1;
      return;
    }
  }
}

__global__ void clock_probe_kernel(double* mhz, std::uint64_t window_ns) {
  const std::uint64_t t0 = global_ns();
  const long long c0 = clock64();
  std::uint64_t t1 = t0;
  while (t1 - t0 < window_ns) t1 = global_ns();
  const long long c1 = clock64();
  *mhz = static_cast<double>(c1 - c0) * 1e3 / static_cast<double>(t1 - t0);
}

__global__ void spin_kernel(std::uint64_t ns) {
  const std::uint64_t t0 = global_ns();
  while (global_ns() - t0 < ns) {
  }
}

__global__ void calibration_empty_kernel() {}

__global__ void spin_cycles_kernel(long long cycles) {
  const long long c0 = clock64();
  while (clock64() - c0 < cycles) {
  }
}

}  // namespace

void spin_gpu(cudaStream_t s, int sm_count, double seconds) {
  spin_kernel<<<static_cast<unsigned>(sm_count > 0 ? sm_count : 1), 32, 0, s>>>(static_cast<std::uint64_t>(seconds * 1e9));
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

void launch_empty_kernel(cudaStream_t s) {
  calibration_empty_kernel<<<1, 1, 0, s>>>();
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

void launch_spin_cycles(cudaStream_t s, std::uint32_t cycles) {
  spin_cycles_kernel<<<1, 1, 0, s>>>(static_cast<long long>(cycles));
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

stream_blocker::stream_blocker(double timeout_s)
    : flags_(2), device_flags_(flags_.device_data()), timeout_ns_(static_cast<std::uint64_t>(timeout_s * 1e9)) {}

stream_blocker::~stream_blocker() { release(); }

void stream_blocker::hold(cudaStream_t s) {
  volatile int* f = flags_.data();
  f[0] = 0;
  f[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  block_stream_kernel<<<1, 1, 0, s>>>(device_flags_, device_flags_ + 1, timeout_ns_);
  held_ = true;
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

void stream_blocker::release() noexcept {
  if (!held_) return;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  static_cast<volatile int*>(flags_.data())[0] = 1;
  held_ = false;
}

bool stream_blocker::timed_out() const noexcept { return static_cast<volatile const int*>(flags_.data())[1] != 0; }

clock_probe::clock_probe() : result_(1), device_result_(result_.device_data()) { result_.data()[0] = 0; }

void clock_probe::record(cudaStream_t s) {
  clock_probe_kernel<<<1, 1, 0, s>>>(device_result_, probe_window_ns);
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

double clock_probe::mhz() const noexcept { return static_cast<volatile const double*>(result_.data())[0]; }

}  // namespace membench
