// fleet's per-GPU test: a GPU's score on a scope, the names, the variance of a score, the rows
// a GPU failed (scores.hpp, gpu_test.hpp).
#include "fleet/scores.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "common/stats.hpp"

namespace membench::report::fleet_test {
namespace detail {
namespace {

// A run's mean deviation over a scope's rows, where it has at least half of them.
double run_score(const matrix::gpu& g, std::size_t run, const scope_ref& sc, const std::vector<double>& centre,
                 std::size_t rows) {
  double sum = 0, weight = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < sc.rows.size(); ++i) {
    const std::size_t r = sc.rows[i];
    const double v = g.at(run, r, rows);
    if (std::isnan(v)) continue;
    const double w = sc.weights.empty() ? 1.0 : sc.weights[i];
    sum += w * (v - centre[r]);
    weight += w;
    ++n;
  }
  return n > 0 && 2 * n >= sc.rows.size() && weight > 0 ? sum / weight : NAN;
}


}  // namespace

// The runs' scores in one: their mean, their median from three runs, their 20 % trimmed mean
// from five (a run of a process that went wrong does not move it), and their sample variance
// (pooled over GPUs by its median, which a GPU with such a run does not move either).
score score_of(const matrix::gpu& g, const scope_ref& sc, const std::vector<double>& centre, std::size_t rows) {
  std::vector<double> s;
  for (std::size_t k = 0; k < g.runs; ++k) {
    const double v = run_score(g, k, sc, centre, rows);
    if (!std::isnan(v)) s.push_back(v);
  }
  score out;
  out.runs = static_cast<int>(s.size());
  if (s.empty()) return out;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  // Three or four runs: their median; from five, the 20 % trimmed mean.
  const std::size_t cut = n >= 5 ? n / 5 : n >= 3 ? (n - 1) / 2 : 0;
  double sum = 0, all = 0;
  for (std::size_t k = cut; k < n - cut; ++k) sum += s[k];
  for (double v : s) all += v;
  out.mean = sum / static_cast<double>(n - 2 * cut);
  if (n < 2) return out;
  const double mean = all / static_cast<double>(n);
  double sq = 0;
  for (double v : s) sq += (v - mean) * (v - mean);
  out.within = sq / static_cast<double>(n - 1);
  return out;
}

// How much more a score of n runs varies than their plain mean (sigma^2 / n), for normal runs:
// the mean below three runs, the median of three (1.35), the mean of the middle two of four
// (1.19), the 20 % trimmed mean (1.06 asymptotically; more with few runs).
double estimator_factor(double n) {
  if (n < 3) return 1;
  if (n < 4) return 1.346;
  if (n < 5) return 1.19;
  return n < 10 ? 1.1 : 1.064;
}


double log_threshold(const settings& s, const scope_ref& sc) { return std::log1p(s.threshold_pct(sc.p, sc.kind) / 100); }

// Whether a GPU fails more than the settings' share of a part's rows; host rows only where
// the host is judged (a row of host work unconverged in both of two runs is common).
bool failing(const matrix::gpu& g, const std::vector<row_meta>& rows, part p, const settings& s) {
  const auto n = std::count_if(rows.begin(), rows.end(), [p](const row_meta& r) { return r.p == p; });
  if (p == part::host && runs_with(g, rows, p) < s.host_runs) return false;
  return n > 0 && failed_rows(g, rows, p) > s.fail_share * static_cast<double>(n);
}


}  // namespace detail

const char* to_string(part p) noexcept { return p == part::gpu ? "gpu" : "host"; }

const char* to_string(scope_kind k) noexcept {
  switch (k) {
    case scope_kind::all: return "all";
    case scope_kind::family: return "family";
    case scope_kind::row: return "row";
  }
  return "?";
}

const char* to_string(verdict v) noexcept {
  switch (v) {
    case verdict::pass: return "pass";
    case verdict::slow: return "slow";
    case verdict::failing: return "failing";
    case verdict::undecided: return "undecided";
    case verdict::not_judged: return "not judged";
  }
  return "?";
}

double settings::threshold_pct(part p, scope_kind k) const {
  if (p == part::host) return k == scope_kind::row ? host_row_pct : host_all_pct;
  return k == scope_kind::all ? all_pct : k == scope_kind::family ? family_pct : row_pct;
}

std::string describe(const scope_ref& s) {
  if (s.kind == scope_kind::all) return fmt::format("all {}-work rows", s.p == part::gpu ? "GPU" : "host");
  // A level's rows stand in a family's place under fleet --by=level: "level L2 far".
  if (s.kind == scope_kind::family && s.name.starts_with("level ")) return s.name;
  return fmt::format("{} {}", to_string(s.kind), s.name);
}

double scope_ref::centre_variance() const {
  if (gpus < 1) return 0;
  // The median of the majority group's scores (all of them where the scope splits).
  const int n = split || majority < 1 ? gpus : majority;
  return std::acos(-1.0) / 2 * (between + run_variance(typical_runs)) / n;
}

double scope_ref::run_variance(double n) const {
  return (n < 3 ? std::max(within, within_tail) : within) * detail::estimator_factor(n) / n;
}


double finding::change() const { return std::expm1(deviation); }

int runs_with(const matrix::gpu& g, const std::vector<row_meta>& rows, part p) {
  int n = 0;
  for (std::size_t k = 0; k < g.runs; ++k) {
    bool any = false;
    for (std::size_t r = 0; r < rows.size() && !any; ++r) any = rows[r].p == p && !std::isnan(g.at(k, r, rows.size()));
    n += any;
  }
  return n;
}

std::string level_without_time(const matrix::gpu& g, const std::vector<row_meta>& rows, part p) {
  std::map<std::string_view, bool> timed;  // per level group of the part: any row with a time
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].p != p || !rows[r].family.starts_with("level ")) continue;
    bool& any = timed[rows[r].family];
    for (std::size_t k = 0; k < g.runs && !any; ++k) any = !std::isnan(g.at(k, r, rows.size()));
  }
  for (const auto& [level, any] : timed) {
    if (!any) return std::string(level);
  }
  return "";
}

int failed_rows(const matrix::gpu& g, const std::vector<row_meta>& rows, part p) {
  int failed = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].p != p) continue;
    bool any = false;
    for (std::size_t k = 0; k < g.runs && !any; ++k) any = !std::isnan(g.at(k, r, rows.size()));
    failed += !any;
  }
  return failed;
}
}  // namespace membench::report::fleet_test
