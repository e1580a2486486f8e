// What the blocking method subtracts, and the clock samples are judged against. Both are
// measured once the GPU has been brought to its working clocks (a first calibration on an
// idle GPU read 2.9 us where a busy one reads 1.3 us), with their spread, and the event
// pair again when the run ends, so that drift shows in the context.
#pragma once

#include <optional>

#include <cuda_runtime_api.h>

namespace membench {

class stream_blocker;
class clock_probe;

struct event_calibration {
  double median_s = 0;
  double p10_s = 0, p90_s = 0;  ///< spread of the calibration samples
  double empty_kernel_s = 0;    ///< events around an empty kernel, less the pair's own cost
  double resolution_s = 0;      ///< the timer's step (timer_floor.hpp's smallest_step); 0: not seen
};

/// Events around nothing on a held stream (and around an empty kernel), 200 samples after
/// warm-up; then around spins of 0 to 2032 cycles in steps of 16 (about 8 ns at Hopper's
/// clocks), so that readings fall on neighbouring timer steps whatever the pair's spread,
/// and the smallest difference among all the readings is the timer's step. Null when the blocking kernel times out: launches block the host (a profiler,
/// CUDA_LAUNCH_BLOCKING), so blocking cannot work. throws cuda_error
std::optional<event_calibration> calibrate_event_pair(stream_blocker& blocker, cudaStream_t s);

/// The SM clock under load: every SM spun for `seconds`, then the median of 21 probes.
/// throws cuda_error
double reference_sm_clock(clock_probe& probe, cudaStream_t s, int sm_count, double seconds = 0.2);

}  // namespace membench
