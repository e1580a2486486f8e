// compare's document: a row per benchmark that changed or is unsure (every one with --all),
// drawn from its record, and notes on the inputs, the counts, the rule behind a verdict and
// the family.
#include <cmath>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "common/stats.hpp"
#include "compare/compare_stages.hpp"
#include "render/render_record.hpp"

namespace membench::report {
namespace {

std::string side_note(const char* what, const std::vector<const result_file*>& files) {
  const result_file& f = *files.front();
  if (files.size() == 1)
    return fmt::format("{} {} ({}, {} build, commit {})", what, f.path, f.gpu(), f.build(),
                       f.context_value(std::string(schema::context_key("membench_git_commit").key)));
  return fmt::format("{} {} files: {} ({}, {} build)", what, files.size(), files_text(files), f.gpu(), f.build());
}

table empty_table(const compare_options& opt) {
  table t;
  t.title = opt.show_all ? "per benchmark" : "benchmarks that changed or are unsure (--all lists every one)";
  t.unit = fmt::format("time in us (median of the runs' medians); change = new / base - 1 with its {:g} % interval; "
                       "GB/s decimal",
                       opt.confidence_pct);
  return t;
}

// The notes a benchmark's state gives, gathered by kind in the order the notes show them.
struct pair_notes {
  std::vector<std::string> skipped, unusable, allowed;
};

// The table's rows (each pair's record, compare_record.cpp: changed or unsure ones, every
// one with --all, and the unusable) and the notes on benchmarks without a verdict.
table compare_table(const compare_sides& files, const std::vector<benchmark_pair>& pairs, const decided_pairs& d,
                    const compare_options& opt, pair_notes& notes) {
  table t = empty_table(opt);
  bool batch = false;  // a row shown was decided on its batch figure
  std::size_t j = 0;   // the next decision, in the order of the pairs decided
  for (const benchmark_pair& p : pairs) {
    const decision* x = p.state == pair_state::decide ? &d.decisions[j++] : nullptr;
    switch (p.state) {
      case pair_state::skipped_both: notes.skipped.push_back(fmt::format("skipped in both: {}", pair_name(p))); continue;
      case pair_state::left_out: notes.allowed.push_back(fmt::format("{}: {} (not compared)", pair_name(p), p.why)); continue;
      case pair_state::unusable: notes.unusable.push_back(fmt::format("{}: {}", pair_name(p), p.why)); break;
      case pair_state::decide:
        if (!p.why.empty()) notes.allowed.push_back(fmt::format("{}: {}", pair_name(p), p.why));
        if (x->v == verdict::same && !opt.show_all) continue;
        batch = batch || x->fig == figure::batch;
    }
    t.rows.push_back(record_row(pair_record(p, files_of(p, files), x, opt)));
  }
  // The columns are a record's headings, the same for every pair: the first pair's.
  if (!pairs.empty()) {
    const benchmark_pair& first = pairs.front();
    t.header = record_header(pair_record(first, files_of(first, files), nullptr, opt));
  }
  if (batch) t.unit += "; evidence (batch): decided on the batch figure, times per launch over back-to-back launches";
  return t;
}

std::string rule_note(const compare_options& opt) {
  return fmt::format(
      "verdict: |change| < {:g} % is same; beyond it, slower or faster only when the {:g} % interval of the change {}, "
      "the change is at least {}, no run was throttled, unconverged or at the timer's floor, the SM clocks agree within "
      "{:g} % and the change holds in cycles (time x SM clock) too; otherwise unsure ({}). Short rows are decided on "
      "their batch figure (back-to-back launches) where it resolves them more finely. Intervals: a seeded bootstrap of the ratio of medians where both sides have samples, "
      "else the rows' intervals, noise or repetitions; the spread of the runs' medians counts, and never less than "
      "{:g} % a run (work:kernel rows), {:g} % (work:copy) or {:g} % (work:host), with {:g} us added in quadrature; where a side has {} runs or more, "
      "the spread of its runs' medians is the run-to-run spread instead (evidence: runs), and runs that were "
      "throttled or did not converge are then allowed when the others alone give the same verdict",
      opt.threshold_pct, opt.confidence_pct,
      opt.margin_pct > 0 ? fmt::format("clears +-{:g} %", opt.margin_pct) : std::string("excludes 0"),
      resolution_text(opt.resolution_us), opt.clock_tolerance_pct, opt.unsure_fails ? "--unsure=fail: fails" : "--unsure=warn: listed",
      opt.run_spread_pct, opt.run_spread_copy_pct, opt.run_spread_host_pct, opt.run_spread_us, opt.calibration_runs);
}

// The notes before the rest: the sides, the counts, the rule and the family.
std::vector<std::string> head_notes(const compare_sides& files, const family_outcome& fam, const compare_counts& c,
                                    const compare_options& opt) {
  return {side_note("base:", files.base), side_note("new: ", files.next),
          fmt::format("{} compared: {} slower, {} faster, {} same, {} unsure; {} unusable", c.compared, c.slower,
                      c.faster, c.same, c.unsure, c.unusable),
          fmt::format("geometric mean of new/base time: {:.4f} ({:+.2f} %)", c.geomean_ratio,
                      100 * (c.geomean_ratio - 1)),
          rule_note(opt), family_note(fam, opt.family, opt.confidence_pct, "benchmark")};
}

// Notes when the sides differ in GPU, build or suite tier.
void add_mismatch_notes(document& d, const compare_sides& files) {
  const result_file& b = *files.base.front();
  const result_file& n = *files.next.front();
  if (b.gpu() != n.gpu() || b.build() != n.build())
    d.notes.push_back(fmt::format("note: comparing {} {} build against {} {} build", b.gpu(), b.build(), n.gpu(), n.build()));
  const std::string suite(schema::context_key("membench_suite").key);
  if (b.context_value(suite) != n.context_value(suite))
    d.notes.push_back(fmt::format("note: the {} tier against the {} tier", b.context_value(suite), n.context_value(suite)));
}

}  // namespace

document compare_document(const compare_sides& files, const std::vector<benchmark_pair>& pairs,
                          const decided_pairs& d, const family_outcome& fam, const compare_counts& counts,
                          const compare_options& opt) {
  document doc;
  doc.title = "membench compare";
  pair_notes notes;
  table t = compare_table(files, pairs, d, opt, notes);
  doc.notes = head_notes(files, fam, counts, opt);
  doc.notes.insert(doc.notes.end(), notes.skipped.begin(), notes.skipped.end());
  // --pairs names its rows: the others of its files are not missing from a comparison.
  const bool named_rows = !pairs.empty() && !pairs.front().base_files.empty();
  if (!named_rows) {
    for (std::string& only : only_in_new(files, name_filter(opt.filter))) doc.notes.push_back(std::move(only));
  }
  add_mismatch_notes(doc, files);
  for (const auto& p : notes.unusable) doc.notes.push_back("unusable: " + p);
  for (const auto& p : notes.allowed) doc.notes.push_back("--allow-missing: " + p);
  doc.tables.push_back(std::move(t));
  return doc;
}

}  // namespace membench::report
