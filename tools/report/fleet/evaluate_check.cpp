// membench-check-evaluate: the node check's false alarms and its sensitivity per level, on
// real GPUs. Markdown on standard output.
//
//   membench-check-evaluate [--runs N] [--filter RE] [--steps 1,2,3,5,10,20] FOLDER...
//
// The folders' files are grouped into strata as fleet groups them, their level rows grouped
// by level (fleet --by=level). In each stratum of four GPUs or more, each GPU in turn is left
// out of the reference (the other GPUs' runs make it) and its runs are cut into checks of
// --runs runs (membench-check's default; a GPU with fewer makes one check of all it has).
// Each check is judged as membench-check judges one: its GPU work called slow or failing is a
// false alarm. Then each level's rows of each check are made slower by each step: the share
// of checks that call the GPU, and per level the smallest step found in 90 % of them.
// Exit 0; 2 on unusable input.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "core/exit_codes.hpp"
#include "fleet/evaluate_load.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

bool called(const ft::gpu_result& r) {
  const ft::verdict v = r.of(ft::part::gpu).v;
  return v == ft::verdict::slow || v == ft::verdict::failing;
}

// The GPU's runs [from, from + n) as a GPU of their own.
ft::matrix::gpu runs_of(const ft::matrix::gpu& g, std::size_t from, std::size_t n, std::size_t rows) {
  ft::matrix::gpu out;
  out.runs = n;
  out.logs.assign(g.logs.begin() + static_cast<std::ptrdiff_t>(from * rows),
                  g.logs.begin() + static_cast<std::ptrdiff_t>((from + n) * rows));
  return out;
}

// The GPU's runs that timed any GPU-work row: a file of other rows alone (a host-link
// process, another tier's) is no run of the check.
ft::matrix::gpu timed_runs(const ft::matrix::gpu& g, const std::vector<ft::row_meta>& rows) {
  ft::matrix::gpu out;
  for (std::size_t k = 0; k < g.runs; ++k) {
    bool any = false;
    for (std::size_t r = 0; r < rows.size() && !any; ++r) any = rows[r].p == ft::part::gpu && !std::isnan(g.at(k, r, rows.size()));
    if (!any) continue;
    out.logs.insert(out.logs.end(), g.logs.begin() + static_cast<std::ptrdiff_t>(k * rows.size()),
                    g.logs.begin() + static_cast<std::ptrdiff_t>((k + 1) * rows.size()));
    ++out.runs;
  }
  return out;
}

// Each level of the GPU part and its rows (every level, one row or more).
std::map<std::string, std::vector<std::size_t>> gpu_levels(const ft::matrix& m) {
  std::map<std::string, std::vector<std::size_t>> out;
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    if (m.rows[r].p == ft::part::gpu) out[m.rows[r].family].push_back(r);
  }
  return out;
}

struct tally {
  std::size_t checks = 0, called = 0, undecided = 0, short_checks = 0;
  std::map<std::string, std::vector<std::size_t>> found;  // per level, per step: checks that called
  std::map<std::string, std::size_t> reasons;              // why healthy checks were not within
};

// One left-out GPU's checks against the reference of the others.
void judge_checks(const ft::matrix& m, std::size_t g, std::size_t runs, const std::vector<double>& steps,
                  const ft::settings& set, tally& t) {
  ft::matrix others = m;
  others.gpus.erase(others.gpus.begin() + static_cast<std::ptrdiff_t>(g));
  const ft::reference ref = ft::reference_of(others, set);
  const ft::matrix::gpu mine = timed_runs(m.gpus[g], m.rows);
  const std::size_t n = std::min(runs, mine.runs);
  const auto levels = gpu_levels(m);
  for (std::size_t from = 0; n > 0 && from + n <= mine.runs; from += n) {
    ft::matrix one;
    one.rows = m.rows;
    one.gpus = {runs_of(mine, from, n, m.rows.size())};
    const ft::gpu_result healthy = ft::judge(one, ref, set)[0];
    ++t.checks;
    t.short_checks += n < runs;
    t.called += called(healthy);
    t.undecided += healthy.of(ft::part::gpu).v == ft::verdict::undecided;
    if (healthy.of(ft::part::gpu).v != ft::verdict::pass) ++t.reasons[healthy.of(ft::part::gpu).why.text];
    for (const auto& [level, rows] : levels) {
      std::vector<std::size_t>& hits = t.found[level];
      hits.resize(steps.size());
      for (std::size_t k = 0; k < steps.size(); ++k) {
        ft::matrix slow = one;
        for (std::size_t run = 0; run < n; ++run) {
          for (std::size_t r : rows) slow.gpus[0].logs[run * m.rows.size() + r] += std::log1p(steps[k] / 100);
        }
        hits[k] += called(ft::judge(slow, ref, set)[0]);
      }
    }
  }
}

