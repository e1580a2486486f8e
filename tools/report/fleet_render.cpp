// fleet's document: the fleets and the rules in notes; per fleet its GPUs worst first and
// a family x GPU table of median deviations (a heatmap in HTML); the rows called slower or
// faster (every row with --all).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "fleet_stages.hpp"
#include "intervals.hpp"

namespace membench::report {
namespace {

std::string pct(double x) { return std::isnan(x) ? "-" : fmt::format("{:+.2f} %", 100 * x); }

tone mood_of(verdict v) {
  return v == verdict::slower ? tone::bad : v == verdict::faster ? tone::good : v == verdict::unsure ? tone::muted : tone::plain;
}

tone mood_of(gpu_verdict v) {
  return v == gpu_verdict::outlier ? tone::bad : v == gpu_verdict::unsure ? tone::muted : tone::plain;
}

std::string left_text(const gpu_summary& g) {
  std::string out;
  for (int k = 1; k < left_out_count; ++k) {
    if (g.left[k] > 0) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", g.left[k], to_string(static_cast<left_out>(k)));
  }
  return out.empty() ? "-" : out;
}

std::string clock_text(const gpu_summary& g) {
  if (std::isnan(g.clock_mhz)) return "-";
  return std::isnan(g.fleet_clock_mhz) ? fmt::format("{:.0f}", g.clock_mhz)
                                       : fmt::format("{:.0f} / {:.0f}", g.clock_mhz, g.fleet_clock_mhz);
}

table gpu_table(const fleet_state& s, const std::vector<gpu_summary>& gpus, std::size_t fi) {
  const fleet& f = s.fleets[fi];
  table t;
  t.title = s.fleets.size() == 1 ? "GPUs, worst first" : fmt::format("GPUs of {}, worst first", f.key.text());
  t.unit = "rows compared and called; median deviation = median over its rows of GPU / centre - 1; clock: its "
           "rows' median SM clock / the fleet's (MHz)";
  t.header = {"rank", "GPU", "host", "runs", "compared", "slower", "faster", "unsure", "median deviation",
              "clock MHz", "worst families", "left out", "verdict"};
  int rank = 0;
  for (const gpu_summary& g : gpus) {
    if (g.fleet != fi) continue;
    const fleet_gpu& gpu = f.gpus[g.gpu];
    t.rows.push_back({{fmt::format("{}", ++rank), static_cast<double>(rank)},
                      {gpu.uuid},
                      {gpu.host},
                      {fmt::format("{}", gpu.files.size()), static_cast<double>(gpu.files.size())},
                      {fmt::format("{}", g.compared), static_cast<double>(g.compared)},
                      {fmt::format("{}", g.slower), static_cast<double>(g.slower), g.slower ? tone::bad : tone::plain},
                      {fmt::format("{}", g.faster), static_cast<double>(g.faster), g.faster ? tone::good : tone::plain},
                      {fmt::format("{}", g.unsure), static_cast<double>(g.unsure)},
                      {pct(g.median_change), 100 * g.median_change},
                      {clock_text(g)},
                      {worst_families(g, 3)},
                      {left_text(g)},
                      {g.v == gpu_verdict::within ? g.reason : fmt::format("{}: {}", to_string(g.v), g.reason), NAN,
                       mood_of(g.v)}});
  }
  return t;
}

// A row's verdict, saying when it is one that makes an outlier alone.
std::string verdict_text(const judged& j, const fleet_options& opt) {
  const decision& d = j.d;
  if (d.v == verdict::unsure) return fmt::format("unsure: {}", d.reason);
  if (d.v == verdict::same || j.one_row != d.v) return to_string(d.v);
  return fmt::format("{}, beyond {}{:g} %", to_string(d.v), d.v == verdict::slower ? "+" : "-", opt.one_row_threshold_pct);
}

// The evidence, and the figure where it is not the row's median: "runs (fastest)".
std::string evidence_text(evidence e, figure f) {
  return f == figure::single ? to_string(e) : fmt::format("{} ({})", to_string(e), to_string(f));
}

std::vector<cell> row_line(const fleet_state& s, const judged& j, const fleet_options& opt) {
  const fleet& f = s.fleets[j.fleet];
  const decision& d = j.d;
  const row_centre& c = j.ref;
  return {{gpu_label(f, j.gpu)},
          {*f.rows[j.row].name},
          {format_value(d.base_us), d.base_us},
          {format_value(d.new_us), d.new_us},
          {pct(d.change), 100 * d.change, mood_of(d.v)},
          {std::isnan(d.low) ? "-" : fmt::format("[{:+.2f}, {:+.2f}] %", 100 * d.low, 100 * d.high)},
          {fmt::format("{:.2f} % of {}", 100 * std::expm1(c.spread), c.gpus), 100 * std::expm1(c.spread)},
          {evidence_text(d.from, f.rows[j.row].fig)},
          {verdict_text(j, opt), NAN, mood_of(d.v)}};
}

// The rows called (every row with --all), GPU by GPU in rank order, largest deviation first.
table row_table(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt) {
  table t;
  t.title = opt.test.show_all ? "every row of every GPU" : "rows called slower or faster (--all lists every row)";
  t.unit = fmt::format("time in us; deviation = GPU / centre - 1 with its {:g} % interval; spread: of the other GPUs "
                       "about the centre (1.4826 x MAD), of how many GPUs the centre is",
                       opt.test.confidence_pct);
  t.header = {"GPU", "benchmark", "centre us", "GPU us", "deviation", "interval", "spread", "evidence", "verdict"};
  for (const gpu_summary& g : gpus) {
    std::vector<const judged*> mine;
    for (const judged& j : s.rows) {
      const bool called = j.d.v == verdict::slower || j.d.v == verdict::faster;
      if (j.fleet == g.fleet && j.gpu == g.gpu && (called || opt.test.show_all)) mine.push_back(&j);
    }
    std::stable_sort(mine.begin(), mine.end(), [](const judged* a, const judged* b) { return a->d.change > b->d.change; });
    for (const judged* j : mine) t.rows.push_back(row_line(s, *j, opt));
  }
  return t;
}

// Families as rows, a GPU a column (rank order): its rows' median deviation in the family.
table family_table(const fleet_state& s, const std::vector<gpu_summary>& gpus, std::size_t fi, const fleet_options& opt) {
  const fleet& f = s.fleets[fi];
  table t;
  t.title = s.fleets.size() == 1 ? "median deviation by family" : fmt::format("median deviation by family, {}", f.key.text());
  t.unit = "percent, median over the GPU's rows of the family of GPU / centre - 1; marked where rows were called, "
           "muted where every row was unsure";
  t.header = {"family"};
  // Shaded red (slower) or blue (faster), full at three times the threshold.
  t.heat = heat_scale{"median deviation from the fleet's centre, %", 3 * opt.test.threshold_pct, true};
  std::vector<const gpu_summary*> order;
  for (const gpu_summary& g : gpus) {
    if (g.fleet == fi) order.push_back(&g);
  }
  for (const gpu_summary* g : order) t.header.push_back(gpu_label(f, g->gpu));
  std::vector<std::string> families;
  for (const fleet_row& r : f.rows) {
    if (std::find(families.begin(), families.end(), r.family) == families.end()) families.push_back(r.family);
  }
  for (const std::string& name : families) {
    std::vector<cell> line{{name}};
    for (const gpu_summary* g : order) {
      const auto it = std::find_if(g->families.begin(), g->families.end(),
                                   [&](const family_score& x) { return x.family == name; });
      if (it == g->families.end()) {
        line.push_back({"-", NAN, tone::muted});
        continue;
      }
      const tone mood = it->slower > 0   ? tone::bad
                        : it->faster > 0 ? tone::good
                        : it->unsure == it->compared ? tone::muted
                                                     : tone::plain;
      const double pct = 100 * it->median_change;
      const double heat = mood == tone::muted ? NAN : std::clamp(pct / t.heat->top, -1.0, 1.0);
      line.push_back({fmt::format("{:+.2f}", pct), pct, mood, heat});
    }
    t.rows.push_back(std::move(line));
  }
  return t;
}

std::vector<std::string> fleet_notes(const fleet_state& s, const std::vector<gpu_summary>& gpus) {
  std::vector<std::string> notes;
  for (const fleet& f : s.fleets) {
    std::size_t files = 0;
    for (const fleet_gpu& g : f.gpus) files += g.files.size();
    notes.push_back(fmt::format("fleet: {}: {} GPU(s), {} file(s); centres {}", f.key.text(), f.gpus.size(), files,
                                s.baseline_path.empty() ? "from the fleet itself"
                                                        : fmt::format("from the baseline {} ({} GPUs)", s.baseline_path,
                                                                      f.reference_gpus)));
    if (f.reference_gpus < 3)
      notes.push_back(fmt::format("note: {} GPU(s) behind the centres of {}: not robust, every GPU unsure (3 or more "
                                  "needed)",
                                  f.reference_gpus, f.key.text()));
  }
  int n[3] = {};
  for (const gpu_summary& g : gpus) ++n[static_cast<int>(g.v)];
  notes.push_back(fmt::format("{} GPU(s): {} outlier, {} unsure, {} within the fleet", gpus.size(), n[0], n[1], n[2]));
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) {
    const std::vector<apart_field> apart = outliers_apart(s, gpus, fi);
    if (apart.empty()) continue;
    notes.push_back(fmt::format("outliers apart{}: no outlier shares a value with {} in {} (the "
                                "outliers' against the others'; a cause to look at, not a proof)",
                                s.fleets.size() == 1 ? "" : fmt::format(" ({})", s.fleets[fi].key.text()),
                                s.baseline_path.empty() ? "a GPU within the fleet" : "any GPU of the baseline",
                                apart_text(apart)));
  }
  return notes;
}

// Copy and host rows judged on their floors: a few runs cannot show how far such a row moves
// from one process to the next (1.5-10 %), which many runs measure.
std::string floors_note(const fleet_state& s, const fleet_options& opt) {
  if (opt.calibration_runs <= 0) return {};
  std::size_t floored = 0, unsure = 0;
  for (const judged& j : s.rows) {
    const side& g = s.fleets[j.fleet].rows[j.row].sides[j.gpu];
    if (detail::work_of(g, side{}) == run::work_kind::kernel || measured_runs(g, opt.calibration_runs)) continue;
    ++floored;
    unsure += j.d.v == verdict::unsure;
  }
  if (floored == 0) return {};
  return fmt::format("copy and host rows: {} judged on the floors (fewer than {} runs of the GPU), {} of them unsure; "
                     "{} runs of such a row or more are judged by their own spread (--benchmark_filter can run those "
                     "rows alone, which costs little)",
                     floored, opt.calibration_runs, unsure, opt.calibration_runs);
}

// Copies judged on their fastest samples, where the fleet has any.
std::string fastest_note(const fleet_state& s) {
  std::size_t rows = 0;
  for (const fleet& f : s.fleets) {
    rows += static_cast<std::size_t>(
        std::count_if(f.rows.begin(), f.rows.end(), [](const fleet_row& r) { return r.fig == figure::fastest; }));
  }
  if (rows == 0) return {};
  return fmt::format("copies: {} row(s) judged on each run's fastest sample (t_min_us), not its median: a copy beside "
                     "other GPUs' copies only ever takes longer, so its median carries theirs and its fastest sample "
                     "its own link",
                     rows);
}

}  // namespace

