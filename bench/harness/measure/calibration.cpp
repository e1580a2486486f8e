#include "calibration.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/stats.hpp"
#include "harness/core/check.hpp"
#include "harness/core/resources.hpp"
#include "harness/measure/device_timers.hpp"
#include "harness/measure/timer_floor.hpp"

namespace membench {
namespace {

// Releases a held stream on every path out of a sample, exceptions included.
struct release_on_exit {
  stream_blocker& blocker;
  ~release_on_exit() { blocker.release(); }
};

// One blocking sample of `work` (nothing, or a launch); null when the blocker timed out.
template <class Work>
std::optional<double> held_sample(stream_blocker& blocker, event_timer& timer, cudaStream_t s, Work&& work) {
  {
    release_on_exit guard{blocker};
    blocker.hold(s);
    timer.start(s);
    work();
    timer.stop(s);
  }
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
  const double secs = timer.seconds();
  if (blocker.timed_out()) return std::nullopt;
  return secs;
}

}  // namespace

std::optional<event_calibration> calibrate_event_pair(stream_blocker& blocker, cudaStream_t s) {
  constexpr int warm_up = 3, samples = 200;
  constexpr std::uint32_t sweep_samples = 128, sweep_cycles = 16;
  event_timer timer;
  std::vector<double> pair, empty;
  int timeouts = 0;
  for (int i = 0; i < warm_up + samples; ++i) {
    const auto a = held_sample(blocker, timer, s, [] {});
    const auto b = held_sample(blocker, timer, s, [&] { launch_empty_kernel(s); });
    if (!a || !b) {
      if (++timeouts == 3) return std::nullopt;
      continue;
    }
    if (i < warm_up) continue;
    pair.push_back(*a);
    empty.push_back(*b);
  }
  std::vector<double> readings = pair;
  readings.insert(readings.end(), empty.begin(), empty.end());
  for (std::uint32_t cycles = 0; cycles < sweep_samples * sweep_cycles; cycles += sweep_cycles) {
    const auto r = held_sample(blocker, timer, s, [&] { launch_spin_cycles(s, cycles); });
    if (r) readings.push_back(*r);
  }
  std::sort(pair.begin(), pair.end());
  event_calibration c;
  c.resolution_s = smallest_step(std::move(readings)).value_or(0);
  c.median_s = quantile_sorted(pair, 0.5);
  c.p10_s = quantile_sorted(pair, 0.1);
  c.p90_s = quantile_sorted(pair, 0.9);
  c.empty_kernel_s = median_of(empty) - c.median_s;
  return c;
}

double reference_sm_clock(clock_probe& probe, cudaStream_t s, int sm_count, double seconds) {
  spin_gpu(s, sm_count, seconds);
  std::vector<double> mhz;
  for (int i = 0; i < 21; ++i) {
    spin_gpu(s, sm_count, 0.002);  // keep it busy between probes
    probe.record(s);
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
    mhz.push_back(probe.mhz());
  }
  return median_of(mhz);
}

}  // namespace membench
