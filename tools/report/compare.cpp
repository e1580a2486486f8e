// compare: every benchmark of the BASE files against the NEW files, a verdict each.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/parallel.hpp"
#include "common/schema.hpp"
#include "common/stats.hpp"
#include "views.hpp"

namespace membench::report {

decide_options compare_options::decide() const {
  decide_options o;
  o.threshold = threshold_pct / 100;
  o.margin = margin_pct / 100;
  o.resolution_us = resolution_us;
  o.clock_tolerance = clock_tolerance_pct / 100;
  o.run_spread = run_spread_pct / 100;
  o.run_spread_copy = run_spread_copy_pct / 100;
  o.run_spread_host = run_spread_host_pct / 100;
  o.confidence = confidence_pct / 100;
  o.calibration_runs = calibration_runs;
  o.seed = seed;
  return o;
}

read_options compare_reads() {
  read_options r;
  r.all_counters = false;
  r.counters = {std::string(schema::counter("gb_per_s").key)};
  r.evidence = true;
  return r;
}

namespace {

// One benchmark's results in each file of a side (null where a file lacks it).
struct found {
  std::vector<const result*> base, next;
};

std::string files_text(const std::vector<const result_file*>& files) {
  std::string s;
  for (const result_file* f : files) s += fmt::format("{}{}", s.empty() ? "" : ", ", f->path);
  return s;
}

std::string side_note(const char* what, const std::vector<const result_file*>& files) {
  const result_file& f = *files.front();
  if (files.size() == 1)
    return fmt::format("{} {} ({}, {} build, commit {})", what, f.path, f.gpu(), f.build(),
                       f.context_value(std::string(schema::context_key("membench_git_commit").key)));
  return fmt::format("{} {} files: {} ({}, {} build)", what, files.size(), files_text(files), f.gpu(), f.build());
}

// The median GB/s of a side's results.
double median_gbps(const std::vector<const result*>& rs) {
  std::vector<double> v;
  for (const result* r : rs) {
    if (const double* x = r->counters.find(schema::counter("gb_per_s").key)) v.push_back(*x);
  }
  return v.empty() ? NAN : median_of(std::move(v));
}

std::string pct(double x) { return std::isnan(x) ? "-" : fmt::format("{:+.2f} %", 100 * x); }

}  // namespace

compare_outcome view_compare(const result_file& base, const result_file& next, const compare_options& opt) {
  return view_compare(std::vector<const result_file*>{&base}, std::vector<const result_file*>{&next}, opt);
}

compare_outcome view_compare(const std::vector<const result_file*>& base, const std::vector<const result_file*>& next,
                             const compare_options& opt) {
  if (base.empty() || next.empty()) throw input_error("compare needs at least one BASE and one NEW file");
  const name_filter filter(opt.filter);
  compare_outcome out;
  document& d = out.doc;
  d.title = "membench compare";

  // Every benchmark of the BASE files, in the first file's order, then the others'.
  auto in_base = [&](const std::string& name, std::size_t files) {
    return std::any_of(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(files),
                       [&](const result_file* f) { return f->find(name) != nullptr; });
  };
  std::vector<const std::string*> names;
  for (std::size_t k = 0; k < base.size(); ++k) {
    for (const auto& r : base[k]->results) {
      if (filter(r.name) && !in_base(r.name, k)) names.push_back(&r.name);
    }
  }
  std::vector<found> all(names.size());
  bool shared = false;
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (const result_file* f : base) all[i].base.push_back(f->find(*names[i]));
    for (const result_file* f : next) all[i].next.push_back(f->find(*names[i]));
    shared = shared || std::any_of(all[i].next.begin(), all[i].next.end(), [](const result* r) { return r != nullptr; });
  }
  if (!shared)
    throw input_error(fmt::format("{} and {} share no benchmark matching --filter '{}'", files_text(base),
                                  files_text(next), opt.filter));

