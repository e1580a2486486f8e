// fleet's third stage: each GPU's rows in sum, by family, and its verdict: outlier,
// within the fleet, or unsure; worst first.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "common/stats.hpp"
#include "fleet_stages.hpp"
#include "intervals.hpp"

namespace membench::report {
namespace {

// The least a fleet's centre rests on: the median of two is their mean, and one GPU unlike
// the other moves it as far as the other.
constexpr int robust_gpus = 3;
// A GPU needs this many decided rows (and half of those it compared) for any verdict but outlier.
constexpr int least_decided = 5;

// The family that makes a GPU an outlier in `dir`: two rows or more called so, at least half
// of the family's rows compared; null when none.
const family_score* family_called(const gpu_summary& g, verdict dir) {
  for (const family_score& f : g.families) {
    const int n = dir == verdict::slower ? f.slower : f.faster;
    if (n >= 2 && 2 * n >= f.compared) return &f;
  }
  return nullptr;
}

// Why a GPU is an outlier in `dir` ("12 of 85 decided rows slower (14 %)"); "" when it is not.
std::string outlier_reason(const gpu_summary& g, verdict dir, double share) {
  const int n = dir == verdict::slower ? g.slower : g.faster;
  const int decided = g.decided();
  if (n >= 2 && static_cast<double>(n) >= share * decided)
    return fmt::format("{} of {} decided rows {} ({:.0f} %)", n, decided, to_string(dir), 100.0 * n / decided);
  if (const family_score* f = family_called(g, dir))
    return fmt::format("{}: {} of {} rows {}", f->family, dir == verdict::slower ? f->slower : f->faster, f->compared,
                       to_string(dir));
  return "";
}

// Why one row alone makes a GPU an outlier in `dir` ("global/read/...: +18.0 % [+16.9, +19.1] %
// beyond 8 %"); "" when none does.
std::string one_row_reason(const gpu_summary& g, verdict dir, double threshold_pct) {
  const int n = dir == verdict::slower ? g.one_row_slower : g.one_row_faster;
  if (n == 0) return "";
  const std::string& row = dir == verdict::slower ? g.one_row_slowest : g.one_row_fastest;
  const std::string more = n > 1 ? fmt::format(" (and {} more)", n - 1) : "";
  return fmt::format("{} beyond {}{:g} %{}", row, dir == verdict::slower ? "+" : "-", threshold_pct, more);
}

// The broad reason when there is one, else the one-row reason.
std::string either_reason(const gpu_summary& g, verdict dir, const fleet_options& opt) {
  const std::string broad = outlier_reason(g, dir, opt.outlier_share_pct / 100);
  return broad.empty() ? one_row_reason(g, dir, opt.one_row_threshold_pct) : broad;
}

// An outlier whose every row called slower times host work (pageable copies, driver calls,
// copies timed with their kernel) may be a GPU in a slower host: its kernel rows say the GPU
// is like the others.
std::string host_work_note(const gpu_summary& g) {
  if (g.called_slower == 0 || g.called_slower_host_work != g.called_slower) return "";
  return "; every row called slower is host work: its host rather than the GPU?";
}

void set_verdict(gpu_summary& g, int reference_gpus, const fleet_options& opt) {
  const std::string slow = either_reason(g, verdict::slower, opt);
  const std::string fast = either_reason(g, verdict::faster, opt);
  if (reference_gpus < robust_gpus) {
    g.v = gpu_verdict::unsure;
    g.reason = fmt::format("a centre of {} GPU(s) is not robust ({} or more needed){}", reference_gpus, robust_gpus,
                           slow.empty() ? "" : "; " + slow);
  } else if (!slow.empty()) {
    g.v = gpu_verdict::outlier;
    g.reason = slow + host_work_note(g);
  } else if (g.decided() < std::max(least_decided, (g.compared + 1) / 2)) {
    g.v = gpu_verdict::unsure;
    g.reason = fmt::format("too few rows decided ({} of {})", g.decided(), g.compared);
  } else if (!fast.empty()) {
    g.v = gpu_verdict::unsure;
    g.reason = fmt::format("faster than the fleet: {} (unlike the others, or they share a problem)", fast);
  } else {
    g.v = gpu_verdict::within;
    g.reason = "within the fleet";
  }
}

// A row called at --one-row-threshold: counted, and kept as the GPU's farthest when it is.
void count_one_row(gpu_summary& g, const judged& j, const std::string& name, double& slowest, double& fastest) {
  const decision& d = j.d;
  const bool slower = j.one_row == verdict::slower;
  if (!slower && j.one_row != verdict::faster) return;
  ++(slower ? g.one_row_slower : g.one_row_faster);
  double& far = slower ? slowest : fastest;
  if (slower ? d.change <= far : d.change >= far) return;
  far = d.change;
  (slower ? g.one_row_slowest : g.one_row_fastest) =
      fmt::format("{} {:+.1f} % [{:+.1f}, {:+.1f}] %", name, 100 * d.change, 100 * d.low, 100 * d.high);
}

void count(gpu_summary& g, const decision& d, std::map<std::string, std::vector<double>>& changes,
           std::map<std::string, family_score>& fam, const std::string& family) {
  ++g.compared;
  family_score& f = fam[family];
  f.family = family;
  ++f.compared;
  changes[family].push_back(d.change);
  switch (d.v) {
    case verdict::same: ++g.same; break;
    case verdict::faster: ++g.faster; ++f.faster; break;
    case verdict::slower: ++g.slower; ++f.slower; break;
    case verdict::unsure: ++g.unsure; ++f.unsure; break;
  }
}

// Families worst first: the most rows slower (as a share), then the largest median change.
void rank_families(gpu_summary& g, std::map<std::string, family_score>& fam,
                   std::map<std::string, std::vector<double>>& changes) {
  for (auto& [name, f] : fam) {
    f.median_change = median_of(changes[name]);
    g.families.push_back(f);
  }
  std::stable_sort(g.families.begin(), g.families.end(), [](const family_score& a, const family_score& b) {
    const double sa = static_cast<double>(a.slower) / a.compared, sb = static_cast<double>(b.slower) / b.compared;
    if (sa != sb) return sa > sb;
    return a.median_change > b.median_change;
  });
}

gpu_summary summarize(const fleet_state& s, std::size_t fi, std::size_t gi, const fleet_options& opt) {
  const fleet& f = s.fleets[fi];
  gpu_summary g;
  g.fleet = fi;
  g.gpu = gi;
  std::map<std::string, std::vector<double>> changes;
  std::map<std::string, family_score> fam;
  std::vector<double> all, clocks, fleet_clocks;
  double slowest = -INFINITY, fastest = INFINITY;
  for (const judged& j : s.rows) {
    if (j.fleet != fi || j.gpu != gi) continue;
    count(g, j.d, changes, fam, f.rows[j.row].family);
    count_one_row(g, j, *f.rows[j.row].name, slowest, fastest);
    if (j.d.v == verdict::slower || j.one_row == verdict::slower) {
      ++g.called_slower;
      g.called_slower_host_work += detail::work_of(f.rows[j.row].sides[gi], side{}) == run::work_kind::host;
    }
    all.push_back(j.d.change);
    if (std::isfinite(j.d.new_clock_mhz)) clocks.push_back(j.d.new_clock_mhz);
    if (std::isfinite(j.d.base_clock_mhz)) fleet_clocks.push_back(j.d.base_clock_mhz);
  }
  for (const fleet_row& r : f.rows) ++g.left[static_cast<int>(r.why[gi])];
  g.left[0] = 0;
  if (!all.empty()) g.median_change = median_of(std::move(all));
  if (!clocks.empty()) g.clock_mhz = median_of(std::move(clocks));
  if (!fleet_clocks.empty()) g.fleet_clock_mhz = median_of(std::move(fleet_clocks));
  rank_families(g, fam, changes);
  set_verdict(g, f.reference_gpus, opt);
  return g;
}

}  // namespace

const char* to_string(gpu_verdict v) noexcept {
  switch (v) {
    case gpu_verdict::outlier: return "outlier";
    case gpu_verdict::unsure: return "unsure";
    case gpu_verdict::within: return "within the fleet";
  }
  return "?";
}

std::vector<gpu_summary> summarize_gpus(const fleet_state& s, const fleet_options& opt) {
  std::vector<gpu_summary> out;
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) {
    for (std::size_t gi = 0; gi < s.fleets[fi].gpus.size(); ++gi) out.push_back(summarize(s, fi, gi, opt));
  }
  // Worst first: outliers, then the largest share of rows slower, then the largest median change.
  auto share = [](const gpu_summary& g) { return g.decided() > 0 ? static_cast<double>(g.slower) / g.decided() : 0.0; };
  std::stable_sort(out.begin(), out.end(), [&](const gpu_summary& a, const gpu_summary& b) {
    if ((a.v == gpu_verdict::outlier) != (b.v == gpu_verdict::outlier)) return a.v == gpu_verdict::outlier;
    if (share(a) != share(b)) return share(a) > share(b);
    const double ma = std::isnan(a.median_change) ? -INFINITY : a.median_change;
    const double mb = std::isnan(b.median_change) ? -INFINITY : b.median_change;
    return ma > mb;
  });
  return out;
}

