// fleet's document, readable at any fleet size: a summary and the rules in notes; the GPUs
// not passing (every one); the GPUs worst first (all of them up to a screenful, every one
// with --all); the scopes called (every scope with --all); for a fleet of a few GPUs a
// family x GPU table of deviations (a heatmap in HTML).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "fleet/fleet_stages.hpp"
#include "render/render_record.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

// GPUs listed by default in the table of every GPU and in the table of those not passing,
// and as columns of the family table.
constexpr std::size_t listed_gpus = 64;
constexpr std::size_t listed_flagged = 200;
constexpr std::size_t family_columns = 32;

// Every fleet's GPU labels, made once (a label looks at every GPU of its fleet).
std::vector<std::vector<std::string>> labels_of(const fleet_state& s) {
  std::vector<std::vector<std::string>> out;
  for (const fleet& f : s.fleets) out.push_back(gpu_labels(f));
  return out;
}

table gpu_table(const fleet_state& s, const std::vector<gpu_summary>& gpus, bool flagged_only, std::size_t most) {
  table t;
  t.title = flagged_only ? "GPUs or hosts not passing" : "GPUs, worst first";
  t.unit = "failed rows: GPU work / host work (failed: errored, missing, unconverged or throttled in every run)";
  for (const gpu_summary& g : gpus) {
    const bool flagged = g.v != gpu_verdict::within || g.host_v != gpu_verdict::within ||
                         g.drift_v == gpu_verdict::outlier || g.host_drift_v == gpu_verdict::outlier;
    if (flagged_only && !flagged) continue;
    if (t.rows.size() == most) break;
    const record r = gpu_record(s, g);
    if (t.header.empty()) t.header = record_header(r);
    t.rows.push_back(record_row(r));
  }
  if (t.header.empty() && !gpus.empty()) t.header = record_header(gpu_record(s, gpus.front()));
  return t;
}

// The scopes called (every scope with --all), GPU by GPU in rank order, largest z first.
table scope_table(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt) {
  table t;
  t.title = opt.show_all ? "every scope of every GPU" : "scopes called slower or faster (--all lists every scope)";
  t.unit = "deviation = exp(mean log(GPU / row centre) over the scope's rows, runs averaged) - 1 against the "
           "reference's centre; sd: of the deviation under the healthy null (between chips, the GPU's runs, the "
           "centre); z = deviation / sd";
  const auto labels = labels_of(s);
  for (const gpu_summary& g : gpus) {
    const fleet& f = s.fleets[g.fleet];
    std::vector<const ft::finding*> mine;
    for (const ft::part_result& p : f.results[g.gpu].parts) {
      for (const ft::finding& k : p.findings) {
        if (k.slower || k.faster || opt.show_all) mine.push_back(&k);
      }
    }
    std::stable_sort(mine.begin(), mine.end(), [](const ft::finding* a, const ft::finding* b) { return a->z > b->z; });
    for (const ft::finding* k : mine) {
      const record r = scope_record(f, g.gpu, g.fleet, labels[g.fleet][g.gpu], *k);
      if (t.header.empty()) t.header = record_header(r);
      t.rows.push_back(record_row(r));
    }
  }
  // None called: the columns still say what a call would show (a record of no finding).
  for (std::size_t fi = 0; t.header.empty() && fi < s.fleets.size(); ++fi) {
    const fleet& f = s.fleets[fi];
    if (!f.ref.scopes.empty() && !f.gpus.empty()) t.header = record_header(scope_record(f, 0, fi, "", ft::finding{}));
  }
  return t;
}

// Families (or levels) as rows, a GPU a column (rank order): the family's deviation.
table family_table(const fleet_state& s, const std::vector<gpu_summary>& gpus, std::size_t fi, const fleet_options& opt) {
  const fleet& f = s.fleets[fi];
  const char* group = grouped_by_level(f.ref) ? "level" : "family";
  table t;
  t.title = s.fleets.size() == 1 ? fmt::format("deviation by {}", group)
                                 : fmt::format("deviation by {}, {} {}", group, f.key.text(), stratum_text(f.stratum));
  t.unit = fmt::format("percent, the GPU's {} score against the reference's centre; marked where called", group);
  t.header = {group};
  // Shaded red (slower) or blue (faster), full at three times the family threshold.
  t.heat = heat_scale{"deviation from the reference's centre, %", 3 * s.test.family_pct, true};
  std::vector<const gpu_summary*> order;
  for (const gpu_summary& g : gpus) {
    if (g.fleet == fi) order.push_back(&g);
  }
  const std::vector<std::string> labels = gpu_labels(f);
  for (const gpu_summary* g : order) t.header.push_back(labels[g->gpu]);
  for (std::size_t i = 0; i < f.ref.scopes.size(); ++i) {
    const ft::scope_ref& sc = f.ref.scopes[i];
    if (sc.kind == ft::scope_kind::row) continue;
    std::vector<cell> line{{sc.kind == ft::scope_kind::all ? ft::describe(sc) : sc.name}};
    for (const gpu_summary* g : order) {
      const ft::part_result& p = f.results[g->gpu].of(sc.p);
      const auto it = std::find_if(p.findings.begin(), p.findings.end(), [&](const ft::finding& k) { return k.scope == i; });
      if (it == p.findings.end()) {
        line.push_back({"-", NAN, tone::muted});
        continue;
      }
      const double x = 100 * it->change();
      const tone mood = it->slower ? tone::bad : it->faster ? tone::good : tone::plain;
      line.push_back({fmt::format("{:+.2f}", x), x, mood, std::clamp(x / t.heat->top, -1.0, 1.0)});
    }
    t.rows.push_back(std::move(line));
  }
  return t;
}