void print_stratum(const stratum_set& s, const tally& t, std::size_t runs, const std::vector<double>& steps) {
  fmt::print("\n### {}\n\n{} GPUs, each left out of the reference in turn: {} checks of {} runs ({} with fewer: all "
             "the GPU had); GPU work called on {} (false alarms), undecided on {}.\n\n",
             s.name, s.m.gpus.size(), t.checks, runs, t.short_checks, t.called, t.undecided);
  for (const auto& [reason, n] : t.reasons) fmt::print("- {} check(s): {}\n", n, reason);
  if (!t.reasons.empty()) fmt::print("\n");
  fmt::print("| level |");
  for (double x : steps) fmt::print(" {:g} % |", x);
  fmt::print(" smallest found in 90 % |\n|---|");
  for (std::size_t k = 0; k <= steps.size(); ++k) fmt::print("---:|");
  fmt::print("\n");
  for (const auto& [level, hits] : t.found) {
    fmt::print("| {} |", level);
    std::string smallest = "beyond the steps";
    for (std::size_t k = 0; k < steps.size(); ++k) {
      fmt::print(" {}/{} |", hits[k], t.checks);
      if (smallest == "beyond the steps" && 10 * hits[k] >= 9 * t.checks) smallest = fmt::format("{:g} %", steps[k]);
    }
    fmt::print(" {} |\n", smallest);
  }
}

int evaluate(const std::vector<std::string>& folders, std::size_t runs, const std::string& filter,
             const std::vector<double>& steps, const ft::settings& set) {
  std::vector<result_file> keep;
  const std::vector<stratum_set> strata = load_strata(folders, keep, filter, true);
  fmt::print("## The node check on real GPUs: false alarms and sensitivity per level\n\n"
             "Made by `membench-check-evaluate --runs {}`: each GPU judged, {} runs at a time, against the "
             "reference of the other GPUs of its stratum (fleet --by=level; thresholds: level {:g} %, one row {:g} "
             "%); GPU work only.\n",
             runs, runs, set.family_pct, set.row_pct);
  int evaluated = 0;
  for (const stratum_set& s : strata) {
    if (s.m.gpus.size() < 4) {
      fmt::print("\n### {}\n\n{} GPU(s): too few to leave one out (four or more).\n", s.name, s.m.gpus.size());
      continue;
    }
    tally t;
    for (std::size_t g = 0; g < s.m.gpus.size(); ++g) judge_checks(s.m, g, runs, steps, set, t);
    // No check at all (the rows kept are host work alone: PCIe copies, driver calls) is a
    // stratum not evaluated, not one of 0 false alarms.
    if (t.checks == 0) {
      fmt::print("\n### {}\n\n{} GPUs, but no run timed a GPU-work row (work:kernel; --filter '{}'): nothing to "
                 "judge, as the check judges GPU work only.\n", s.name, s.m.gpus.size(), filter);
      continue;
    }
    print_stratum(s, t, runs, steps);
    ++evaluated;
  }
  // An evaluation of nothing is no evidence: a script that keeps its output must not take it as one.
  if (evaluated == 0)
    throw input_error("no stratum has four GPUs or more whose runs timed GPU work (work:kernel rows): nothing was "
                      "evaluated");
  return 0;
}

}  // namespace
}  // namespace membench::report

int main(int argc, char** argv) {
  CLI::App app{"membench-check-evaluate: the node check's false alarms and sensitivity per level on real GPUs"};
  std::vector<std::string> folders;
  std::size_t runs = 8;
  std::string filter;
  std::vector<double> steps{1, 2, 3, 5, 7, 10, 15, 20};
  membench::report::fleet_test::settings set = membench::report::fleet_options::defaults();
  app.add_option("folders", folders, "folders of membench JSON files")->required()->check(CLI::ExistingDirectory);
  app.add_option("--runs", runs, "runs a check has (membench-check --runs)")->check(CLI::Range(1, 100));
  app.add_option("--filter", filter, "rows to keep (as fleet --filter)");
  app.add_option("--steps", steps, "slowdowns in percent")->delimiter(',')->check(CLI::Range(0.01, 1000.0));
  app.add_option("--level-threshold", set.family_pct, "fleet --family-threshold: a level's rows together (%)");
  app.add_option("--row-threshold", set.row_pct, "fleet --row-threshold: one row (%)");
  // CLI11's own exit codes (105, 106, ...) mapped to the documented 2 for unusable input.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  // CLI11's Range lets NaN through (every comparison with it is false).
  const auto percent = [](double x) { return std::isfinite(x) && x > 0 && x <= 1000; };
  if (!std::all_of(steps.begin(), steps.end(), percent) || !percent(set.family_pct) || !percent(set.row_pct)) {
    std::fprintf(stderr, "membench-check-evaluate: --steps, --level-threshold and --row-threshold take percentages "
                         "above 0 and at most 1000\n");
    return 2;
  }
  // Columns in ascending order, each once: "smallest found" is the first step found.
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  try {
    return membench::report::with_stdout_flushed("membench-check-evaluate", membench::report::evaluate(folders, runs, filter, steps, set));
  } catch (const membench::report::input_error& e) {
    std::fprintf(stderr, "membench-check-evaluate: %s\n", e.what());
    return 2;
  }
}
