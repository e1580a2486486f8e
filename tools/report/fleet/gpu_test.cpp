// fleet's per-GPU test (gpu_test.hpp): scores, the reference's variance components, verdicts.
#include "fleet/gpu_test.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "common/stats.hpp"

namespace membench::report::fleet_test {
namespace {

constexpr double mad_to_sd = 1.4826;  // the normal's sd from its median absolute deviation

// One GPU's score on one scope: the mean over its runs of the run's mean deviation.
struct score {
  double mean = NAN;    ///< log
  double within = NAN;  ///< its runs' sample variance (NaN below two runs)
  int runs = 0;
};

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

// The median of chi-square with df degrees of freedom over df (Wilson-Hilferty): the median of
// sample variances is this fraction of the variance they estimate.
double chi2_median_ratio(double df) {
  if (!(df > 0)) return 1;
  const double a = 2 / (9 * df);
  return std::pow(1 - a, 3);
}

// The largest group of sorted values that agree within `width`: its first and one past its
// last index. Among groups of one size, the one whose median is nearest the overall median.
std::pair<std::size_t, std::size_t> largest_group(const std::vector<double>& sorted, double width) {
  const double overall = quantile_sorted(sorted, 0.5);
  std::size_t best_lo = 0, best_hi = 0;
  double best_dist = INFINITY;
  for (std::size_t lo = 0, hi = 0; lo < sorted.size(); ++lo) {
    hi = std::max(hi, lo);
    while (hi < sorted.size() && sorted[hi] - sorted[lo] <= width) ++hi;
    const double dist = std::abs(quantile_sorted(std::span(sorted).subspan(lo, hi - lo), 0.5) - overall);
    if (hi - lo > best_hi - best_lo || (hi - lo == best_hi - best_lo && dist < best_dist)) {
      best_lo = lo;
      best_hi = hi;
      best_dist = dist;
    }
  }
  return {best_lo, best_hi};
}

// The variance no score of the scope is judged with less than: the timer's step over its
// rows (a uniform step's variance, step^2 / 12, through the rows' weights) and the numerics floor.
double floor_of(const scope_ref& sc, const std::vector<row_meta>& rows, double floor_sd) {
  double sq = 0, total = 0;
  for (std::size_t i = 0; i < sc.rows.size(); ++i) {
    const double w = sc.weights.empty() ? 1.0 : sc.weights[i];
    const double step = rows[sc.rows[i]].step;
    sq += w * w * step * step / 12;
    total += w;
  }
  return floor_sd * floor_sd + (total > 0 ? sq / (total * total) : 0);
}

// A scope's centre and variance components from the scores of the GPUs that have one.
void measure_scope(scope_ref& sc, const std::vector<score>& scores, double width) {
  std::vector<double> means, withins, runs, within_runs;
  double sum_sq = 0, sum_df = 0;
  for (const score& x : scores) {
    if (x.runs == 0) continue;
    means.push_back(x.mean);
    runs.push_back(x.runs);
    if (x.runs < 2) continue;
    withins.push_back(x.within);
    within_runs.push_back(x.runs);
    sum_sq += x.within * (x.runs - 1);
    sum_df += x.runs - 1;
  }
  sc.gpus = static_cast<int>(means.size());
  if (means.empty()) return;
  std::sort(means.begin(), means.end());
  const auto [lo, hi] = largest_group(means, width);
  sc.majority = static_cast<int>(hi - lo);
  // A host row's healthy spread can exceed any threshold (a driver call's time depends on the
  // host and its neighbours: cudaMalloc ran 37-60 us on some hosts, 143-161 us on others), so
  // a split there is no evidence against a GPU; GPU work and host work as a whole are judged
  // for splits.
  sc.split = !(sc.p == part::host && sc.kind == scope_kind::row) && 2 * sc.majority <= sc.gpus;
  sc.centre = sc.split ? quantile_sorted(means, 0.5) : quantile_sorted(std::span(means).subspan(lo, hi - lo), 0.5);
  std::vector<double> dev;
  for (double m : means) dev.push_back(std::abs(m - sc.centre));
  const double spread = mad_to_sd * median_of(std::move(dev));
  sc.typical_runs = median_of(runs);
  sc.within = 0;
  // The median of the GPUs' sample variances, on the degrees of freedom of the GPUs that gave them.
  if (!withins.empty()) sc.within = median_of(withins) / chi2_median_ratio(median_of(within_runs) - 1);
  sc.within_tail = std::max(sc.within, sum_df > 0 ? sum_sq / sum_df : 0.0);
  sc.between = std::max(0.0, spread * spread - sc.run_variance(sc.typical_runs));
}

double log_threshold(const settings& s, const scope_ref& sc) { return std::log1p(s.threshold_pct(sc.p, sc.kind) / 100); }

}  // namespace

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
  return fmt::format("{} {}", to_string(s.kind), s.name);
}

