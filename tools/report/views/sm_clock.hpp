// The SM clock a GPU ran at, read three ways, each with its resolution: the events' slope
// over milliseconds (compute/sm_clock's event_sm_clock_mhz), the per-sample probe
// (sm_clock_mhz: cycles over a 4 us window of the 32 ns globaltimer) and NVML's reading after
// the row. Shared by profile (a line of each GPU's identity) and clock (a row per file).
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"

namespace membench::report {

/// The probe's resolution: one 32 ns step of the globaltimer over its 4 us window.
inline constexpr double probe_step_pct = 0.8;

/// One GPU's three readings, from the longest compute/sm_clock row that measured; NAN where
/// a reading is missing.
struct sm_clock_readings {
  std::string row;             ///< the row read; empty when no file has a usable one
  std::string file;            ///< its file
  double event_mhz = NAN;      ///< the slope of two spins over event time
  double event_half_pct = NAN; ///< the half-width of its interval, percent of it; NAN without a sound one
  double probe_mhz = NAN;      ///< the row's per-sample probe
  double nvml_mhz = NAN;       ///< NVML's reading after the row
  /// Why the reading is no finding ("unconverged", "throttled (...)", "above the GPU's maximum
  /// ..."); empty when it is one.
  std::string problem;
};

/// The readings of the first file (of every build of the GPU: the clock is the GPU's, not a
/// build's) with a compute/sm_clock row with an event clock, the 32M row before the 16M; a
/// row that is a finding before one that is not (then named in `problem`).
sm_clock_readings read_sm_clock(const std::vector<const result_file*>& files);

/// Whether two readings differ beyond their resolutions (each a half-width in percent of
/// the first; NVML's integer MHz adds half a MHz): "agree", "differ by +x.xx %", or "-".
std::string clock_agreement(double mhz, double half_pct, double other_mhz, double other_half_pct);

/// The profile's line: "events 1980.2 (+-0.012 %), probe 1996 (its step about 0.8 %), NVML 1980",
/// followed by "; no finding: PROBLEM" where the row is none.
std::string sm_clock_line(const sm_clock_readings& c);

}  // namespace membench::report
