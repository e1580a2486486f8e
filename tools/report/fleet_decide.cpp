// fleet's second stage: each row's reference (the fleet's robust centre and spread, or a
// baseline's), each GPU's change against it decided by compare's test, and the family
// correction over every GPU's rows at once.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/stats.hpp"
#include "fleet_stages.hpp"
#include "intervals.hpp"

namespace membench::report {

using namespace detail;

compare_options fleet_test_defaults() {
  compare_options o;
  o.threshold_pct = options::fleet_threshold.number;
  return o;
}

decide_options fleet_options::decide() const {
  decide_options o = test.decide();
  o.margin = o.threshold;
  o.clock_tolerance = INFINITY;
  o.calibration_runs = 0;
  o.more_runs = "give the GPU several runs";
  return o;
}

decide_options fleet_options::decide_one_row() const {
  decide_options o = decide();
  o.threshold = one_row_threshold_pct / 100;
  o.margin = o.threshold;
  return o;
}

double row_centre::variance() const {
  if (gpus < 1 || !std::isfinite(spread)) return 0;
  return std::acos(-1.0) / 2 * spread * spread / gpus;
}

bool measured_runs(const side& s, int calibration_runs) {
  return calibration_runs > 0 && s.runs.size() >= static_cast<std::size_t>(std::max(2, calibration_runs));
}

double gpu_time(const side& s, int calibration_runs) {
  return measured_runs(s, calibration_runs) ? std::exp(trimmed_logs(s).centre) : side_centre(s);
}

row_centre centre_of(const fleet_row& r, int calibration_runs) {
  std::vector<double> logs, clocks;
  for (const side& s : r.sides) {
    if (s.runs.empty() && std::isnan(s.aggregate_us)) continue;
    logs.push_back(std::log(gpu_time(s, calibration_runs)));
    for (const run* x : s.runs) {
      if (std::isfinite(x->sm_clock_mhz)) clocks.push_back(x->sm_clock_mhz);
    }
  }
  row_centre c;
  c.gpus = static_cast<int>(logs.size());
  if (logs.empty()) return c;
  const double centre = median_of(logs);
  std::vector<double> dev;
  for (double l : logs) dev.push_back(std::abs(l - centre));
  c.centre_us = std::exp(centre);
  c.spread = 1.4826 * median_of(std::move(dev));  // the normal's sd from its MAD
  if (!clocks.empty()) c.clock_mhz = median_of(std::move(clocks));
  pool_runs(c, r);
  return c;
}

row_centre centre_for(const row_centre& all, const fleet_row& r, std::size_t gpu, int calibration_runs) {
  if (all.gpus < 3) return all;
  std::vector<double> dev;
  for (std::size_t k = 0; k < r.sides.size(); ++k) {
    const side& s = r.sides[k];
    if (k == gpu || (s.runs.empty() && std::isnan(s.aggregate_us))) continue;
    dev.push_back(std::abs(std::log(gpu_time(s, calibration_runs) / all.centre_us)));
  }
  row_centre c = all;
  if (!dev.empty()) c.spread = 1.4826 * median_of(std::move(dev));
  return c;
}

void pool_runs(row_centre& c, const fleet_row& r) {
  double sq = c.run_df > 0 ? c.run_variance * c.run_df : 0, df = c.run_df;
  double wsq = c.trimmed_df > 0 ? c.trimmed_variance * c.trimmed_df : 0, wdf = c.trimmed_df;
  for (const side& s : r.sides) {
    if (s.runs.size() < 2) continue;
    sq += log_sum_sq(s);
    df += static_cast<double>(s.runs.size() - 1);
    const trimmed t = trimmed_logs(s);
    wsq += t.wvar * static_cast<double>(t.n - 1);
    wdf += static_cast<double>(t.h - 1);
  }
  c.run_df = df;
  c.run_variance = df > 0 ? sq / df : NAN;
  c.trimmed_df = wdf;
  c.trimmed_variance = wdf > 0 ? wsq / wdf : NAN;
}

namespace {

// The reference as a side for compare's conditions: an aggregate of `gpus` values that
// spread as the fleet does, at the fleet's clock.
side reference_side(const row_centre& c) {
  side s;
  s.aggregate_us = c.centre_us;
  s.aggregate_cv = std::expm1(std::isfinite(c.spread) ? c.spread : 0);
  s.aggregate_count = c.gpus;
  s.reference_clock_mhz = c.clock_mhz;
  return s;
}

// A GPU's variance of its log time. Measured: the trimmed mean of its n runs varies as the
// fleet's pooled winsorized variance over the h runs it keeps (Yuen; given to pooled_spread_of
// per run of the n). Else its runs' spread or the fleet's pooled one, never under the floor of
// the row's work.
side_spread own_spread(const side& gpu, const row_centre& c, const decide_options& o, evidence e, bool measured) {
  if (measured) {
    const trimmed t = trimmed_logs(gpu);
    const double n_over_h = static_cast<double>(t.n) / static_cast<double>(std::max<std::size_t>(1, t.h));
    return pooled_spread_of(gpu, e, 0, c.trimmed_variance * n_over_h, c.trimmed_df);
  }
  // The floor at the centre's time, as compare takes it at the base's.
  const double floor = o.run_spread_at(work_of(gpu, side{}), c.centre_us);
  return pooled_spread_of(gpu, e, floor, c.run_variance, c.run_df);
}

}  // namespace

decision judge_gpu(const side& gpu, const row_centre& c, const decide_options& o, int calibration_runs) {
  decision out;
  // The floors stand for what a few runs cannot show: how far a row's median moves from one
  // process to the next. Many runs a GPU show it, pooled over the fleet's runs of the row.
  const bool measured = measured_runs(gpu, calibration_runs) && c.trimmed_df > 0;
  out.base_us = c.centre_us;
  out.new_us = gpu_time(gpu, measured ? calibration_runs : 0);
  out.change = out.new_us / out.base_us - 1;
  out.from = measured ? evidence::runs : own_evidence(gpu);
  // Without an interval or noise of its own, a GPU's runs still spread as the fleet's do.
  if (out.from == evidence::none && c.run_df > 0) out.from = evidence::runs;
  if (out.from != evidence::none) {
    const side_spread own = own_spread(gpu, c, o, out.from, measured);
    const side_spread centre{c.variance(), c.gpus > 1 ? c.gpus - 1.0 : INFINITY, NAN};
    const auto [lo, hi] = t_interval(centre, own, o.confidence, std::log(out.new_us / out.base_us));
    out.low = std::expm1(lo);
    out.high = std::expm1(hi);
  }
  // compare's rules for a side whose spread is measured: a run that did not converge is
  // one more run the spread carries.
  decide_options with = o;
  with.calibration_runs = measured ? calibration_runs : 0;
  judge_change(out, reference_side(c), gpu, with);
  return out;
}

namespace {

// The baseline's group of a fleet's key. throws input_error when it has none
const fleet_baseline::group& baseline_group(const fleet_baseline& b, const fleet_key& key) {
  for (const fleet_baseline::group& g : b.groups) {
    if (g.key == key.fields()) return g;
  }
  std::string has;
  for (const fleet_baseline::group& g : b.groups) has += fmt::format("{}{}", has.empty() ? "" : "; ", fmt::join(g.key, ", "));
  throw input_error(fmt::format("{}: no baseline for {} (it has: {})", b.path, key.text(), has.empty() ? "none" : has));
}

// A fleet's references from a baseline: its row's, or unknown (the row left out).
void take_baseline(fleet& f, const fleet_baseline& b) {
  const fleet_baseline::group& g = baseline_group(b, f.key);
  f.reference_gpus = static_cast<int>(g.gpus.size());
  f.baseline_identity = g.identity;
  for (fleet_row& r : f.rows) {
    const auto it = std::lower_bound(g.rows.begin(), g.rows.end(), *r.name,
                                     [](const auto& e, const std::string& n) { return e.first < n; });
    const bool named = it != g.rows.end() && it->first == *r.name;
    // A centre of another figure (a copy's median, where the GPUs' files carry its fastest
    // sample) is not this row's.
    const bool found = named && it->second.fig == r.fig;
    row_centre c;
    if (found) {
      const baseline_row& row = it->second;
      c = {row.centre_us, row.spread, row.gpus, row.clock_mhz, row.run_spread * row.run_spread, row.run_df};
      // A baseline keeps the plain run-to-run spread; it stands in for the winsorized one.
      c.trimmed_variance = c.run_variance;
      c.trimmed_df = c.run_df;
      pool_runs(c, r);
    }
    f.centres.push_back(c);
    if (found) continue;
    for (std::size_t k = 0; k < r.why.size(); ++k) {
      if (r.why[k] == left_out::none) r.why[k] = named ? left_out::other_figure : left_out::no_reference;
    }
  }
}

}  // namespace

namespace {

// Every GPU's rows of the state decided under `o`, in s.rows' order, and with
// --correction bh corrected as one family (`fam` says how).
std::vector<decision> decide_rows(const fleet_state& s, const decide_options& o, const fleet_options& opt,
                                  family_outcome& fam) {
  auto judge = [&](const std::vector<std::size_t>& which, const decide_options& with) {
    std::vector<decision> out;
    for (std::size_t i : which) {
      const judged& j = s.rows[i];
      out.push_back(judge_gpu(s.fleets[j.fleet].rows[j.row].sides[j.gpu], j.ref, with, opt.calibration_runs));
    }
    return out;
  };
  std::vector<std::size_t> all(s.rows.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::vector<decision> ds = judge(all, o);
  if (opt.test.family == correction::bh) fam = correct_family(ds, o, judge);
  return ds;
}

}  // namespace

void decide_fleets(fleet_state& s, const fleet_options& opt, const fleet_baseline* against) {
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) {
    fleet& f = s.fleets[fi];
    if (against) {
      take_baseline(f, *against);
    } else {
      f.reference_gpus = static_cast<int>(f.gpus.size());
      for (const fleet_row& r : f.rows) f.centres.push_back(centre_of(r, opt.calibration_runs));
    }
    for (std::size_t ri = 0; ri < f.rows.size(); ++ri) {
      for (std::size_t g = 0; g < f.gpus.size(); ++g) {
        if (f.rows[ri].why[g] != left_out::none) continue;
        // Against a baseline the GPU is none of the GPUs behind the centre.
        const row_centre& all = f.centres[ri];
        s.rows.push_back({fi, ri, g, against ? all : centre_for(all, f.rows[ri], g, opt.calibration_runs), decision{}, verdict::same});
      }
    }
  }
  // Two families over the same rows: many rows a little slower, and one row far slower. Each
  // keeps its own false calls at most 1 - confidence of its calls.
  const std::vector<decision> ds = decide_rows(s, opt.decide(), opt, s.fam);
  const std::vector<decision> one = decide_rows(s, opt.decide_one_row(), opt, s.one_row_fam);
  for (std::size_t i = 0; i < s.rows.size(); ++i) {
    s.rows[i].d = ds[i];
    s.rows[i].one_row = one[i].v;
  }
}

}  // namespace membench::report