// For each part called slow, the rows to run again on that GPU before acting on the verdict.
table confirm_table(const fleet_state& s, const std::vector<gpu_summary>& gpus) {
  table t;
  t.title = "before acting: run these rows again on the GPU, then judge its new runs";
  t.unit = "the rows of the slow part with the largest z; membench --benchmark_filter='FILTER' --benchmark_repetitions=3";
  t.header = {"GPU", "part", "rows", "filter"};
  const auto labels = labels_of(s);
  for (const gpu_summary& g : gpus) {
    const fleet& f = s.fleets[g.fleet];
    for (const ft::part_result& p : f.results[g.gpu].parts) {
      if (p.v != ft::verdict::slow) continue;
      std::vector<std::string> rows;
      for (std::size_t r : ft::rows_to_confirm(p, f.ref)) rows.push_back(f.ref.rows[r].name);
      if (rows.empty()) continue;
      const bool gpu_part = &p == &f.results[g.gpu].of(ft::part::gpu);
      t.rows.push_back({{labels[g.fleet][g.gpu]}, {gpu_part ? "GPU work" : "host work"},
                        {fmt::format("{}", fmt::join(rows, ", "))}, {confirm_filter(rows)}});
    }
  }
  return t;
}

std::string fleet_note(const fleet& f, const fleet_options& opt) {
  std::size_t files = 0;
  for (const fleet_gpu& g : f.gpus) files += g.files.size();
  std::string note = fmt::format(
      "stratum: {}, {}: {} GPU(s), {} file(s); reference {}", f.key.text(), stratum_text(f.stratum), f.gpus.size(),
      files,
      f.reference_path.empty() ? "from the stratum itself"
      : f.by_model ? fmt::format("from the model reference {} ({} GPUs of its stratum): fewer than {} GPUs cannot show "
                                 "where healthy chips of their model fall", f.reference_path, f.reference_gpus, opt.model_below)
                   : fmt::format("from the baseline {} ({} GPUs)", f.reference_path, f.reference_gpus));
  if (f.reference_path.empty() && f.gpus.size() < static_cast<std::size_t>(opt.model_below))
    note += fmt::format("; fewer than {} GPUs and no model reference for them (--model-reference: of their stratum, "
                        "grouped as here, with more GPUs than the fleet): a healthy chip at its model's edge may be "
                        "called",
                        opt.model_below);
  if (f.host_shapes > 1) note += fmt::format("; host work judged within each of its {} host shapes", f.host_shapes);
  int split = 0;
  for (const ft::scope_ref& sc : f.ref.scopes) split += sc.split;
  if (split > 0) note += fmt::format("; the reference splits on {} scope(s): no majority of its GPUs agrees there", split);
  if (!f.not_in_baseline.empty())
    note += fmt::format("; {} row(s) not in the baseline, not judged (such as {})", f.not_in_baseline.size(),
                        f.not_in_baseline.front());
  return note;
}

std::vector<std::string> summary_notes(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt) {
  int n[4] = {}, h[4] = {};
  for (const gpu_summary& g : gpus) {
    ++n[static_cast<int>(g.v)];
    ++h[static_cast<int>(g.host_v)];
  }
  std::vector<std::string> notes{
      fmt::format("{} GPU(s) in {} strat{}: GPU work {} outlier, {} failing, {} undecided, {} within; host work {} "
                  "slow, {} failing, {} undecided",
                  gpus.size(), s.fleets.size(), s.fleets.size() == 1 ? "um" : "a", n[0], n[1], n[2], n[3], h[0], h[1],
                  h[2])};
  for (const fleet& f : s.fleets) notes.push_back(fleet_note(f, opt));
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) {
    const std::vector<apart_field> apart = outliers_apart(s, gpus, fi);
    if (apart.empty()) continue;
    notes.push_back(fmt::format("outliers apart{}: no outlier shares a value with {} in {} (a cause to look at, not a "
                                "proof)",
                                s.fleets.size() == 1 ? "" : fmt::format(" ({})", s.fleets[fi].key.text()),
                                s.baseline_path.empty() ? "a GPU within" : "any GPU of the baseline",
                                apart_text(apart)));
  }
  return notes;
}

}  // namespace

