// The regression test behind compare and history: is one benchmark slower in NEW than in
// BASE, beyond a threshold and beyond what chance and the machine explain? Pure functions
// of the runs, unit-tested on synthetic samples.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/model.hpp"
#include "core/options.hpp"
#include "stats/reasons.hpp"

namespace membench::report {

enum class verdict { same, faster, slower, unsure };
const char* to_string(verdict v) noexcept;

/// Where the spread behind a decision comes from, strongest first.
enum class evidence {
  samples,      ///< every run has samples_us: a seeded bootstrap of the ratio of medians
  intervals,    ///< every run has membench's interval of its median (ci_low_us, ci_high_us)
  noise,        ///< every run has noise_pct and a sample count (rows from before the intervals)
  repetitions,  ///< only the spread of the runs' medians (plain Google Benchmark repetitions)
  runs,         ///< one side has `calibration_runs` or more runs: their medians' spread is measured
  none,         ///< one run a side and nothing about its spread
};
const char* to_string(evidence e) noexcept;

/// Which figure of a row a decision rests on.
enum class figure {
  single,  ///< the row's median over single launches (its time)
  batch,   ///< short rows' per-launch median over back-to-back launches (batch_us)
  fastest,  ///< a copy's fastest kept sample (t_min_us): fleet's figure for copies
};
const char* to_string(figure f) noexcept;

/// The event timer's step where the files do not measure it: CUDA documents
/// cudaEventElapsedTime's resolution as about half a microsecond.
inline constexpr double default_timer_step_us = 0.5;

/// Every run of one benchmark on one side (BASE or NEW), over all of that side's files.
struct side {
  std::vector<const run*> runs;
  double ci_level = 0.95;     ///< the level of the runs' intervals (the files' membench_ci_level_pct)
  double reference_clock_mhz = NAN;  ///< the files' clock at the start, for runs without their own
  double timer_resolution_us = NAN;  ///< the files' measured timer step (NAN: not measured)
  /// The runs of a figure the files do not hold as runs (batch_side's), kept alive with
  /// every copy of the side.
  std::shared_ptr<const std::vector<run>> owned;
  double aggregate_us = NAN;  ///< aggregates-only files: the median of the repetitions ...
  double aggregate_cv = -1;   ///< ... their cv (a fraction), -1 unknown ...
  std::int64_t aggregate_count = 0;  ///< ... and how many there were
};

/// Adds a result's runs (or its aggregate) from `file` to a side.
void add_to_side(side& s, const result& r, const result_file& file);

/// The test's settings as fractions; defaults from the options table (options.hpp).
struct decide_options {
  double threshold = options::threshold.number / 100;  ///< a change smaller than this is "same" (fraction of the time)
  /// Slower (faster) needs the interval of the change above +margin (below -margin): a
  /// row whose runs drift over minutes (pageable copies) can put a 99 % interval just
  /// above 0 on an unchanged commit.
  double margin = options::margin.number / 100;
  /// A smaller change in microseconds is "too small" to call; NAN (auto): what the
  /// measurement resolves (resolved_us).
  double resolution_us = options::resolution.number;
  /// SM clocks differing by more than this make a verdict unsure; infinite: clocks are
  /// never a reason, neither their difference nor the change in cycles (fleet).
  double clock_tolerance = options::clock_tolerance.number / 100;
  /// Assumed run-to-run spread of a run's median (relative, one sd): kernel rows, rows that
  /// time copy engines, rows with host or driver work in their samples.
  double run_spread = options::run_spread.number / 100;
  double run_spread_copy = options::run_spread_copy.number / 100;
  double run_spread_host = options::run_spread_host.number / 100;
  /// An absolute part (microseconds, one sd): a process's launches of a few microseconds
  /// shift by about 0.1 us from one process to the next, 2-5 % of such a row.
  double run_spread_us = options::run_spread_us.number;
  /// The floor for a benchmark whose runs time `w` (the noisiest kind of either side).
  double run_spread_of(run::work_kind w) const noexcept {
    return w == run::work_kind::host ? run_spread_host : w == run::work_kind::copy ? run_spread_copy : run_spread;
  }
  /// The floor for such a benchmark whose figure takes `us`: the relative part and the
  /// absolute part over `us`, added in quadrature (the relative part alone where `us` is unknown).
  double run_spread_at(run::work_kind w, double us) const noexcept {
    const double rel = run_spread_of(w);
    if (!(us > 0) || !(run_spread_us > 0)) return rel;
    return std::hypot(rel, run_spread_us / us);
  }
  /// A side with at least this many runs of a benchmark measures its run-to-run spread:
  /// that spread, not the work class's floor, is the benchmark's (0: never).
  int calibration_runs = options::calibration_runs.value<int>();
  double confidence = options::confidence.number / 100;       ///< level of the interval of the change
  int replicates = 2000;                                      ///< bootstrap replicates (samples)
  std::uint64_t seed = options::seed.value<std::uint64_t>();  ///< with the benchmark's name, seeds its bootstrap
  std::string_view more_runs = "give several --base and --new runs";  ///< what a host row of one run a side needs
};

struct decision {
  verdict v = verdict::same;
  reasons why;                        ///< why unsure: codes, and prose ("too noisy; throttled (new: sw_power_cap)")
  evidence from = evidence::none;
  double base_us = NAN, new_us = NAN;  ///< each side's median of its runs' medians (evidence runs: exp of the trimmed mean of their logs)
  double change = NAN;                ///< new / base - 1
  double low = NAN, high = NAN;       ///< the interval of the change (NAN: no spread known)
  double base_clock_mhz = NAN, new_clock_mhz = NAN;
  figure fig = figure::single;        ///< the figure the times and the interval are of
  double resolution_us = NAN;         ///< the smallest change that could count, in microseconds
  /// The change in cycles (time x each side's SM clock) and its interval: the change's,
  /// shifted by the clocks' ratio; NAN where a clock is unknown.
  double cycles_change = NAN, cycles_low = NAN, cycles_high = NAN;
};

/// The figure a row is decided on: its batch figure when every run of both sides carries
/// one with an interval and it resolves the row more finely (the larger of its relative
/// half-width and timer step, summed over the sides, is smaller than the single figure's).
figure better_figure(const side& base, const side& next);
/// The same over several sides (fleet: a row's GPUs).
figure better_figure(const std::vector<const side*>& sides);
/// A side's runs as their batch figures (every run must carry one).
side batch_side(const side& s);
/// Whether every run of the sides is a copy (work:copy) that carries its fastest sample.
bool copies_with_fastest(const std::vector<const side*>& sides);
/// A side's runs as their fastest samples, without intervals (every run must carry one).
side fastest_side(const side& s);
/// The smallest change in microseconds the two sides resolve: `o.resolution_us` when
/// given; else the larger of the timer's step per launch of either side (the files'
/// membench_timer_resolution_us, else default_timer_step_us, over the launches a sample
/// times) and the half-width of the difference from the sides' own intervals (each
/// side's median half-width over the root of its runs, the two in quadrature).
double resolved_us(const side& base, const side& next, const decide_options& o);
/// Its first part alone: `o.resolution_us` when given, else the timer's step per launch.
double timer_floor_us(const side& base, const side& next, const decide_options& o);
/// The floor as the notes say it: "0.5 us", or what auto means.
std::string resolution_text(double resolution_us);

/// The verdict for one benchmark, on the figure better_figure picks. `name` seeds the
/// bootstrap, so that a verdict depends on nothing but its inputs.
///  - |change| < threshold: same.
///  - otherwise slower (faster) only when the interval of the change lies above `margin`
///    (below -`margin`),
///    the change is at least resolved_us, no run was throttled, unconverged or at the
///    timer's floor (`floor:timer`), the SM clocks agree within `clock_tolerance`, the
///    change in cycles clears the same test, and rows with host work in their samples
///    have at least two runs a side; else unsure, with every reason that applies.
/// The interval: with samples on both sides, the percentiles of a bootstrap of the ratio
/// of the sides' medians (runs resampled when a side has several, samples within each
/// run, each run shifted by the assumed run-to-run spread); otherwise a t interval on the
/// log ratio whose variance per side is the larger of the runs' medians' spread and their
/// own intervals plus the assumed run-to-run spread, over the number of runs. When a side
/// has `calibration_runs` runs or more, the runs' own spread replaces the floors: Yuen's
/// trimmed-means t interval on the runs' log medians (20 % trimmed, winsorized variances
/// pooled), about the exp of the trimmed means. Then a run that did not converge is no
/// reason by itself (its spread is in the interval), and throttled runs leave the verdict
/// slower (faster) only if the same test on the unthrottled runs alone (two or more a
/// side) says so too: it never rests on them. Where the two sides' runs fall into two
/// levels (the widest gap of their log medians at least three times the spread within the
/// levels and wider than the threshold, each side with runs at both levels), slower
/// (faster) also needs the change within the
/// levels that both sides reach with two runs: a shift of runs between levels is unsure.
decision decide(const side& base, const side& next, const decide_options& o, std::string_view name);

/// The second half of decide, for a change measured elsewhere (fleet: a GPU against its
/// fleet's centre): from `out`'s times, change, interval and evidence, its verdict and
/// reasons by every condition above (the clocks of each side recorded in `out`).
void judge_change(decision& out, const side& base, const side& next, const decide_options& o);

}  // namespace membench::report
