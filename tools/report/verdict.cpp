#include "verdict.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "common/stats.hpp"

namespace membench::report {
namespace {

// ---------------------------------------------------------------------------------------
// A small seeded generator: the same draws on every platform and standard library.

class seeded_rng {
 public:
  explicit seeded_rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {  // splitmix64
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1p-53; }  // (0, 1)
  double normal() {  // Marsaglia's polar method
    if (spare_) {
      spare_ = false;
      return saved_;
    }
    double u = 0, v = 0, s = 0;
    do {
      u = 2 * uniform() - 1;
      v = 2 * uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    const double f = std::sqrt(-2 * std::log(s) / s);
    saved_ = v * f;
    spare_ = true;
    return u * f;
  }
  double gamma(double shape) {  // Marsaglia and Tsang, shape >= 1
    const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
    while (true) {
      double x = 0, v = 0;
      do {
        x = normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const double u = uniform();
      if (u < 1 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) return d * v;
    }
  }
  double beta(double a, double b) {
    const double x = gamma(a);
    return x / (x + gamma(b));
  }

 private:
  std::uint64_t state_;
  bool spare_ = false;
  double saved_ = 0;
};

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

// The median of a resample (n draws with replacement) of sorted samples, drawn directly:
// the k-th smallest of n uniform draws is Beta(k, n + 1 - k).
double bootstrap_median(const std::vector<double>& sorted, seeded_rng& rng) {
  const std::size_t n = sorted.size();
  auto at = [&](double u) { return sorted[std::min(n - 1, static_cast<std::size_t>(u * static_cast<double>(n)))]; };
  const std::size_t k = (n + 1) / 2;
  const double u = rng.beta(static_cast<double>(k), static_cast<double>(n + 1 - k));
  if (n % 2 == 1) return at(u);
  // Even n: the next order statistic is the smallest of the n - k draws above u.
  const double above = u + (1 - u) * (1 - std::pow(rng.uniform(), 1.0 / static_cast<double>(n - k)));
  return 0.5 * (at(u) + at(above));
}

double side_centre(const side& s) {
  if (s.runs.empty()) return s.aggregate_us;
  std::vector<double> t;
  for (const run* r : s.runs) t.push_back(r->time_us);
  return median_of(std::move(t));
}

// Runs whose spread is known: aggregates without their cv count as one.
std::size_t run_count(const side& s) {
  if (!s.runs.empty()) return s.runs.size();
  return s.aggregate_cv >= 0 ? static_cast<std::size_t>(std::max<std::int64_t>(1, s.aggregate_count)) : 1;
}

// Whether every run of a side carries this evidence.
bool carries(const side& s, evidence e) {
  if (s.runs.empty()) return false;
  return std::all_of(s.runs.begin(), s.runs.end(), [&](const run* x) {
    const run& r = *x;
    switch (e) {
      case evidence::samples: return r.samples_us.size() >= 5;
      case evidence::intervals: return r.ci_low_us > 0 && r.ci_high_us >= r.ci_low_us;
      case evidence::noise: return r.noise_pct >= 0 && r.sample_count >= 1;
      default: return false;
    }
  });
}

// The strongest evidence both sides carry.
evidence shared_evidence(const side& base, const side& next) {
  for (evidence e : {evidence::samples, evidence::intervals, evidence::noise}) {
    if (carries(base, e) && carries(next, e)) return e;
  }
  return run_count(base) >= 2 || run_count(next) >= 2 ? evidence::repetitions : evidence::none;
}

// The within-run variance of a run's log median, by the evidence both sides share.
double within_variance(const run& r, evidence e, double ci_level) {
  switch (e) {
    case evidence::intervals: {
      const double z = standard_normal_quantile(0.5 + ci_level / 2);
      const double half = (std::log(r.ci_high_us) - std::log(r.ci_low_us)) / (2 * z);
      return half * half;
    }
    case evidence::noise: {
      // The median of n samples spreads sqrt(pi/2) times the mean's sigma / sqrt(n).
      const double se = std::sqrt(std::acos(-1.0) / 2) * r.noise_pct / 100 / std::sqrt(r.sample_count);
      return se * se;
    }
    default: return 0;
  }
}

struct side_spread {
  double variance = 0;            // of the side's log centre
  double df = INFINITY;           // degrees of freedom behind it
  double between = NAN;           // sample variance of the runs' log medians, when there are several
};

side_spread spread_of(const side& s, evidence e, double run_spread) {
  side_spread out;
  const double k = static_cast<double>(run_count(s));
  double within = 0;
  if (s.runs.empty()) {
    if (s.aggregate_cv >= 0 && k >= 2) out.between = std::log1p(s.aggregate_cv) * std::log1p(s.aggregate_cv);
  } else {
    std::vector<double> logs;
    for (const run* r : s.runs) {
      logs.push_back(std::log(r->time_us));
      within += within_variance(*r, e, s.ci_level);
    }
    within /= k;
    if (logs.size() >= 2) {
      double mean = 0, sq = 0;
      for (double l : logs) mean += l;
      mean /= k;
      for (double l : logs) sq += (l - mean) * (l - mean);
      out.between = sq / (k - 1);
    }
  }
  const double floor = within + run_spread * run_spread;
  if (!std::isnan(out.between) && out.between > floor) {
    out.variance = out.between / k;
    out.df = k - 1;
  } else {
    out.variance = floor / k;
  }
  return out;
}

// The noisiest kind of work any run of either side times.
run::work_kind work_of(const side& base, const side& next) {
  run::work_kind w = run::work_kind::kernel;
  for (const side* s : {&base, &next}) {
    for (const run* r : s->runs) w = std::max(w, r->work);
  }
  return w;
}

// Its floor of run-to-run spread.
double run_spread_for(const side& base, const side& next, const decide_options& o) {
  return o.run_spread_of(work_of(base, next));
}

// The t interval of the log ratio (all evidence but samples).
std::pair<double, double> normal_interval(const side& base, const side& next, evidence e, const decide_options& o,
                                          double d) {
  const double floor = run_spread_for(base, next, o);
  side_spread b = spread_of(base, e, floor);
  side_spread n = spread_of(next, e, floor);
  // A side of one run has a run effect too: take it from the other side's runs when they show one.
  auto borrow = [](side_spread& one, const side_spread& other, const side& s) {
    if (run_count(s) == 1 && !std::isnan(other.between) && other.between > one.variance) {
      one.variance = other.between;
      one.df = other.df;
    }
  };
  borrow(b, n, base);
  borrow(n, b, next);
  const double var = b.variance + n.variance;
  double df_terms = 0;
  for (const side_spread* s : {&b, &n}) {
    if (std::isfinite(s->df) && s->df > 0) df_terms += s->variance * s->variance / s->df;
  }
  const double df = df_terms > 0 ? var * var / df_terms : INFINITY;
  const double half = student_t_quantile(0.5 + o.confidence / 2, df) * std::sqrt(var);
  return {d - half, d + half};
}

// The bootstrap interval of the log ratio of medians (samples on both sides).
std::pair<double, double> bootstrap_interval(const side& base, const side& next, const decide_options& o, double d,
                                             std::string_view name) {
  seeded_rng rng(fnv1a(name) ^ (o.seed * 0x9e3779b97f4a7c15ULL));
  auto sorted_runs = [](const side& s) {
    std::vector<std::vector<double>> v;
    for (const run* r : s.runs) {
      v.push_back(r->samples_us);
      std::sort(v.back().begin(), v.back().end());
    }
    return v;
  };
  const auto b = sorted_runs(base), n = sorted_runs(next);
  const double floor = run_spread_for(base, next, o);
  auto medians_of = [](const std::vector<std::vector<double>>& runs) {
    std::vector<double> m;
    for (const auto& r : runs) m.push_back(median_of(r));
    return median_of(std::move(m));
  };
  const double sample_d = std::log(medians_of(n) / medians_of(b));
  std::vector<double> picked, draws;
  draws.reserve(static_cast<std::size_t>(o.replicates));
  auto replicate = [&](const std::vector<std::vector<double>>& runs) {
    picked.clear();
    for (std::size_t i = 0; i < runs.size(); ++i) {
      // Several runs: resample the runs themselves (their spread is the run-to-run spread).
      const std::size_t j = runs.size() == 1 ? 0 : std::min(runs.size() - 1, static_cast<std::size_t>(rng.uniform() * static_cast<double>(runs.size())));
      picked.push_back(bootstrap_median(runs[j], rng) * std::exp(floor * rng.normal()));
    }
    return median_of(picked);
  };
  for (int i = 0; i < o.replicates; ++i) draws.push_back(std::log(replicate(n) / replicate(b)));
  std::sort(draws.begin(), draws.end());
  const double alpha = (1 - o.confidence) / 2;
  // The spread from the bootstrap, centred on the rows' own medians (the samples kept are
  // every k-th, their median close to but not the row's).
  double lo = quantile_sorted(draws, alpha), hi = quantile_sorted(draws, 1 - alpha);
  if (alpha * static_cast<double>(draws.size()) < 1) {
    // Not one draw in a tail (a level beyond what the replicates reach, as a correction for
    // very many rows asks): also a normal tail on the draws' spread, and the wider of the two.
    double mean = 0, sq = 0;
    for (double x : draws) mean += x;
    mean /= static_cast<double>(draws.size());
    for (double x : draws) sq += (x - mean) * (x - mean);
    const double half = standard_normal_quantile(1 - alpha) * std::sqrt(sq / static_cast<double>(draws.size() - 1));
    lo = std::min(lo, mean - half);
    hi = std::max(hi, mean + half);
  }
  return {d + lo - sample_d, d + hi - sample_d};
}

// A side's runs' log medians, 20 % trimmed (Yuen; Wilcox's usual amount): one process in
// eight that ran 2x slower (a pinned copy, once in fifteen on an H100) neither moves the
// centre nor widens the spread, while a shift of every run still shows in full.
struct trimmed {
  double centre = NAN;    ///< the trimmed mean of the log medians
  double wvar = NAN;      ///< their winsorized variance (NAN below two runs)
  std::size_t n = 0, h = 0;  ///< runs, and runs left after trimming
};

trimmed trimmed_logs(const side& s) {
  std::vector<double> x;
  for (const run* r : s.runs) x.push_back(std::log(r->time_us));
  std::sort(x.begin(), x.end());
  trimmed t;
  t.n = x.size();
  if (x.empty()) return t;
  const std::size_t g = static_cast<std::size_t>(std::floor(0.2 * static_cast<double>(t.n)));
  t.h = t.n - 2 * g;
  double sum = 0;
  for (std::size_t i = g; i < t.n - g; ++i) sum += x[i];
  t.centre = sum / static_cast<double>(t.h);
  if (t.n < 2) return t;
  for (std::size_t i = 0; i < g; ++i) {
    x[i] = x[g];
    x[t.n - 1 - i] = x[t.n - 1 - g];
  }
  double mean = 0, sq = 0;
  for (double v : x) mean += v;
  mean /= static_cast<double>(t.n);
  for (double v : x) sq += (v - mean) * (v - mean);
  t.wvar = sq / static_cast<double>(t.n - 1);
  return t;
}

// The side that measures the benchmark's run-to-run spread: the one with more runs, when
// it has at least calibration_runs of them.
const side* calibrating_side(const side& base, const side& next, const decide_options& o) {
  const side& more = next.runs.size() > base.runs.size() ? next : base;
  if (o.calibration_runs <= 0 || more.runs.size() < static_cast<std::size_t>(std::max(2, o.calibration_runs))) return nullptr;
  return &more;
}

// The interval of the log ratio from a measured run-to-run spread: Yuen's trimmed-means t
// interval with the two sides' winsorized variances pooled (a new side that spreads more
// widens it; a side of one run adds nothing). Below five runs nothing is trimmed and it is
// the plain pooled t interval.
std::pair<double, double> calibrated_interval(const side& base, const side& next, const decide_options& o, double d) {
  double sum = 0, df = 0, inv_h = 0;
  for (const side* s : {&base, &next}) {
    const trimmed t = trimmed_logs(*s);
    inv_h += 1 / static_cast<double>(t.h);
    if (!std::isfinite(t.wvar)) continue;
    sum += t.wvar * static_cast<double>(t.n - 1);
    df += static_cast<double>(t.h - 1);
  }
  const double pooled = sum / df;
  const double half = student_t_quantile(0.5 + o.confidence / 2, df) * std::sqrt(pooled * inv_h);
  return {d - half, d + half};
}

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
  if (r.runs.empty()) {
    s.aggregate_us = r.time_us;
    s.aggregate_cv = r.rep_cv;
    s.aggregate_count = r.rep_count;
    return;
  }
  for (const run& x : r.runs) s.runs.push_back(&x);
}

decision decide(const side& base, const side& next, const decide_options& o, std::string_view name) {
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
  out.base_clock_mhz = side_clock(base);
  out.new_clock_mhz = side_clock(next);
  if (std::abs(out.change) < o.threshold * (1 - 1e-9)) return out;  // same

  std::vector<std::string> reasons;
  if (std::abs(out.new_us - out.base_us) < o.resolution_us) reasons.emplace_back("too small");
  if (out.from == evidence::none) {
    reasons.emplace_back("no spread (one run a side, no samples or interval)");
  } else if (out.change > 0 ? !(out.low > o.margin) : !(out.high < -o.margin)) {
    if (cal) {
      reasons.push_back(fmt::format("too noisy (runs spread {:.1f} % over {})",
                                    100 * std::sqrt(trimmed_logs(*cal).wvar), cal->runs.size()));
    } else {
      reasons.emplace_back("too noisy");
    }
  }
  const std::string tb = throttle_of(base), tn = throttle_of(next);
  // With measured spreads, a run that did not converge is one more run whose median is
  // less precise: its imprecision is part of the runs' spread the interval already carries.
  // Throttled runs were measured in another state: the verdict stands only when the
  // unthrottled runs alone give it too.
  const bool throttled = !tb.empty() || !tn.empty();
  const bool tolerated = cal != nullptr && throttled && reasons.empty() &&
                         holds_without_suspect_runs(base, next, o, out.change > 0 ? verdict::slower : verdict::faster);
  if (throttled && !tolerated) {
    reasons.push_back(fmt::format("throttled ({}{}{})", tb.empty() ? "" : "base: " + tb,
                                  !tb.empty() && !tn.empty() ? ", " : "", tn.empty() ? "" : "new: " + tn));
  }
  if (cal == nullptr && (unconverged(base) || unconverged(next))) reasons.emplace_back("not converged");
  // Host work moves from run to run by more than any sample shows (5-35 % between two runs
  // of one commit on an H100): one run a side cannot tell that from a change.
  if (!cal && work_of(base, next) == run::work_kind::host && (run_count(base) < 2 || run_count(next) < 2))
    reasons.emplace_back("host work, one run a side (give several --base and --new runs)");
  if (std::abs(out.new_clock_mhz / out.base_clock_mhz - 1) > o.clock_tolerance)
    reasons.push_back(fmt::format("clocks differ ({:.0f} vs {:.0f} MHz)", out.base_clock_mhz, out.new_clock_mhz));
  if (reasons.empty() && cal != nullptr) {
    const verdict v = out.change > 0 ? verdict::slower : verdict::faster;
    const two_levels lv = find_two_levels(base, next, o.threshold);
    if (lv.found && !holds_within_levels(base, next, o, v, lv)) {
      reasons.push_back(fmt::format("two levels ({:.4g} and {:.4g} us) in different shares of the runs, not {} within a level",
                                    lv.low_us, lv.high_us, to_string(v)));
    }
  }
  if (reasons.empty()) {
    out.v = out.change > 0 ? verdict::slower : verdict::faster;
    return out;
  }
  out.v = verdict::unsure;
  for (const auto& r : reasons) out.reason += (out.reason.empty() ? "" : "; ") + r;
  return out;
}

}  // namespace membench::report
