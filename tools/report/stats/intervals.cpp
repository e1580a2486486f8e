// The interval of a change from the evidence both sides carry: a seeded bootstrap of the
// ratio of medians (samples), a t interval on the log ratio (intervals, noise, repetitions),
// or Yuen's trimmed-means interval from a measured run-to-run spread (runs).
#include "stats/intervals.hpp"

#include <algorithm>
#include <cmath>

#include "common/stats.hpp"

namespace membench::report::detail {

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

}  // namespace

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

namespace {

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

}  // namespace

// The strongest evidence both sides carry.
evidence shared_evidence(const side& base, const side& next) {
  for (evidence e : {evidence::samples, evidence::intervals, evidence::noise}) {
    if (carries(base, e) && carries(next, e)) return e;
  }
  return run_count(base) >= 2 || run_count(next) >= 2 ? evidence::repetitions : evidence::none;
}

evidence own_evidence(const side& s) {
  for (evidence e : {evidence::intervals, evidence::noise}) {
    if (carries(s, e)) return e;
  }
  return run_count(s) >= 2 ? evidence::repetitions : evidence::none;
}

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

double log_sum_sq(const side& s) {
  if (s.runs.size() < 2) return 0;
  double mean = 0, sq = 0;
  for (const run* r : s.runs) mean += std::log(r->time_us);
  mean /= static_cast<double>(s.runs.size());
  for (const run* r : s.runs) sq += (std::log(r->time_us) - mean) * (std::log(r->time_us) - mean);
  return sq;
}

namespace {

// The runs' own variance of their log medians (from `e`), on average.
double mean_within(const side& s, evidence e) {
  if (s.runs.empty()) return 0;
  double within = 0;
  for (const run* r : s.runs) within += within_variance(*r, e, s.ci_level);
  return within / static_cast<double>(s.runs.size());
}

// The variance of the centre of k runs: a measured run-to-run variance `between` (on `df`
// degrees of freedom) where it exceeds the floor (their own variance plus the assumed
// spread), else the floor.
side_spread larger_of(double between, double df, double floor, double k) {
  side_spread out;
  out.between = between;
  if (!std::isnan(between) && between > floor) {
    out.variance = between / k;
    out.df = df;
  } else {
    out.variance = floor / k;
  }
  return out;
}

}  // namespace

side_spread spread_of(const side& s, evidence e, double run_spread) {
  const double k = static_cast<double>(run_count(s));
  double between = NAN;
  if (s.runs.empty()) {
    if (s.aggregate_cv >= 0 && k >= 2) between = std::log1p(s.aggregate_cv) * std::log1p(s.aggregate_cv);
  } else if (s.runs.size() >= 2) {
    between = log_sum_sq(s) / (k - 1);
  }
  return larger_of(between, k - 1, mean_within(s, e) + run_spread * run_spread, k);
}

side_spread pooled_spread_of(const side& s, evidence e, double run_spread, double pooled, double df) {
  return larger_of(df > 0 ? pooled : NAN, df, mean_within(s, e) + run_spread * run_spread,
                   static_cast<double>(run_count(s)));
}

std::pair<double, double> t_interval(const side_spread& a, const side_spread& b, double confidence, double d) {
  const double var = a.variance + b.variance;
  double df_terms = 0;
  for (const side_spread* s : {&a, &b}) {
    if (std::isfinite(s->df) && s->df > 0) df_terms += s->variance * s->variance / s->df;
  }
  const double df = df_terms > 0 ? var * var / df_terms : INFINITY;
  const double half = student_t_quantile(0.5 + confidence / 2, df) * std::sqrt(var);
  return {d - half, d + half};
}

// The noisiest kind of work any run of either side times.
run::work_kind work_of(const side& base, const side& next) {
  run::work_kind w = run::work_kind::kernel;
  for (const side* s : {&base, &next}) {
    for (const run* r : s->runs) w = std::max(w, r->work);
  }
  return w;
}

namespace {

// Its floor of run-to-run spread, relative to the base's centre of the figure decided on
// (the absolute part weighs most on the shortest figure).
double run_spread_for(const side& base, const side& next, const decide_options& o) {
  return o.run_spread_at(work_of(base, next), side_centre(base));
}

}  // namespace

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
  return t_interval(b, n, o.confidence, d);
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

}  // namespace membench::report::detail
