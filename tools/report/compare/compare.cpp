// compare: every benchmark of the BASE files against the NEW files, a verdict each. The
// stages (compare_stages.hpp) in order: pair, decide, correct as a family, count, render.
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "common/parallel.hpp"
#include "common/schema.hpp"
#include "compare/compare_stages.hpp"

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
  o.run_spread_us = run_spread_us;
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

// A pair's verdict from the usable results of each side.
decision decide_pair(const benchmark_pair& p, const compare_sides& all, const decide_options& with) {
  const compare_sides files = files_of(p, all);
  side sb, sn;
  for (std::size_t k = 0; k < files.base.size(); ++k) {
    if (usable(p.base[k])) add_to_side(sb, *p.base[k], *files.base[k]);
  }
  for (std::size_t k = 0; k < files.next.size(); ++k) {
    if (usable(p.next[k])) add_to_side(sn, *p.next[k], *files.next[k]);
  }
  decide_options own = with;
  if (!std::isnan(p.threshold_pct)) own.threshold = p.threshold_pct / 100;
  if (!std::isnan(p.margin_pct)) own.margin = p.margin_pct / 100;
  return decide(sb, sn, own, *p.name);
}

// Decides the pairs `family[which[j]]` at `with` on every core (a bootstrap per benchmark
// when the rows have samples); fewer than `serial_below` stay on one thread.
std::vector<decision> decide_some(const std::vector<benchmark_pair>& pairs, const compare_sides& files,
                                  const std::vector<std::size_t>& family, const std::vector<std::size_t>& which,
                                  const decide_options& with, std::size_t serial_below) {
  std::vector<decision> ds(which.size());
  parallel_parts(
      which.size(),
      [&](std::size_t b, std::size_t e, std::size_t) {
        for (std::size_t j = b; j < e; ++j) ds[j] = decide_pair(pairs[family[which[j]]], files, with);
      },
      serial_below);
  return ds;
}

}  // namespace

decided_pairs decide_pairs(const std::vector<benchmark_pair>& pairs, const compare_sides& files,
                           const compare_options& opt, family_outcome& fam) {
  decided_pairs d;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (pairs[i].state == pair_state::decide) d.family.push_back(i);
  }
  const decide_options o = opt.decide();
  std::vector<std::size_t> everyone(d.family.size());
  std::iota(everyone.begin(), everyone.end(), std::size_t{0});
  d.decisions = decide_some(pairs, files, d.family, everyone, o, 64);
  // A few re-decisions at a far level (bootstraps of 10^5 replicates) are worth the threads too.
  auto again = [&](const std::vector<std::size_t>& which, const decide_options& with) {
    return decide_some(pairs, files, d.family, which, with, 2);
  };
  if (opt.family == correction::bh) fam = correct_family(d.decisions, o, again);
  return d;
}

compare_counts count_verdicts(const std::vector<benchmark_pair>& pairs, const decided_pairs& d) {
  compare_counts c;
  double log_sum = 0;
  std::size_t j = 0;  // the next decision, in the order of the pairs decided
  for (const benchmark_pair& p : pairs) {
    if (p.state == pair_state::unusable) ++c.unusable;
    if (p.state != pair_state::decide) continue;
    const decision& x = d.decisions[j++];
    log_sum += std::log1p(x.change);
    ++c.compared;
    switch (x.v) {
      case verdict::same: ++c.same; break;
      case verdict::faster: ++c.faster; break;
      case verdict::slower: ++c.slower; break;
      case verdict::unsure: ++c.unsure; break;
    }
  }
  c.geomean_ratio = c.compared > 0 ? std::exp(log_sum / c.compared) : 1;
  return c;
}

compare_outcome view_compare(const result_file& base, const result_file& next, const compare_options& opt) {
  return view_compare(std::vector<const result_file*>{&base}, std::vector<const result_file*>{&next}, opt);
}

namespace {

// A side's runs are pooled at one interval level: files of two levels would all be read at
// the last one's (a 50 % interval taken for a 95 % one).
void check_one_ci_level(const std::vector<const result_file*>& files, const char* side) {
  for (const result_file* f : files) {
    if (f->ci_level() == files.front()->ci_level()) continue;
    throw input_error(fmt::format("compare: the {} files' intervals are at different levels ({:g} % in {}, {:g} % in {}): "
                                  "compare runs made at one --ci-level",
                                  side, 100 * files.front()->ci_level(), files.front()->path, 100 * f->ci_level(), f->path));
  }
}

// One side's files are reruns of one GPU model and build: pooled, they make one centre, and
// runs of another GPU or build in it would move that centre and be labelled as the first's.
void check_one_gpu_and_build(const std::vector<const result_file*>& files, const char* side) {
  const result_file& first = *files.front();
  for (const result_file* f : files) {
    if (f->gpu() == first.gpu() && f->build() == first.build()) continue;
    throw input_error(fmt::format("compare: the {} files are runs of different GPUs or builds ({} {} build in {}, {} {} "
                                  "build in {}): a side pools reruns of one; compare them against each other instead",
                                  side, first.gpu(), first.build(), first.path, f->gpu(), f->build(), f->path));
  }
}

}  // namespace

compare_outcome view_compare(const std::vector<const result_file*>& base, const std::vector<const result_file*>& next,
                             const compare_options& opt) {
  if (base.empty() || next.empty()) throw input_error("compare needs at least one BASE and one NEW file");
  check_one_ci_level(base, "BASE");
  check_one_ci_level(next, "NEW");
  check_one_gpu_and_build(base, "BASE");
  check_one_gpu_and_build(next, "NEW");
  const compare_sides files{base, next};
  const std::vector<benchmark_pair> pairs = pair_benchmarks(files, opt);
  family_outcome fam;
  const decided_pairs decided = decide_pairs(pairs, files, opt, fam);
  const compare_counts counts = count_verdicts(pairs, decided);
  return compare_outcome_of(files, pairs, decided, fam, counts, opt);
}

compare_outcome compare_outcome_of(const compare_sides& files, const std::vector<benchmark_pair>& pairs,
                                   const decided_pairs& decided, const family_outcome& fam, const compare_counts& counts,
                                   const compare_options& opt) {
  compare_outcome out;
  if (opt.as_json && !opt.machine_format.empty()) {
    test_run run = compare_tests(pairs, decided, opt);
    run.start_ms = opt.started_ms;
    run.stop_ms = now_ms();
    out.json = test_report_text(run, opt.machine_format);
  } else if (opt.as_json) {
    out.json = compare_json(files, pairs, decided, fam, counts, opt);
  } else {
    out.doc = compare_document(files, pairs, decided, fam, counts, opt);
  }
  out.slower = counts.slower;
  out.faster = counts.faster;
  out.same = counts.same;
  out.unsure = counts.unsure;
  out.unusable = counts.unusable;
  out.geomean_ratio = counts.geomean_ratio;
  return out;
}

}  // namespace membench::report
