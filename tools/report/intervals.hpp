// The pieces of decide (verdict.cpp) that measure: a side's centre and runs, the evidence
// both sides share, and the interval of the log ratio of their times from that evidence.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

#include "verdict.hpp"

namespace membench::report::detail {

/// The median of a side's runs' medians (its aggregate when it has no runs).
double side_centre(const side& s);
/// Runs whose spread is known: aggregates without their cv count as one.
std::size_t run_count(const side& s);
/// The strongest evidence both sides carry.
evidence shared_evidence(const side& base, const side& next);
/// The noisiest kind of work any run of either side times.
run::work_kind work_of(const side& base, const side& next);

/// The variance of a run's log median from its own interval (intervals, at `ci_level`) or
/// its noise and sample count (noise); 0 for other evidence.
double within_variance(const run& r, evidence e, double ci_level);

/// The t interval of the log ratio `d` (all evidence but samples).
std::pair<double, double> normal_interval(const side& base, const side& next, evidence e, const decide_options& o,
                                          double d);
/// The bootstrap interval of the log ratio `d` of medians (samples on both sides), seeded by `name`.
std::pair<double, double> bootstrap_interval(const side& base, const side& next, const decide_options& o, double d,
                                             std::string_view name);

/// A side's runs' log medians, 20 % trimmed (Yuen; Wilcox's usual amount): one process in
/// eight that ran 2x slower (a pinned copy, once in fifteen on an H100) neither moves the
/// centre nor widens the spread, while a shift of every run still shows in full.
struct trimmed {
  double centre = NAN;       ///< the trimmed mean of the log medians
  double wvar = NAN;         ///< their winsorized variance (NAN below two runs)
  std::size_t n = 0, h = 0;  ///< runs, and runs left after trimming
};
trimmed trimmed_logs(const side& s);

/// The side that measures the benchmark's run-to-run spread: the one with more runs, when
/// it has at least calibration_runs of them; null otherwise.
const side* calibrating_side(const side& base, const side& next, const decide_options& o);
/// The interval of the log ratio `d` from a measured run-to-run spread (Yuen's trimmed means).
std::pair<double, double> calibrated_interval(const side& base, const side& next, const decide_options& o, double d);

}  // namespace membench::report::detail