std::string rule_note(const ft::settings& t) {
  return fmt::format(
      "rule: each GPU alone against its stratum's reference, GPU work (work:kernel rows) and host work (work:host "
      "and work:copy rows: host link, driver calls) apart. A scope (all rows of a part, a family, a row) scores a "
      "run as the mean of log(time / row centre) over its rows, a GPU as the mean of its runs (their median from "
      "three, their 20 % trimmed mean from five); host work is judged from {} runs on. Slower when the score is beyond the threshold (GPU work: all {:g} %, family {:g} %, row {:g} %; host "
      "work: all {:g} %, row {:g} %) and its z beyond the per-GPU level {:g} split over the part's scopes; the null's "
      "variance is the healthy chips' spread (1.4826 x MAD of their scores less their run noise), the GPU's run noise "
      "(pooled) over its runs, the centre's and the timer step's. The centre is the median of the largest group "
      "agreeing within the threshold; no majority: undecided. A part with over {:g} % of its rows failed is failing.",
      t.host_runs, t.all_pct, t.family_pct, t.row_pct, t.host_all_pct, t.host_row_pct, t.alpha, 100 * t.fail_share);
}

document fleet_document(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt) {
  document doc;
  doc.title = "membench fleet";
  doc.notes = summary_notes(s, gpus, opt);
  doc.notes.push_back(rule_note(s.test));
  if (!s.multi_gpu.empty())
    doc.notes.push_back(fmt::format("left out: {} row(s) that involve several GPUs (peer rows: no one GPU's time), "
                                    "such as {}",
                                    s.multi_gpu.size(), s.multi_gpu.front()));
  for (const fleet& f : s.fleets) {
    if (opt.make_baseline && !enough_for_baseline(f))
      doc.notes.push_back(fmt::format("not in the baseline written: {} {}, {} GPU(s) (a reference needs {} or more)",
                                      f.key.text(), stratum_text(f.stratum), f.gpus.size(), s.test.robust_gpus));
  }
  if (!s.no_level.empty())
    doc.notes.push_back(fmt::format("left out: {} row(s) of no level (--by=level judges the level rows of "
                                    "common/levels.hpp), such as {}",
                                    s.no_level.size(), s.no_level.front()));
  // Files not counted: each one said, the first few here (the JSON lists every one).
  for (std::size_t i = 0; i < s.set_aside.size() && i < 8; ++i) doc.notes.push_back("not counted: " + s.set_aside[i]);
  if (s.set_aside.size() > 8)
    doc.notes.push_back(fmt::format("not counted: {} more file(s) (--format json lists every one)", s.set_aside.size() - 8));
  const std::size_t most = opt.show_all ? gpus.size() : listed_gpus;
  if (gpus.size() > most)
    doc.notes.push_back(fmt::format("GPUs, worst first: the first {} of {} (--all lists every one)", most, gpus.size()));
  if (!s.since.empty())
    doc.notes.push_back(fmt::format("since {}: each GPU judged on its runs since, and against its own earlier runs "
                                    "(the drift column){}",
                                    s.since,
                                    s.no_recent_run.empty()
                                        ? std::string()
                                        : fmt::format("; {} GPU(s) without a run since not judged (exit 3 at best), such as {}",
                                                      s.no_recent_run.size(), s.no_recent_run.front().uuid)));
  const std::size_t flagged = static_cast<std::size_t>(std::count_if(gpus.begin(), gpus.end(), [](const gpu_summary& g) {
    return g.v != gpu_verdict::within || g.host_v != gpu_verdict::within || g.drift_v == gpu_verdict::outlier ||
           g.host_drift_v == gpu_verdict::outlier;
  }));
  const std::size_t most_flagged = opt.show_all ? flagged : listed_flagged;
  if (flagged > most_flagged)
    doc.notes.push_back(fmt::format("GPUs or hosts not passing: the first {} of {}, worst first (--all or --format json "
                                    "lists every one)",
                                    most_flagged, flagged));
  if (table levels = level_table(s, gpus); !levels.rows.empty()) doc.tables.push_back(std::move(levels));
  doc.tables.push_back(gpu_table(s, gpus, true, most_flagged));
  doc.tables.push_back(gpu_table(s, gpus, false, most));
  if (table confirm = confirm_table(s, gpus); !confirm.rows.empty()) doc.tables.push_back(std::move(confirm));
  doc.tables.push_back(scope_table(s, gpus, opt));
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) {
    if (s.fleets[fi].gpus.size() <= family_columns) doc.tables.push_back(family_table(s, gpus, fi, opt));
  }
  return doc;
}

}  // namespace membench::report