  // What keeps a benchmark from a verdict, if anything ("" when it can be decided).
  enum class state { decide, skipped_both, unusable, left_out };
  std::vector<state> states(names.size(), state::decide);
  std::vector<std::string> why(names.size());
  auto usable = [](const result* r) { return r != nullptr && !r->error && r->time_us > 0; };
  for (std::size_t i = 0; i < names.size(); ++i) {
    const found& x = all[i];
    auto all_skipped = [](const std::vector<const result*>& rs) {
      return std::any_of(rs.begin(), rs.end(), [](const result* r) { return r != nullptr; }) &&
             std::all_of(rs.begin(), rs.end(), [](const result* r) { return r == nullptr || r->skipped; });
    };
    if (all_skipped(x.base) && all_skipped(x.next)) {
      // Skipped for the same reason on both sides (a size this GPU cannot hold): nothing to compare.
      states[i] = state::skipped_both;
      continue;
    }
    std::string problem;
    // A side is its files together: a benchmark is missing when none of them has it (the
    // CI runs kernel rows and host-work rows in separate processes, each file a part).
    auto check = [&](const std::vector<const result*>& rs, const std::vector<const result_file*>& files) {
      if (std::all_of(rs.begin(), rs.end(), [](const result* r) { return r == nullptr; })) {
        problem = fmt::format("missing in {}", files_text(files));
        return;
      }
      for (std::size_t k = 0; k < rs.size() && problem.empty(); ++k) {
        if (rs[k] == nullptr) {
          continue;
        } else if (rs[k]->error) {
          problem = fmt::format("error row in {}: {}", files[k]->path, *rs[k]->error);
        } else if (!(rs[k]->time_us > 0)) {
          problem = fmt::format("zero time in {}", files[k]->path);
        }
      }
    };
    check(x.base, base);
    check(x.next, next);
    const bool each_side = std::any_of(x.base.begin(), x.base.end(), usable) &&
                           std::any_of(x.next.begin(), x.next.end(), usable);
    if (!problem.empty()) {
      // --allow-missing: noted, and decided from the files that have it if each side has one.
      states[i] = !opt.allow_missing ? state::unusable : each_side ? state::decide : state::left_out;
      why[i] = problem;
    }
  }