std::string worst_families(const gpu_summary& g, std::size_t most) {
  std::string out;
  std::size_t shown = 0;
  for (const family_score& f : g.families) {
    if (shown == most || f.slower == 0) break;
    out += fmt::format("{}{} {:+.1f} % ({}/{} slower)", out.empty() ? "" : "; ", f.family, 100 * f.median_change,
                       f.slower, f.compared);
    ++shown;
  }
  return out.empty() ? "-" : out;
}

std::string row_rule_note(const fleet_options& opt) {
  const compare_options& t = opt.test;
  return fmt::format(
      "row: a GPU's time (the median of its runs' medians{}) against the fleet's centre (the median of the GPUs' "
      "times); deviation = GPU / centre - 1 with its {:g} % interval from the GPU's own runs (their intervals or "
      "spread, never less than {:g} % a run for work:kernel rows, {:g} % work:copy, {:g} % work:host, with {:g} us at "
      "the centre's time added in quadrature{}) and the "
      "centre's uncertainty (pi/2 x spread^2 / GPUs, the spread 1.4826 x the MAD of the other GPUs' log times "
      "about it); "
      "slower (faster) when the deviation is at least {:g} % and its whole interval beyond +{:g} % (-{:g} %), the "
      "change at least {}, and a host-work row has two runs or more of the GPU; else unsure. Rows that errored, "
      "were skipped or did not converge are left out per GPU{}",
      opt.calibration_runs > 0
          ? fmt::format("; with {} runs or more, the exp of their 20 % trimmed mean of logs", opt.calibration_runs)
          : std::string(),
      t.confidence_pct, t.run_spread_pct, t.run_spread_copy_pct, t.run_spread_host_pct, t.run_spread_us,
      opt.calibration_runs > 0 ? "; with that many runs, the runs' winsorized variance pooled over the fleet's "
                                 "GPUs instead (Yuen), evidence: runs"
                               : "",
      t.threshold_pct, t.threshold_pct, t.threshold_pct, resolution_text(t.resolution_us),
      opt.calibration_runs > 0 ? " (a run that did not converge counts among a GPU's measured runs)" : "");
}

std::string gpu_rule_note(const fleet_options& opt) {
  return fmt::format(
      "GPU: an outlier when {} rows or more are slower and they are at least {:g} % of its decided rows, or a family "
      "has {} rows or more slower, at least half of those it compared, or one row alone is slower by the row rule at "
      "{:g} % (its whole interval beyond +{:g} %, every GPU's rows one family again at that threshold); unsure when "
      "its centre comes from fewer than {} GPUs, when fewer than {} (or half its compared rows) are decided, or when "
      "the outlier rule holds for faster rows; else within the fleet",
      2, opt.outlier_share_pct, 2, opt.one_row_threshold_pct, opt.one_row_threshold_pct, robust_gpus, least_decided);
}

}  // namespace membench::report