document fleet_document(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt) {
  document doc;
  doc.title = "membench fleet";
  doc.notes = fleet_notes(s, gpus);
  doc.notes.push_back(row_rule_note(opt));
  doc.notes.push_back(gpu_rule_note(opt));
  doc.notes.push_back(family_note(s.fam, opt.test.family, opt.test.confidence_pct, "GPU row"));
  if (opt.test.family == correction::bh)
    doc.notes.push_back(fmt::format("one row: the same rows as one family at {:g} %: {} slower or faster at the {} % "
                                    "level, {} called alone but unsure",
                                    opt.one_row_threshold_pct, s.one_row_fam.kept, level_pct(s.one_row_fam.level),
                                    s.one_row_fam.demoted));
  if (std::string floors = floors_note(s, opt); !floors.empty()) doc.notes.push_back(std::move(floors));
  if (std::string fastest = fastest_note(s); !fastest.empty()) doc.notes.push_back(std::move(fastest));
  if (!s.multi_gpu.empty())
    doc.notes.push_back(fmt::format("left out: {} row(s) that involve several GPUs (peer rows: no one GPU's time), "
                                    "such as {}",
                                    s.multi_gpu.size(), s.multi_gpu.front()));
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) doc.tables.push_back(gpu_table(s, gpus, fi));
  doc.tables.push_back(row_table(s, gpus, opt));
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) doc.tables.push_back(family_table(s, gpus, fi, opt));
  return doc;
}

}  // namespace membench::report