double scope_ref::centre_variance() const {
  if (gpus < 1) return 0;
  // The median of the majority group's scores (all of them where the scope splits).
  const int n = split || majority < 1 ? gpus : majority;
  return std::acos(-1.0) / 2 * (between + run_variance(typical_runs)) / n;
}

double scope_ref::run_variance(double n) const {
  return (n < 3 ? std::max(within, within_tail) : within) * estimator_factor(n) / n;
}

int reference::scope_count(part p) const {
  return static_cast<int>(std::count_if(scopes.begin(), scopes.end(), [p](const scope_ref& s) { return s.p == p; }));
}

double finding::change() const { return std::expm1(deviation); }

void weigh_scopes(reference& ref) {
  std::vector<double> variance(ref.rows.size(), NAN);
  for (const scope_ref& sc : ref.scopes) {
    if (sc.kind == scope_kind::row && sc.gpus > 0)
      variance[sc.rows.front()] = sc.between + sc.run_variance(sc.typical_runs) + sc.floor;
  }
  for (scope_ref& sc : ref.scopes) {
    sc.weights.clear();
    if (sc.kind == scope_kind::row) continue;
    for (std::size_t r : sc.rows) sc.weights.push_back(variance[r] > 0 ? 1 / variance[r] : 0.0);
    // A row without a measured spread (no GPU has it) weighs nothing; none measured: equal.
    if (std::none_of(sc.weights.begin(), sc.weights.end(), [](double w) { return w > 0; })) sc.weights.clear();
  }
}

std::vector<scope_ref> scopes_of(const std::vector<row_meta>& rows) {
  std::vector<scope_ref> out;
  for (part p : {part::gpu, part::host}) {
    scope_ref all{scope_kind::all, p, "all", {}};
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (rows[r].p == p) all.rows.push_back(r);
    }
    if (!all.rows.empty()) out.push_back(std::move(all));
  }
  std::map<std::string, std::vector<std::size_t>> families;
  std::vector<std::string> order;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].p != part::gpu) continue;
    auto [it, fresh] = families.try_emplace(rows[r].family);
    if (fresh) order.push_back(rows[r].family);
    it->second.push_back(r);
  }
  for (const std::string& f : order) {
    if (families[f].size() >= 2) out.push_back({scope_kind::family, part::gpu, f, families[f]});
  }
  for (std::size_t r = 0; r < rows.size(); ++r) out.push_back({scope_kind::row, rows[r].p, rows[r].name, {r}});
  return out;
}

