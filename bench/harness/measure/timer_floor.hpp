// Whether a row's event-timed samples resolve its work. CUDA events read a timer of finite
// step (32 ns on Hopper), and each reading includes the event pair's own cost (about 1.3 us,
// calibration.hpp): a call that gives the GPU nothing to do reads the pair alone, the same
// few steps at every size, with an interval of zero width. Such a row is labelled
// `floor:timer`: its time is the timer's, not a finding. Plain host logic, unit-tested.
#pragma once

#include <optional>
#include <vector>

namespace membench {

/// What the calibration knows of the event timer (all seconds; 0: not measured).
struct timer_floor_inputs {
  double pair_s = 0;         ///< the event pair's median cost
  double pair_spread_s = 0;  ///< its 90th minus 10th percentile
  double resolution_s = 0;   ///< the timer's step
};

/// The timer's step from readings of it (seconds): the smallest difference between two
/// distinct readings (closer than 0.01 ns counts as equal: float rounding of the
/// milliseconds cudaEventElapsedTime returns). An upper bound on the step, equal to it
/// once two readings fall on neighbouring steps. Null with fewer than two distinct readings.
std::optional<double> smallest_step(std::vector<double> readings);

/// Readings at a timer floor (the rule, in docs/statistics.md): the work is what a sample
/// leaves once the pair's cost is accounted for (`pair_subtracted`: the blocking method
/// already took it off every sample; else it is taken off here). The row is at the floor when
///  - the fastest tenth of the samples (the 10th percentile) leave at most floor_steps
///    timer steps or floor_spreads pair spreads of work: they read the pair alone, whatever
///    host jitter adds to the others, or
///  - the median leaves under quantized_steps timer steps while the middle 80 % of the
///    samples take at most quantized_values distinct values (a step apart or more): the
///    interval is then a count of timer steps, and a step is over 3 % of the work (a 5 %
///    change is a step or two).
/// Without a resolution only the first test's spread applies; without either, never.
bool at_timer_floor(const std::vector<double>& samples, bool pair_subtracted, const timer_floor_inputs& t);

inline constexpr double floor_steps = 4;
inline constexpr double floor_spreads = 2;
inline constexpr double quantized_steps = 32;
inline constexpr int quantized_values = 2;

/// Distinct values among the middle 80 % of `samples` (10th to 90th percentile by rank),
/// values closer than a quarter of `step` counting as one.
int distinct_middle_values(std::vector<double> samples, double step);

}  // namespace membench
