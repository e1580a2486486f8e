// fleet's per-GPU test: the reference a fleet is its own (row centres, each scope's majority
// centre and variance components, the rows' weights) and the scopes of a set of rows.
#include "fleet/gpu_test.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "common/stats.hpp"

#include "fleet/scores.hpp"

namespace membench::report::fleet_test {

using namespace detail;

namespace {

constexpr double mad_to_sd = 1.4826;  // the normal's sd from its median absolute deviation

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

}  // namespace

int reference::scope_count(part p) const {
  return static_cast<int>(std::count_if(scopes.begin(), scopes.end(), [p](const scope_ref& s) { return s.p == p; }));
}


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
    scope_ref all{scope_kind::all, p, "all", {}, {}};
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
    if (families[f].size() >= 2) out.push_back({scope_kind::family, part::gpu, f, families[f], {}});
  }
  for (std::size_t r = 0; r < rows.size(); ++r) out.push_back({scope_kind::row, rows[r].p, rows[r].name, {r}, {}});
  return out;
}


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

}  // namespace membench::report::fleet_test