int runs_with(const matrix::gpu& g, const std::vector<row_meta>& rows, part p) {
  int n = 0;
  for (std::size_t k = 0; k < g.runs; ++k) {
    bool any = false;
    for (std::size_t r = 0; r < rows.size() && !any; ++r) any = rows[r].p == p && !std::isnan(g.at(k, r, rows.size()));
    n += any;
  }
  return n;
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

namespace {

// Whether a GPU fails more than the settings' share of a part's rows; host rows only where
// the host is judged (a row of host work unconverged in both of two runs is common).
bool failing(const matrix::gpu& g, const std::vector<row_meta>& rows, part p, const settings& s) {
  const auto n = std::count_if(rows.begin(), rows.end(), [p](const row_meta& r) { return r.p == p; });
  if (p == part::host && runs_with(g, rows, p) < s.host_runs) return false;
  return n > 0 && failed_rows(g, rows, p) > s.fail_share * static_cast<double>(n);
}

}  // namespace

reference reference_of(const matrix& m, const settings& s) {
  // Each part's reference is the GPUs' that do not fail it: a GPU failing its host rows still
  // measures its GPU work.
  std::vector<bool> ok[part_count];
  for (part p : {part::gpu, part::host}) {
    for (const matrix::gpu& g : m.gpus) ok[static_cast<int>(p)].push_back(!failing(g, m.rows, p, s));
  }
  reference ref;
  ref.rows = m.rows;
  for (int p = 0; p < part_count; ++p)
    ref.part_gpus[p] = static_cast<int>(std::count(ok[p].begin(), ok[p].end(), true));
  ref.gpus = ref.part_gpus[static_cast<int>(part::gpu)];
  const std::size_t rows = m.rows.size();
  ref.row_centre.assign(rows, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::vector<bool>& mine = ok[static_cast<int>(m.rows[r].p)];
    std::vector<double> means;
    for (std::size_t gi = 0; gi < m.gpus.size(); ++gi) {
      if (!mine[gi]) continue;
      double sum = 0;
      int n = 0;
      for (std::size_t k = 0; k < m.gpus[gi].runs; ++k) {
        const double v = m.gpus[gi].at(k, r, rows);
        if (!std::isnan(v)) sum += v, ++n;
      }
      if (n > 0) means.push_back(sum / n);
    }
    if (!means.empty()) ref.row_centre[r] = median_of(std::move(means));
  }
  ref.scopes = scopes_of(m.rows);
  auto measure = [&](scope_ref& sc) {
    const std::vector<bool>& mine = ok[static_cast<int>(sc.p)];
    std::vector<score> scores;
    for (std::size_t gi = 0; gi < m.gpus.size(); ++gi) {
      if (mine[gi]) scores.push_back(score_of(m.gpus[gi], sc, ref.row_centre, rows));
    }
    measure_scope(sc, scores, log_threshold(s, sc));
    sc.floor = floor_of(sc, m.rows, s.floor_sd);
  };
  // The rows first: their spreads weigh the rows of the scopes that average several.
  for (scope_ref& sc : ref.scopes) {
    if (sc.kind == scope_kind::row) measure(sc);
  }
  weigh_scopes(ref);
  for (scope_ref& sc : ref.scopes) {
    if (sc.kind != scope_kind::row) measure(sc);
  }
  return ref;
}

double critical_z(const settings& s, int scopes) {
  return standard_normal_quantile(1 - s.alpha / std::max(1, scopes));
}

namespace {

finding find(const score& x, const scope_ref& sc, std::size_t index, double z_crit, const settings& s) {
  finding f;
  f.scope = index;
  f.runs = x.runs;
  f.deviation = x.mean - sc.centre;
  f.sd = std::sqrt(sc.between + sc.run_variance(x.runs) + sc.centre_variance() + std::max(sc.floor, s.floor_sd * s.floor_sd));
  f.z = f.deviation / f.sd;
  const double t = log_threshold(s, sc);
  f.slower = f.z > z_crit && f.deviation > t;
  f.faster = f.z < -z_crit && f.deviation < -t;
  return f;
}

std::string finding_text(const finding& f, const scope_ref& sc) {
  return fmt::format("{} {:+.1f} % (z {:.1f})", describe(sc), 100 * f.change(), f.z);
}

// A passing part's scope most beyond the healthy spread yet under its threshold, said so: a
// chip unlike its peers by less than is worth acting on is still worth knowing.
std::string notable(const part_result& out, const reference& ref, const settings& s) {
  const finding* most = nullptr;
  for (const finding& f : out.findings) {
    if (f.deviation > 0 && (most == nullptr || f.z > most->z)) most = &f;
  }
  if (most == nullptr || most->z <= critical_z(s, ref.scope_count(ref.scopes[most->scope].p))) return "";
  return fmt::format("; beyond the healthy spread but under its threshold: {}", finding_text(*most, ref.scopes[most->scope]));
}

void set_verdict(part_result& out, const reference& ref, part p, const settings& s) {
  const bool failing = out.rows > 0 && out.failed > s.fail_share * out.rows;
  const std::string failed_text =
      fmt::format("{} of {} rows failed (errored, missing, unconverged or throttled in every run)", out.failed, out.rows);
  if (!out.called.empty()) {
    const finding& worst = out.findings[out.called.front()];
    out.v = verdict::slow;
    out.reason = fmt::format("slower: {}{}", finding_text(worst, ref.scopes[worst.scope]),
                             out.called.size() > 1 ? fmt::format(" and {} more scope(s)", out.called.size() - 1) : "");
    if (failing) out.reason += "; " + failed_text;
  } else if (failing) {
    out.v = verdict::failing;
    out.reason = failed_text;
  } else if (ref.part_gpus[static_cast<int>(p)] < s.robust_gpus) {
    out.v = verdict::undecided;
    out.reason = fmt::format("a reference of {} GPU(s) is not robust ({} or more needed)",
                             ref.part_gpus[static_cast<int>(p)], s.robust_gpus);
  } else if (out.findings.empty()) {
    out.v = verdict::undecided;
    out.reason = "no scope scored (too few rows in any run)";
  } else {
    for (const finding& f : out.findings) {
      const scope_ref& sc = ref.scopes[f.scope];
      if (!sc.split) continue;
      out.v = verdict::undecided;
      out.reason = fmt::format("the reference splits on {}: no group of more than half its {} GPUs agrees within "
                               "{:g} % (largest {})",
                               describe(sc), sc.gpus, s.threshold_pct(sc.p, sc.kind), sc.majority);
      return;
    }
    if (p == part::gpu && out.runs < s.scope_runs) {
      out.v = verdict::undecided;
      out.reason = fmt::format("{} run judges all its GPU rows together only (families and rows need {} runs)",
                               out.runs, s.scope_runs);
      return;
    }
    out.v = verdict::pass;
    out.reason = "within the reference" + notable(out, ref, s);
  }
}

part_result judge_part(const matrix::gpu& g, const reference& ref, part p, const settings& s) {
  part_result out;
  out.failed = failed_rows(g, ref.rows, p);
  for (const row_meta& r : ref.rows) out.rows += r.p == p;
  if (out.rows == 0) {
    // A GPU judged on no work of its own is not vouched for; a host without host rows is
    // simply not judged (a filter of kernel rows).
    out.v = p == part::gpu ? verdict::undecided : verdict::not_judged;
    out.reason = fmt::format("no {}-work rows", p == part::gpu ? "GPU" : "host");
    return out;
  }
  if (p == part::host && runs_with(g, ref.rows, p) < s.host_runs) {
    out.v = verdict::not_judged;
    out.reason = fmt::format("host work not judged: {} run(s) of it, {} needed (one run of a host row can take three "
                             "times its usual time: a driver call's first touch, a neighbour's copy)",
                             runs_with(g, ref.rows, p), s.host_runs);
    return out;
  }
  const double z_crit = critical_z(s, ref.scope_count(p));
  out.runs = runs_with(g, ref.rows, p);
  for (std::size_t i = 0; i < ref.scopes.size(); ++i) {
    const scope_ref& sc = ref.scopes[i];
    if (sc.p != p || sc.gpus == 0) continue;
    const score x = score_of(g, sc, ref.row_centre, ref.rows.size());
    if (x.runs == 0) continue;
    if (sc.kind != scope_kind::all && x.runs < s.scope_runs) {
      ++out.unjudged;
      continue;
    }
    out.findings.push_back(find(x, sc, i, z_crit, s));
    if (out.findings.back().slower) out.called.push_back(out.findings.size() - 1);
  }
  std::stable_sort(out.called.begin(), out.called.end(),
                   [&](std::size_t a, std::size_t b) { return out.findings[a].z > out.findings[b].z; });
  set_verdict(out, ref, p, s);
  return out;
}

// One part of one GPU against its own earlier runs.
part_result drift_part(const matrix::gpu& then, const matrix::gpu& now, const reference& ref, part p, const settings& s) {
  part_result out;
  for (const row_meta& r : ref.rows) out.rows += r.p == p;
  out.failed = failed_rows(now, ref.rows, p);
  const int need = p == part::host ? s.host_runs : 1;
  const int before = runs_with(then, ref.rows, p), since = runs_with(now, ref.rows, p);
  if (out.rows == 0 || before < need || since < need) {
    out.v = verdict::not_judged;
    out.reason = out.rows == 0 ? fmt::format("no {} rows", to_string(p))
                               : fmt::format("not judged ({} run(s) before, {} since; {} needed on each side)", before,
                                             since, need);
    return out;
  }
  const double z_crit = critical_z(s, ref.scope_count(p));
  for (std::size_t i = 0; i < ref.scopes.size(); ++i) {
    const scope_ref& sc = ref.scopes[i];
    if (sc.p != p || !(sc.within > 0)) continue;
    const score a = score_of(then, sc, ref.row_centre, ref.rows.size());
    const score b = score_of(now, sc, ref.row_centre, ref.rows.size());
    if (a.runs == 0 || b.runs == 0) continue;
    finding f;
    f.scope = i;
    f.runs = b.runs;
    f.deviation = b.mean - a.mean;
    f.sd = std::sqrt(sc.run_variance(a.runs) + sc.run_variance(b.runs) + std::max(sc.floor, s.floor_sd * s.floor_sd));
    f.z = f.deviation / f.sd;
    const double t = log_threshold(s, sc);
    f.slower = f.z > z_crit && f.deviation > t;
    f.faster = f.z < -z_crit && f.deviation < -t;
    out.findings.push_back(f);
    if (f.slower) out.called.push_back(out.findings.size() - 1);
  }
  std::stable_sort(out.called.begin(), out.called.end(),
                   [&](std::size_t a, std::size_t b) { return out.findings[a].z > out.findings[b].z; });
  if (!out.called.empty()) {
    const finding& worst = out.findings[out.called.front()];
    out.v = verdict::slow;
    out.reason = fmt::format("slower than itself: {}{}", finding_text(worst, ref.scopes[worst.scope]),
                             out.called.size() > 1 ? fmt::format(" and {} more scope(s)", out.called.size() - 1) : "");
  } else if (out.findings.empty()) {
    out.v = verdict::not_judged;
    out.reason = "no scope with a measured run-to-run spread";
  } else {
    out.reason = "as before";
  }
  return out;
}

}  // namespace

std::vector<gpu_result> drift(const matrix& then, const matrix& now, const reference& ref, const settings& s) {
  std::vector<gpu_result> out(now.gpus.size());
  for (std::size_t g = 0; g < now.gpus.size(); ++g) {
    for (part p : {part::gpu, part::host})
      out[g].parts[static_cast<int>(p)] = drift_part(then.gpus[g], now.gpus[g], ref, p, s);
  }
  return out;
}

std::vector<std::size_t> rows_to_confirm(const part_result& p, const reference& ref, std::size_t most) {
  std::vector<const finding*> rows;
  for (const finding& f : p.findings) {
    if (ref.scopes[f.scope].kind == scope_kind::row && f.z > 0) rows.push_back(&f);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const finding* a, const finding* b) { return a->z > b->z; });
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < rows.size() && i < most; ++i) out.push_back(ref.scopes[rows[i]->scope].rows.front());
  return out;
}

std::vector<gpu_result> judge(const matrix& m, const reference& ref, const settings& s) {
  std::vector<gpu_result> out(m.gpus.size());
  for (std::size_t g = 0; g < m.gpus.size(); ++g) {
    for (part p : {part::gpu, part::host}) out[g].parts[static_cast<int>(p)] = judge_part(m.gpus[g], ref, p, s);
  }
  return out;
}

}  // namespace membench::report::fleet_test
