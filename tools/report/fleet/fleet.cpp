// fleet: the stages (fleet_stages.hpp) in order: group, gather, judge, summarize, render; and
// a baseline when asked.
#include <algorithm>

#include <fmt/format.h>

#include "fleet/fleet_stages.hpp"

namespace membench::report {

fleet_test::settings fleet_options::defaults() {
  fleet_test::settings s;
  s.all_pct = options::fleet_threshold.number;
  s.family_pct = options::family_threshold.number;
  s.row_pct = options::row_threshold.number;
  s.host_all_pct = options::host_threshold.number;
  s.host_row_pct = options::host_row_threshold.number;
  s.alpha = options::fleet_level.number;
  s.fail_share = options::fail_share.number / 100;
  return s;
}

int fleet_outcome::exit_code() const {
  if (outliers + failing + drifted > 0) return 1;
  if (slow_hosts + drifted_hosts > 0) return 4;
  // A file that could not be read was some GPU's run: the fleet is not all vouched for.
  return undecided + unreadable > 0 ? 3 : 0;
}

namespace {

// A baseline's reference is of all its rows, each scope's spread measured over them: judged on
// fewer, a GPU's scores would be set against a reference of other rows (a row 7 % slow among
// all rows reads within). A filter may keep every row of the baseline, not fewer.
void refuse_filter_narrower_than(const fleet_baseline& b, const std::string& filter) {
  if (filter.empty()) return;
  const name_filter keep(filter);
  for (const fleet_baseline::group& g : b.groups) {
    for (const fleet_test::row_meta& r : g.ref.rows) {
      if (!keep(r.name))
        throw input_error(fmt::format("fleet: --filter '{}' leaves out {} of the baseline {}, which judges a GPU on all "
                                      "its rows: make a baseline of those rows (--baseline-out with this --filter)",
                                      filter, r.name, b.path));
    }
  }
}

void count(fleet_outcome& out, const fleet_state& s, const std::vector<gpu_summary>& gpus) {
  for (const gpu_summary& g : gpus) {
    ++out.gpus;
    out.outliers += g.v == gpu_verdict::outlier;
    out.failing += g.v == gpu_verdict::failing;
    out.slow_hosts += g.host_v == gpu_verdict::outlier || g.host_v == gpu_verdict::failing;
    out.undecided += g.v == gpu_verdict::undecided || g.host_v == gpu_verdict::undecided;
    out.drifted += g.drift_v == gpu_verdict::outlier;
    out.drifted_hosts += g.host_drift_v == gpu_verdict::outlier;
    const fleet_gpu& gpu = s.fleets[g.fleet].gpus[g.gpu];
    if (g.drift_v == gpu_verdict::outlier || g.host_drift_v == gpu_verdict::outlier)
      out.findings.push_back(fmt::format("drift {} ({}) since {}: {}", gpu.uuid, gpu.host, s.since, g.drift_reason));
    if (g.v != gpu_verdict::within)
      out.findings.push_back(fmt::format("GPU {} {} ({}): {}", to_string(g.v), gpu.uuid, gpu.host, g.reason));
    if (g.host_v != gpu_verdict::within)
      out.findings.push_back(fmt::format("host {} {} ({}): {}", to_string(g.host_v), gpu.uuid, gpu.host, g.host_reason));
  }
}

}  // namespace

fleet_outcome view_fleet(const file_refs& given, const fleet_options& opt, const fleet_baseline* against,
                         const std::vector<std::string>& unreadable, const fleet_baseline* model) {
  // A file without a row is no run (a crash before the first row, a truncated write that
  // still parsed): it counts as unreadable, so its GPU is never vouched for on it.
  std::vector<std::string> unusable = unreadable;
  std::vector<const result_file*> kept;
  for (const result_file& f : given) {
    if (f.results.empty()) {
      unusable.push_back(fmt::format("{}: no benchmark rows: no run", f.path));
    } else {
      kept.push_back(&f);
    }
  }
  const file_refs files(std::move(kept));
  if (files.empty())
    throw input_error(unusable.empty() ? std::string("fleet: no file to judge")
                                       : fmt::format("fleet: no file to judge: {} unusable, such as {}", unusable.size(),
                                                     unusable.front()));
  if (against != nullptr && opt.make_baseline)
    throw input_error("fleet: --baseline judges against a baseline, --baseline-out makes one from a fleet: not both");
  if (against != nullptr) refuse_filter_narrower_than(*against, opt.filter);
  fleet_state s;
  s.set_aside = unusable;
  s.unreadable = static_cast<int>(unusable.size());
  s.fleets = group_fleets(files, opt.allow_mixed, &s.set_aside);
  if (!opt.since.empty()) {
    s.since = opt.since;
    s.no_recent_run = split_by_date(s.fleets, opt.since);
    if (s.fleets.empty()) throw input_error(fmt::format("fleet: no run since {}", opt.since));
  }
  const name_filter filter(opt.filter);
  std::size_t rows = 0;
  for (fleet& f : s.fleets) {
    gather_rows(f, filter, s.multi_gpu, opt.by == "level" ? &s.no_level : nullptr);
    rows += f.rows.size();
  }
  std::sort(s.no_level.begin(), s.no_level.end());
  s.no_level.erase(std::unique(s.no_level.begin(), s.no_level.end()), s.no_level.end());
  if (rows == 0)
    throw input_error(fmt::format("fleet: no row of one GPU to judge (--filter '{}'{}{})", opt.filter,
                                  s.multi_gpu.empty() ? "" : "; rows that involve several GPUs are left out",
                                  s.no_level.empty() ? "" : "; --by=level leaves out rows of no level"));
  if (against != nullptr) s.baseline_path = against->path;
  decide_fleets(s, opt, against, opt.make_baseline ? nullptr : model);
  find_split_gpus(s);
  const std::vector<gpu_summary> gpus = summarize_gpus(s);
  fleet_outcome out;
  if (opt.as_json && opt.machine_format == "prom") {
    out.json = fleet_metrics(s, gpus);
  } else if (opt.as_json && !opt.machine_format.empty()) {
    test_run run = fleet_tests(s, gpus);
    run.start_ms = opt.started_ms;
    run.stop_ms = now_ms();
    out.json = test_report_text(run, opt.machine_format);
  } else if (opt.as_json) {
    out.json = fleet_json(s, gpus, opt);
  } else {
    out.doc = fleet_document(s, gpus, opt);
  }
  if (opt.make_baseline) out.baseline = baseline_text(s, opt);
  count(out, s, gpus);
  // A GPU without a run since --since was not judged, and a GPU not judged is not vouched for.
  out.undecided += static_cast<int>(s.no_recent_run.size());
  for (const gpu_at_host& g : s.no_recent_run)
    out.findings.push_back(fmt::format("GPU not judged {} on {}: no run since {}", g.uuid, g.host, s.since));
  out.unreadable = s.unreadable;
  for (const std::string& u : unusable) out.findings.push_back("unreadable " + u);
  return out;
}

}  // namespace membench::report