  // The verdicts, on every core (a bootstrap per benchmark when the rows have samples).
  const decide_options o = opt.decide();
  auto decide_row = [&](std::size_t i, const decide_options& with) {
    side sb, sn;
    for (std::size_t k = 0; k < base.size(); ++k) {
      if (usable(all[i].base[k])) add_to_side(sb, *all[i].base[k], *base[k]);
    }
    for (std::size_t k = 0; k < next.size(); ++k) {
      if (usable(all[i].next[k])) add_to_side(sn, *all[i].next[k], *next[k]);
    }
    return decide(sb, sn, with, *names[i]);
  };
  std::vector<std::size_t> family;  // the benchmarks decided, in order
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (states[i] == state::decide) family.push_back(i);
  }
  auto decide_all = [&](const std::vector<std::size_t>& which, const decide_options& with) {
    std::vector<decision> ds(which.size());
    parallel_parts(
        which.size(),
        [&](std::size_t b, std::size_t e, std::size_t) {
          for (std::size_t j = b; j < e; ++j) ds[j] = decide_row(family[which[j]], with);
        },
        // A few re-decisions at a far level (bootstraps of 10^5 replicates) are worth the threads too.
        &with == &o ? 64 : 2);
    return ds;
  };
  std::vector<std::size_t> everyone(family.size());
  for (std::size_t j = 0; j < family.size(); ++j) everyone[j] = j;
  std::vector<decision> decided = decide_all(everyone, o);
  family_outcome fam;
  if (opt.family == correction::bh) fam = correct_family(decided, o, decide_all);
  std::vector<std::size_t> decided_at(names.size(), 0);  // a benchmark's place in `decided`
  for (std::size_t j = 0; j < family.size(); ++j) decided_at[family[j]] = j;

  table t;
  t.title = opt.show_all ? "per benchmark" : "benchmarks that changed or are unsure (--all lists every one)";
  t.unit = fmt::format("time in us (median of the runs' medians); change = new / base - 1 with its {:g} % interval; "
                       "GB/s decimal",
                       opt.confidence_pct);
  t.header = {"benchmark", "base us", "new us", "change", "interval", "base GB/s", "new GB/s", "GB/s change",
              "evidence", "verdict"};
  std::vector<std::string> problems, noted;
  double log_sum = 0;
  int compared = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string& name = *names[i];
    if (states[i] == state::skipped_both) {
      d.notes.push_back(fmt::format("skipped in both: {}", name));
      continue;
    }
    if (states[i] == state::left_out) {
      noted.push_back(fmt::format("{}: {} (not compared)", name, why[i]));
      continue;
    }
    if (states[i] == state::unusable) {
      ++out.unusable;
      problems.push_back(fmt::format("{}: {}", name, why[i]));
      std::vector<cell> line{{name, NAN, tone::plain}, {why[i], NAN, tone::bad}};
      for (std::size_t k = 2; k < t.header.size(); ++k) line.push_back({"", NAN, tone::muted});
      t.rows.push_back(std::move(line));
      continue;
    }
    if (!why[i].empty()) noted.push_back(fmt::format("{}: {}", name, why[i]));
    const decision& x = decided[decided_at[i]];
    log_sum += std::log1p(x.change);
    ++compared;
    switch (x.v) {
      case verdict::same: ++out.same; break;
      case verdict::faster: ++out.faster; break;
      case verdict::slower: ++out.slower; break;
      case verdict::unsure: ++out.unsure; break;
    }
    if (x.v == verdict::same && !opt.show_all) continue;
    std::vector<cell> line{{name, NAN, tone::plain}};
    const tone mood = x.v == verdict::slower   ? tone::bad
                      : x.v == verdict::faster ? tone::good
                      : x.v == verdict::unsure ? tone::muted
                                               : tone::plain;
    line.push_back({format_value(x.base_us), x.base_us});
    line.push_back({format_value(x.new_us), x.new_us});
    line.push_back({pct(x.change), 100 * x.change, mood});
    line.push_back({std::isnan(x.low) ? "-" : fmt::format("[{:+.2f}, {:+.2f}] %", 100 * x.low, 100 * x.high), NAN,
                    tone::plain});
    std::vector<const result*> rb, rn;
    for (const result* r : all[i].base) {
      if (usable(r)) rb.push_back(r);
    }
    for (const result* r : all[i].next) {
      if (usable(r)) rn.push_back(r);
    }
    const double gb_base = median_gbps(rb), gb_new = median_gbps(rn);
    if (gb_base > 0 && !std::isnan(gb_new)) {
      line.push_back({format_value(gb_base), gb_base});
      line.push_back({format_value(gb_new), gb_new});
      line.push_back({pct(gb_new / gb_base - 1), 100 * (gb_new / gb_base - 1), mood});
    } else {
      for (int k = 0; k < 3; ++k) line.push_back({"-", NAN, tone::muted});
    }
    line.push_back({to_string(x.from), NAN, tone::plain});
    line.push_back({x.v == verdict::unsure ? fmt::format("unsure: {}", x.reason) : to_string(x.v), NAN, mood});
    t.rows.push_back(std::move(line));
  }
  for (const result_file* f : next) {
    for (const auto& r : f->results) {
      if (filter(r.name) && !in_base(r.name, base.size()))
        d.notes.push_back(fmt::format("only in {}: {}", f->path, r.name));
    }
  }
  out.geomean_ratio = compared > 0 ? std::exp(log_sum / compared) : 1;
  d.notes.insert(
      d.notes.begin(),
      {side_note("base:", base), side_note("new: ", next),
       fmt::format("{} compared: {} slower, {} faster, {} same, {} unsure; {} unusable", compared, out.slower,
                   out.faster, out.same, out.unsure, out.unusable),
       fmt::format("geometric mean of new/base time: {:.4f} ({:+.2f} %)", out.geomean_ratio,
                   100 * (out.geomean_ratio - 1)),
       fmt::format("verdict: |change| < {:g} % is same; beyond it, slower or faster only when the {:g} % interval of "
                   "the change {}, the change is at least {:g} us, no run was throttled or unconverged and the "
                   "SM clocks agree within {:g} %; otherwise unsure ({}). Intervals: a seeded bootstrap of the ratio "
                   "of medians where both sides have samples, else the rows' intervals, noise or repetitions; the "
                   "spread of the runs' medians counts, and never less than {:g} % a run (work:kernel rows), {:g} % "
                   "(work:copy) or {:g} % (work:host); where a side has {} runs or more, the spread of its runs' "
                   "medians is the run-to-run spread instead (evidence: runs), and runs that were throttled or did not "
                   "converge are then allowed when the others alone give the same verdict",
                   opt.threshold_pct, opt.confidence_pct,
                   opt.margin_pct > 0 ? fmt::format("clears +-{:g} %", opt.margin_pct) : std::string("excludes 0"),
                   opt.resolution_us, opt.clock_tolerance_pct,
                   opt.unsure_fails ? "--unsure=fail: fails" : "--unsure=warn: listed", opt.run_spread_pct,
                   opt.run_spread_copy_pct, opt.run_spread_host_pct, opt.calibration_runs),
       opt.family == correction::bh
           ? fmt::format("family: Benjamini-Hochberg over the {} benchmarks compared (false calls at most {:g} % of the "
                         "calls): {} slower or faster at the {:.4g} % level{}, {} called alone but unsure as one of {}",
                         fam.compared, 100 - opt.confidence_pct, fam.kept, 100 * fam.level,
                         fam.kept == 0 ? " (what one call would need)" : "", fam.demoted, fam.compared)
           : std::string("family: none (--correction none: each benchmark alone at its level)")});
  if (base.front()->gpu() != next.front()->gpu() || base.front()->build() != next.front()->build())
    d.notes.push_back(fmt::format("note: comparing {} {} build against {} {} build", base.front()->gpu(),
                                  base.front()->build(), next.front()->gpu(), next.front()->build()));
  const std::string suite(schema::context_key("membench_suite").key);
  if (base.front()->context_value(suite) != next.front()->context_value(suite))
    d.notes.push_back(fmt::format("note: the {} tier against the {} tier", base.front()->context_value(suite),
                                  next.front()->context_value(suite)));
  for (const auto& p : problems) d.notes.push_back("unusable: " + p);
  for (const auto& p : noted) d.notes.push_back("--allow-missing: " + p);
  d.tables.push_back(std::move(t));
  return out;
}

}  // namespace membench::report
