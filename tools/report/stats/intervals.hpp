// The pieces of decide (verdict.cpp) that measure: a side's centre and runs, the evidence
// both sides share, and the interval of the log ratio of their times from that evidence.
#pragma once

#include <cmath>
#include <cstddef>
#include <string_view>
#include <utility>

#include "stats/verdict.hpp"

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

/// The strongest evidence of its own spread every run of one side carries, samples aside
/// (membench rows with samples carry intervals too): intervals, noise; else repetitions
/// (two runs or more), else none.
evidence own_evidence(const side& s);

/// The variance of a side's log centre and the degrees of freedom behind it.
struct side_spread {
  double variance = 0;   ///< of the side's log centre
  double df = INFINITY;  ///< degrees of freedom behind it (infinite: from the floor)
  double between = NAN;  ///< sample variance of the runs' log medians, when there are several
};
/// Per run the larger of the runs' spread and their own variance (from `e`) plus the floor
/// `run_spread` (relative, one sd), over the number of runs.
side_spread spread_of(const side& s, evidence e, double run_spread);
/// The same with the run-to-run variance measured elsewhere: `pooled` (of a run's log
/// median, on `df` degrees of freedom; none when df is 0) instead of the side's own runs'.
side_spread pooled_spread_of(const side& s, evidence e, double run_spread, double pooled, double df);
/// The sum of squares of a side's runs' log medians about their mean (0 below two runs).
double log_sum_sq(const side& s);
/// The t interval at `confidence` of a log ratio `d` whose two independent parts spread as
/// `a` and `b` (Welch's degrees of freedom).
std::pair<double, double> t_interval(const side_spread& a, const side_spread& b, double confidence, double d);

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
