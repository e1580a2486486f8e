// fleet's per-GPU test: each GPU's scores against the reference, its verdicts, its drift
// against its own earlier runs, and the rows to run again (gpu_test.hpp).
#include "fleet/gpu_test.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "common/stats.hpp"

#include "fleet/scores.hpp"

namespace membench::report::fleet_test {

using namespace detail;

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

// A part twice as fast as its reference on all its rows, or its GPU work half again as fast on
// a family (a level: DRAM, L1, the SM clock), is no healthy chip of the stratum: another model,
// a baseline of other GPUs, or timing that measured nothing. Not vouched for. One row may take
// another path, and host work depends on its host: neither is held to it.
std::string implausibly_fast(const part_result& out, const reference& ref) {
  for (const finding& f : out.findings) {
    const scope_ref& sc = ref.scopes[f.scope];
    const bool family = sc.kind == scope_kind::family && sc.p == part::gpu;
    if (sc.kind != scope_kind::all && !family) continue;
    if (f.deviation > -std::log(family ? 1.5 : 2.0) + 1e-9) continue;
    return fmt::format("{:.3g}x as fast as the reference on {}: no healthy chip of its stratum is (another model, a "
                       "baseline of other GPUs, or timing that measured nothing?)",
                       std::exp(-f.deviation), describe(ref.scopes[f.scope]));
  }
  return "";
}

void set_verdict(part_result& out, const reference& ref, part p, const settings& s, const std::string& lost_level) {
  const bool failing = (out.rows > 0 && out.failed > s.fail_share * out.rows) || !lost_level.empty();
  const std::string failed_text =
      fmt::format("{} of {} rows failed (errored, missing, unconverged or throttled in every run){}", out.failed,
                  out.rows, lost_level.empty() ? "" : fmt::format(", {} among them", lost_level));
  const reason_code failed_code = lost_level.empty() ? reason_code::rows_failed : reason_code::level_lost;
  if (!out.called.empty()) {
    const finding& worst = out.findings[out.called.front()];
    out.v = verdict::slow;
    out.why.add(reason_code::slower,
                fmt::format("slower: {}{}", finding_text(worst, ref.scopes[worst.scope]),
                            out.called.size() > 1 ? fmt::format(" and {} more scope(s)", out.called.size() - 1) : ""));
    if (failing) out.why.add(failed_code, failed_text);
  } else if (failing) {
    out.v = verdict::failing;
    out.why.add(failed_code, failed_text);
  } else if (ref.part_gpus[static_cast<int>(p)] < s.robust_gpus) {
    out.v = verdict::undecided;
    out.why.add(reason_code::thin_reference, fmt::format("a reference of {} GPU(s) is not robust ({} or more needed)",
                                                         ref.part_gpus[static_cast<int>(p)], s.robust_gpus));
  } else if (out.findings.empty()) {
    out.v = verdict::undecided;
    out.why.add(reason_code::nothing_scored, "no scope scored (too few rows in any run)");
  } else {
    for (const finding& f : out.findings) {
      const scope_ref& sc = ref.scopes[f.scope];
      if (!sc.split) continue;
      out.v = verdict::undecided;
      out.why.add(reason_code::reference_splits,
                  fmt::format("the reference splits on {}: no group of more than half its {} GPUs agrees within "
                              "{:g} % (largest {})",
                              describe(sc), sc.gpus, s.threshold_pct(sc.p, sc.kind), sc.majority));
      return;
    }
    if (p == part::gpu && out.runs < s.scope_runs) {
      out.v = verdict::undecided;
      out.why.add(reason_code::too_few_runs,
                  fmt::format("{} run judges all its GPU rows together only (families and rows need {} runs)",
                              out.runs, s.scope_runs));
      return;
    }
    if (const std::string why = implausibly_fast(out, ref); !why.empty()) {
      out.v = verdict::undecided;
      out.why.add(reason_code::implausibly_fast, why);
      return;
    }
    out.v = verdict::pass;
    out.why.add(reason_code::within, "within the reference" + notable(out, ref, s));
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
    out.why.add(reason_code::no_rows, fmt::format("no {}-work rows", p == part::gpu ? "GPU" : "host"));
    return out;
  }
  if (p == part::host && runs_with(g, ref.rows, p) < s.host_runs) {
    out.v = verdict::not_judged;
    out.why.add(reason_code::host_runs_short,
                fmt::format("host work not judged: {} run(s) of it, {} needed (one run of a host row can take three "
                            "times its usual time: a driver call's first touch, a neighbour's copy)",
                            runs_with(g, ref.rows, p), s.host_runs));
    return out;
  }
  const double z_crit = critical_z(s, ref.scope_count(p));
  out.runs = runs_with(g, ref.rows, p);
  for (std::size_t i = 0; i < ref.scopes.size(); ++i) {
    const scope_ref& sc = ref.scopes[i];
    if (sc.p != p || sc.gpus == 0) continue;
    const score x = score_of(g, sc, ref.row_centre, ref.rows.size());
    if (x.runs == 0) continue;
    // A scope whose reference is too thin to have a spread (a row few GPUs ran) is not judged.
    if ((sc.kind != scope_kind::all && x.runs < s.scope_runs) || sc.gpus < s.robust_gpus) {
      ++out.unjudged;
      continue;
    }
    out.findings.push_back(find(x, sc, i, z_crit, s));
    if (out.findings.back().slower) out.called.push_back(out.findings.size() - 1);
  }
  std::stable_sort(out.called.begin(), out.called.end(),
                   [&](std::size_t a, std::size_t b) { return out.findings[a].z > out.findings[b].z; });
  set_verdict(out, ref, p, s, level_without_time(g, ref.rows, p));
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
    if (out.rows == 0) {
      out.why.add(reason_code::no_rows, fmt::format("no {} rows", to_string(p)));
    } else {
      out.why.add(reason_code::too_few_runs, fmt::format("not judged ({} run(s) before, {} since; {} needed on each side)",
                                                         before, since, need));
    }
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
    out.why.add(reason_code::slower,
                fmt::format("slower than itself: {}{}", finding_text(worst, ref.scopes[worst.scope]),
                            out.called.size() > 1 ? fmt::format(" and {} more scope(s)", out.called.size() - 1) : ""));
  } else if (out.findings.empty()) {
    out.v = verdict::not_judged;
    out.why.add(reason_code::no_run_spread, "no scope with a measured run-to-run spread");
  } else {
    out.why.add(reason_code::within, "as before");
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