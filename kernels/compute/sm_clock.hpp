// The SM clock read over milliseconds: spins of a known number of SM cycles (clock64), timed
// with events; the clock is the slope of cycles against time between a long and a short
// spin, so the launch's fixed cost drops out. Host-compilable: the check and the formulas.
#pragma once

#include <cstdint>

namespace membench::compute {

/// The cycles a spin may run past its target and still be a spin of that many cycles: the
/// loop's last pass and the final clock read take tens of cycles; a launch preempted or
/// time-sliced as it reached its target overshoots by far more (one part in 10 000 allows
/// thousands of cycles: the check catches a spin that never ran or was cut short, and such).
constexpr std::int64_t spin_overshoot_limit(std::int64_t cycles) { return cycles / 10000; }

/// Whether a spin measured `measured` cycles (clock64 after minus before) for a target of `cycles`.
constexpr bool spin_ok(std::int64_t measured, std::int64_t cycles) {
  return measured >= cycles && measured - cycles <= spin_overshoot_limit(cycles);
}

/// The SM clock in MHz from the median times of two spins: the slope of cycles over time.
/// NaN unless the long spin took longer.
constexpr double slope_mhz(std::int64_t long_cycles, double long_s, std::int64_t short_cycles, double short_s) {
  const double dt = long_s - short_s;
  return dt > 0 ? static_cast<double>(long_cycles - short_cycles) / dt / 1e6 : __builtin_nan("");
}

/// The time a launch of the spin takes beyond its cycles at `mhz`: launch and event cost (us).
constexpr double fixed_cost_us(std::int64_t cycles, double seconds, double mhz) {
  return (seconds - static_cast<double>(cycles) / (mhz * 1e6)) * 1e6;
}

}  // namespace membench::compute
