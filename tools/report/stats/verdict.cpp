#include "stats/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "common/stats.hpp"
#include "stats/intervals.hpp"

namespace membench::report {
namespace {

using namespace detail;

// Some host rows sit at one of two levels per process (the 4-byte symbol copies at about
// 8.5 and 10.4 us on an H100, cudaMalloc of 1 MiB at 31 and 47 us), and which level a
// process lands at drifts over minutes: eight processes a side can then differ only in how
// many landed high, which no spread of their medians describes. Two levels: the widest gap
// in the two sides' sorted log medians, with two runs or more below and above it, at least
// three times the runs' spread within the levels and wider than the threshold, with runs of
// each side at both levels.
struct two_levels {
  bool found = false;
  double split = NAN;            ///< log time between the levels
  double low_us = NAN, high_us = NAN;  ///< the levels' mean times (exp of mean logs)
};

std::vector<double> log_medians(const side& s) {
  std::vector<double> x;
  for (const run* r : s.runs) x.push_back(std::log(r->time_us));
  return x;
}

double sum_sq(const std::vector<double>& x, double& mean) {
  mean = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(x.size());
  double sq = 0;
  for (double v : x) sq += (v - mean) * (v - mean);
  return sq;
}

two_levels find_two_levels(const side& base, const side& next, double threshold) {
  std::vector<double> x = log_medians(base);
  const std::vector<double> y = log_medians(next);
  x.insert(x.end(), y.begin(), y.end());
  std::sort(x.begin(), x.end());
  two_levels out;
  const std::size_t n = x.size();
  if (n < 5) return out;
  std::size_t k = 2;  // the high level starts at x[k]
  for (std::size_t i = 3; i + 2 <= n; ++i) {
    if (x[i] - x[i - 1] > x[k] - x[k - 1]) k = i;
  }
  const std::vector<double> low(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(k)), high(x.begin() + static_cast<std::ptrdiff_t>(k), x.end());
  double ml = 0, mh = 0;
  const double within = std::sqrt((sum_sq(low, ml) + sum_sq(high, mh)) / static_cast<double>(n - 2));
  const double gap = x[k] - x[k - 1];
  if (!(gap >= 3 * within) || !(gap > std::log1p(threshold))) return out;
  // Each side must have runs at both levels: a gap between the sides alone is the change.
  const double split = (x[k] + x[k - 1]) / 2;
  for (const side* sd : {&base, &next}) {
    const std::vector<double> v = log_medians(*sd);
    const auto above = std::count_if(v.begin(), v.end(), [split](double t) { return t > split; });
    if (above == 0 || above == static_cast<std::ptrdiff_t>(v.size())) return out;
  }
  out.found = true;
  out.split = split;
  out.low_us = std::exp(ml);
  out.high_us = std::exp(mh);
  return out;
}

// The change within the levels: for each level both sides reach with two runs or more, the
// difference of the mean logs, weighted as in a two-sample t test and pooled over levels.
// Nothing when no level has two runs of each side.
std::optional<std::pair<double, std::pair<double, double>>> within_levels(const side& base, const side& next,
                                                                         const decide_options& o, double split) {
  double wsum = 0, dsum = 0, ss = 0, df = 0;
  for (bool upper : {false, true}) {
    std::vector<double> b, n;
    for (double v : log_medians(base)) {
      if ((v > split) == upper) b.push_back(v);
    }
    for (double v : log_medians(next)) {
      if ((v > split) == upper) n.push_back(v);
    }
    if (b.size() < 2 || n.size() < 2) continue;
    double mb = 0, mn = 0;
    ss += sum_sq(b, mb) + sum_sq(n, mn);
    df += static_cast<double>(b.size() + n.size() - 2);
    const double w = 1 / (1 / static_cast<double>(b.size()) + 1 / static_cast<double>(n.size()));
    wsum += w;
    dsum += w * (mn - mb);
  }
  if (wsum == 0) return std::nullopt;
  const double d = dsum / wsum;
  const double half = student_t_quantile(0.5 + o.confidence / 2, df) * std::sqrt(ss / df / wsum);
  return std::make_pair(d, std::make_pair(d - half, d + half));
}

// A slower (faster) verdict from runs in two levels stands only when it holds within the
// levels too: a change in how many runs landed at each level is not the code's.
bool holds_within_levels(const side& base, const side& next, const decide_options& o, verdict v, const two_levels& lv) {
  const auto w = within_levels(base, next, o, lv.split);
  if (!w) return false;
  const auto [d, iv] = *w;
  if (v == verdict::slower) return std::expm1(d) >= o.threshold * (1 - 1e-9) && std::expm1(iv.first) > o.margin;
  return std::expm1(d) <= -o.threshold * (1 - 1e-9) && std::expm1(iv.second) < -o.margin;
}

// The median clock of a side's runs, else the clock its files measured at the start.
double side_clock(const side& s) {
  std::vector<double> c;
  for (const run* r : s.runs) {
    if (std::isfinite(r->sm_clock_mhz)) c.push_back(r->sm_clock_mhz);
  }
  return c.empty() ? s.reference_clock_mhz : median_of(std::move(c));
}

std::string throttle_of(const side& s) {
  std::string out;
  for (const run* r : s.runs) {
    if (!r->throttle.empty() && out.find(r->throttle) == std::string::npos)
      out += fmt::format("{}{}", out.empty() ? "" : ",", r->throttle);
  }
  return out;
}

bool unconverged(const side& s) {
  return std::any_of(s.runs.begin(), s.runs.end(), [](const run* r) { return !r->converged; });
}

// The centre the calibrated interval is about: the exp of the trimmed mean of the runs' log
// medians (the median of a few runs' medians jumps between the levels of a row that has two).
double trimmed_centre(const side& s) { return std::exp(trimmed_logs(s).centre); }

// A side without its throttled runs.
side unthrottled_runs(const side& s) {
  side out = s;
  out.runs.clear();
  for (const run* r : s.runs) {
    if (r->throttle.empty()) out.runs.push_back(r);
  }
  return out;
}

// A calibrated verdict may stand although some runs were throttled, when it is the same
// verdict without them: it then does not rest on those runs. Each side keeps at least two
// runs, so that it still measures its spread.
bool holds_without_suspect_runs(const side& base, const side& next, const decide_options& o, verdict v) {
  const side b = unthrottled_runs(base), n = unthrottled_runs(next);
  if (b.runs.size() < 2 || n.runs.size() < 2) return false;
  const double d = std::log(trimmed_centre(n) / trimmed_centre(b));
  if (std::abs(std::expm1(d)) < o.threshold * (1 - 1e-9)) return false;
  const auto [lo, hi] = calibrated_interval(b, n, o, d);
  return v == verdict::slower ? std::expm1(lo) > o.margin : std::expm1(hi) < -o.margin;
}

bool at_timer_floor(const side& s) {
  return std::any_of(s.runs.begin(), s.runs.end(), [](const run* r) { return r->at_timer_floor; });
}

// Whether a change in `sign`'s direction clears the test: at least the threshold, its
// interval beyond the margin on that side.
bool clears_test(double change, double low, double high, double sign, const decide_options& o) {
  if (!(std::abs(change) >= o.threshold * (1 - 1e-9)) || (change > 0) != (sign > 0)) return false;
  if (std::isnan(low)) return false;  // no interval: nothing clears
  return sign > 0 ? low > o.margin : high < -o.margin;
}

// The change in cycles: each side's time at its SM clock. A change in time that the
// clocks explain (a row that scales with the SM clock, on a GPU that ran slower) is no
// change in cycles; one in cycles that the clocks explain (a memory-bound row) is none
// in time. Where clocks are no reason (fleet), none.
void in_cycles(decision& out, const decide_options& o) {
  if (!std::isfinite(o.clock_tolerance) || !(out.base_clock_mhz > 0) || !(out.new_clock_mhz > 0)) return;
  const double ratio = out.new_clock_mhz / out.base_clock_mhz;
  out.cycles_change = (1 + out.change) * ratio - 1;
  out.cycles_low = (1 + out.low) * ratio - 1;  // NAN stays NAN
  out.cycles_high = (1 + out.high) * ratio - 1;
}

// The reasons from the runs' state: throttled, unconverged, host work of one run a side.
void state_reasons(reasons& why, const decision& out, const side& base, const side& next,
                   const decide_options& o) {
  const side* cal = calibrating_side(base, next, o);
  const std::string tb = throttle_of(base), tn = throttle_of(next);
  // With measured spreads, a run that did not converge is one more run whose median is
  // less precise: its imprecision is part of the runs' spread the interval already carries.
  // Throttled runs were measured in another state: the verdict stands only when the
  // unthrottled runs alone give it too.
  const bool throttled = !tb.empty() || !tn.empty();
  const bool tolerated = cal != nullptr && throttled && why.empty() &&
                         holds_without_suspect_runs(base, next, o, out.change > 0 ? verdict::slower : verdict::faster);
  if (throttled && !tolerated) {
    why.add(reason_code::throttled, fmt::format("throttled ({}{}{})", tb.empty() ? "" : "base: " + tb,
                                  !tb.empty() && !tn.empty() ? ", " : "", tn.empty() ? "" : "new: " + tn));
  }
  if (cal == nullptr && (unconverged(base) || unconverged(next))) why.add(reason_code::not_converged, "not converged");
  // Host work moves from run to run by more than any sample shows (5-35 % between two runs
  // of one commit on an H100): one run a side cannot tell that from a change.
  if (!cal && work_of(base, next) == run::work_kind::host && (run_count(base) < 2 || run_count(next) < 2))
    why.add(reason_code::host_one_run, fmt::format("host work, one run a side ({})", o.more_runs));
}

// The clocks' reason, one at most: a change in time that clears the test must clear it in
// cycles too ("clock: ..."); otherwise clocks further apart than the tolerance are still a
// different state of the GPU ("clocks differ").
void clock_reasons(reasons& why, const decision& out, const decide_options& o, bool clears) {
  if (clears && !std::isnan(out.cycles_change) &&
      !clears_test(out.cycles_change, out.cycles_low, out.cycles_high, out.change, o)) {
    why.add(reason_code::clock_in_cycles, fmt::format("clock: {:+.1f} % in time, {:+.1f} % in cycles ({:.0f} vs {:.0f} MHz)",
                                  100 * out.change, 100 * out.cycles_change, out.base_clock_mhz, out.new_clock_mhz));
  } else if (std::abs(out.new_clock_mhz / out.base_clock_mhz - 1) > o.clock_tolerance) {
    why.add(reason_code::clocks_differ, fmt::format("clocks differ ({:.0f} vs {:.0f} MHz)", out.base_clock_mhz, out.new_clock_mhz));
  }
}

}  // namespace

const char* to_string(verdict v) noexcept {
  switch (v) {
    case verdict::same: return "same";
    case verdict::faster: return "faster";
    case verdict::slower: return "slower";
    case verdict::unsure: return "unsure";
  }
  return "?";
}

const char* to_string(evidence e) noexcept {
  switch (e) {
    case evidence::samples: return "samples";
    case evidence::intervals: return "intervals";
    case evidence::noise: return "noise";
    case evidence::repetitions: return "repetitions";
    case evidence::runs: return "runs";
    case evidence::none: return "none";
  }
  return "?";
}

void add_to_side(side& s, const result& r, const result_file& file) {
  s.ci_level = file.ci_level();
  if (std::isnan(s.reference_clock_mhz)) s.reference_clock_mhz = file.reference_clock_mhz();
  // The coarsest timer of the side's files: a change must be resolved by every one of them.
  const double step = file.timer_resolution_us();
  if (std::isnan(s.timer_resolution_us) || step > s.timer_resolution_us) s.timer_resolution_us = step;
  if (r.runs.empty()) {
    s.aggregate_us = r.time_us;
    s.aggregate_cv = r.rep_cv;
    s.aggregate_count = r.rep_count;
    return;
  }
  for (const run& x : r.runs) s.runs.push_back(&x);
}

namespace {

// decide on the sides' runs as they are (of one figure).
decision decide_figure(const side& base, const side& next, const decide_options& o, std::string_view name) {
  decision out;
  const side* cal = calibrating_side(base, next, o);
  out.base_us = cal ? trimmed_centre(base) : side_centre(base);
  out.new_us = cal ? trimmed_centre(next) : side_centre(next);
  out.change = out.new_us / out.base_us - 1;
  const double d = std::log(out.new_us / out.base_us);
  out.from = cal ? evidence::runs : shared_evidence(base, next);
  if (cal) {
    const auto [lo, hi] = calibrated_interval(base, next, o, d);
    out.low = std::expm1(lo);
    out.high = std::expm1(hi);
  } else if (out.from != evidence::none) {
    const auto [lo, hi] = out.from == evidence::samples ? bootstrap_interval(base, next, o, d, name)
                                                        : normal_interval(base, next, out.from, o, d);
    out.low = std::expm1(lo);
    out.high = std::expm1(hi);
  }
  judge_change(out, base, next, o);
  return out;
}

}  // namespace

decision decide(const side& base, const side& next, const decide_options& o, std::string_view name) {
  if (better_figure(base, next) == figure::single) return decide_figure(base, next, o, name);
  decision out = decide_figure(batch_side(base), batch_side(next), o, name);
  out.fig = figure::batch;
  return out;
}

void judge_change(decision& out, const side& base, const side& next, const decide_options& o) {
  const side* cal = calibrating_side(base, next, o);
  out.base_clock_mhz = side_clock(base);
  out.new_clock_mhz = side_clock(next);
  out.resolution_us = resolved_us(base, next, o);
  in_cycles(out, o);
  if (std::abs(out.change) < o.threshold * (1 - 1e-9)) return;  // same

  reasons& why = out.why;
  if (at_timer_floor(base) || at_timer_floor(next)) why.add(reason_code::timer_floor, "at the timer's floor");
  const bool clears = out.from != evidence::none && clears_test(out.change, out.low, out.high, out.change, o);
  // Within the sides' own intervals but above the timer's step, a change that does not
  // clear the test is too noisy, not too small: the interval says so already.
  const double moved = std::abs(out.new_us - out.base_us);
  if (moved < out.resolution_us && (clears || out.from == evidence::none || moved < timer_floor_us(base, next, o)))
    why.add(reason_code::too_small, "too small");
  if (out.from == evidence::none) {
    why.add(reason_code::no_spread, "no spread (one run a side, no samples or interval)");
  } else if (!clears) {
    if (cal) {
      why.add(reason_code::too_noisy, fmt::format("too noisy (runs spread {:.1f} % over {})",
                                    100 * std::sqrt(trimmed_logs(*cal).wvar), cal->runs.size()));
    } else {
      why.add(reason_code::too_noisy, "too noisy");
    }
  }
  state_reasons(why, out, base, next, o);
  clock_reasons(why, out, o, clears);
  if (why.empty() && cal != nullptr) {
    const verdict v = out.change > 0 ? verdict::slower : verdict::faster;
    const two_levels lv = find_two_levels(base, next, o.threshold);
    if (lv.found && !holds_within_levels(base, next, o, v, lv)) {
      why.add(reason_code::two_levels, fmt::format("two levels ({:.4g} and {:.4g} us) in different shares of the runs, not {} within a level",
                                    lv.low_us, lv.high_us, to_string(v)));
    }
  }
  out.v = why.empty() ? (out.change > 0 ? verdict::slower : verdict::faster) : verdict::unsure;
}

}  // namespace membench::report
