// membench-fleet-evaluate: how good fleet's per-GPU test is, measured on real sets and on
// synthetic fleets resampled from them. Markdown on standard output.
//
//   membench-fleet-evaluate [--sizes 4,32,...] [--trials N] [--seed S] FOLDER...
//
// The folders' JSON files are grouped into strata as `fleet` groups them. For each stratum
// of four GPUs or more:
//   - real: the stratum judged as it is (GPU verdicts not within are false alarms); each GPU
//     in turn slowed on all its GPU rows, on each family, on each GPU row; the failed-row
//     shares of healthy GPUs with their first run and with every run;
//   - join (five GPUs or more): each GPU judged alone against the reference of the others (a
//     node fit to join);
//   - synthetic: fleets of each size drawn from the stratum's GPUs (evaluate_synthetic.cpp).
// A stratum a section leaves out is said under it. Exit 0; 2 on unusable input, and when no
// section evaluated any stratum (an evaluation of nothing is no evidence).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "core/exit_codes.hpp"
#include "fleet/evaluate_fleets.hpp"

namespace membench::report::fleet_evaluate {

namespace ft = fleet_test;

std::vector<std::size_t> gpu_rows(const ft::matrix& m, const std::string& family) {
  std::vector<std::size_t> out;
  for (std::size_t r = 0; r < m.rows.size(); ++r) {
    if (m.rows[r].p == ft::part::gpu && (family.empty() || m.rows[r].family == family)) out.push_back(r);
  }
  return out;
}

void slow_down(ft::matrix::gpu& g, const std::vector<std::size_t>& rows, std::size_t nrows, double pct) {
  const double d = std::log1p(pct / 100);
  for (std::size_t k = 0; k < g.runs; ++k) {
    for (std::size_t r : rows) g.logs[k * nrows + r] += d;
  }
}

bool called(const ft::gpu_result& r) {
  const ft::verdict v = r.of(ft::part::gpu).v;
  return v == ft::verdict::slow || v == ft::verdict::failing;
}

std::string pct(std::size_t k, std::size_t n) {
  return n == 0 ? "-" : fmt::format("{}/{} ({:.1f} %)", k, n, 100.0 * static_cast<double>(k) / static_cast<double>(n));
}

namespace {

std::vector<ft::gpu_result> judge_own(const ft::matrix& m, const ft::settings& s) {
  return ft::judge(m, ft::reference_of(m, s), s);
}

// --- real sets -----------------------------------------------------------------------------

void real_section(const stratum_set& s, const ft::settings& set, std::vector<std::string>& misses) {
  const ft::matrix& m = s.m;
  const std::vector<ft::gpu_result> healthy = judge_own(m, set);
  std::size_t alarms = 0, undecided = 0;
  for (const ft::gpu_result& r : healthy) {
    alarms += called(r);
    undecided += r.of(ft::part::gpu).v == ft::verdict::undecided;
  }
  fmt::print("| {} | {} | {} | {} |", s.name, m.gpus.size(), alarms, undecided);
  // Each GPU slowed in turn: all GPU rows 5 %, each family 10 %, each GPU row 20 %.
  std::size_t all_hit = 0, fam_hit = 0, fam_n = 0, row_hit = 0, row_n = 0;
  std::map<std::string, int> missed;
  for (std::size_t g = 0; g < m.gpus.size(); ++g) {
    auto trial = [&](const std::vector<std::size_t>& rows, double p) {
      ft::matrix t = m;
      slow_down(t.gpus[g], rows, t.rows.size(), p);
      return called(judge_own(t, set)[g]);
    };
    all_hit += trial(gpu_rows(m, ""), 5);
    for (const std::string& f : s.families) {
      const bool hit = trial(gpu_rows(m, f), 10);
      fam_hit += hit;
      ++fam_n;
      if (!hit) ++missed["family " + f];
    }
    for (std::size_t r : gpu_rows(m, "")) {
      const bool hit = trial({r}, 20);
      row_hit += hit;
      ++row_n;
      if (!hit) ++missed["row " + m.rows[r].name];
    }
  }
  fmt::print(" {} | {} | {} |\n", pct(all_hit, m.gpus.size()), pct(fam_hit, fam_n), pct(row_hit, row_n));
  for (const auto& [what, n] : missed) misses.push_back(fmt::format("{}: {} missed {} of {} GPUs", s.name, what, n, m.gpus.size()));
}

// The largest share of a part's rows a healthy GPU fails, with its first run and every run.
void failed_section(const stratum_set& s) {
  double first[2] = {}, all[2] = {};
  for (const ft::matrix::gpu& g : s.m.gpus) {
    ft::matrix::gpu one = g;
    one.runs = 1;
    one.logs.resize(s.m.rows.size());
    for (ft::part p : {ft::part::gpu, ft::part::host}) {
      const double n = static_cast<double>(std::count_if(s.m.rows.begin(), s.m.rows.end(), [p](const ft::row_meta& r) { return r.p == p; }));
      if (n == 0) continue;
      const int i = static_cast<int>(p);
      first[i] = std::max(first[i], ft::failed_rows(one, s.m.rows, p) / n);
      all[i] = std::max(all[i], ft::failed_rows(g, s.m.rows, p) / n);
    }
  }
  fmt::print("| {} | {:.1f} % | {:.1f} % | {:.1f} % | {:.1f} % |\n", s.name, 100 * first[0], 100 * all[0], 100 * first[1],
             100 * all[1]);
}

// --- a node fit to join: each GPU against the reference of the others ------------------------

void join_section(const stratum_set& s, const ft::settings& set) {
  const ft::matrix& m = s.m;
  std::size_t alarms = 0, all_hit = 0, fam_hit = 0, fam_n = 0, one_alarm = 0, one_n = 0;
  for (std::size_t g = 0; g < m.gpus.size(); ++g) {
    ft::matrix others = m, one = m;
    others.gpus.erase(others.gpus.begin() + static_cast<std::ptrdiff_t>(g));
    one.gpus = {m.gpus[g]};
    const ft::reference ref = ft::reference_of(others, set);
    alarms += called(ft::judge(one, ref, set)[0]);
    // Each of its runs alone, as a node that ran the suite once (not the runs of host rows alone).
    const std::vector<std::size_t> mine = gpu_rows(m, "");
    for (std::size_t k = 0; k < m.gpus[g].runs; ++k) {
      const auto has = std::count_if(mine.begin(), mine.end(), [&](std::size_t r) { return !std::isnan(m.gpus[g].at(k, r, m.rows.size())); });
      if (2 * static_cast<std::size_t>(has) < mine.size()) continue;
      ft::matrix single = one;
      single.gpus[0].runs = 1;
      single.gpus[0].logs.assign(m.gpus[g].logs.begin() + static_cast<std::ptrdiff_t>(k * m.rows.size()),
                                 m.gpus[g].logs.begin() + static_cast<std::ptrdiff_t>((k + 1) * m.rows.size()));
      one_alarm += called(ft::judge(single, ref, set)[0]);
      ++one_n;
    }
    auto trial = [&](const std::vector<std::size_t>& rows, double p) {
      ft::matrix t = one;
      slow_down(t.gpus[0], rows, t.rows.size(), p);
      return called(ft::judge(t, ref, set)[0]);
    };
    all_hit += trial(gpu_rows(m, ""), 5);
    for (const std::string& f : s.families) fam_hit += trial(gpu_rows(m, f), 10), ++fam_n;
  }
  fmt::print("| {} | {} | {} | {} | {} | {} |\n", s.name, m.gpus.size(), pct(alarms, m.gpus.size()), pct(one_alarm, one_n),
             pct(all_hit, m.gpus.size()), pct(fam_hit, fam_n));
}

// The strata a section left out, each said with why under its table: an empty table read
// alone is taken for no false alarm. Returns how many it judged.
template <class Judged>
std::size_t said_left_out(const std::vector<stratum_set>& strata, Judged judged, const char* need) {
  std::size_t left = 0;
  for (const stratum_set& s : strata) {
    if (!judged(s)) fmt::print("{}- not evaluated: {} ({} GPU(s); {})\n", left++ == 0 ? "\n" : "", s.name, s.m.gpus.size(), need);
  }
  return strata.size() - left;
}

}  // namespace

int evaluate(const std::vector<std::string>& folders, const std::vector<std::size_t>& sizes, std::size_t trials,
             std::uint64_t seed, const std::string& sections, const synthetic_options& o) {
  std::vector<result_file> keep;
  const std::vector<stratum_set> strata = load_strata(folders, keep);
  const ft::settings set = fleet_options::defaults();
  std::mt19937_64 rng(seed);
  fmt::print("# fleet's per-GPU test, evaluated\n\nSets: {}\n\nStrata:\n\n| stratum | GPUs | runs |\n|---|---:|---:|\n",
             fmt::join(folders, ", "));
  for (const stratum_set& s : strata) {
    std::size_t runs = 0;
    for (const ft::matrix::gpu& g : s.m.gpus) runs += g.runs;
    fmt::print("| {} | {} | {} |\n", s.name, s.m.gpus.size(), runs);
  }
  // Four GPUs, and GPU rows in families of two or more to slow.
  auto judged = [](const stratum_set& s) { return s.m.gpus.size() >= 4 && !s.families.empty(); };
  const auto join_judged = [](const stratum_set& s) { return s.m.gpus.size() >= 5; };
  const char* four = "four GPUs or more needed, with GPU-work families of two rows or more";
  std::size_t evaluated = 0;
  if (sections.find("real") != std::string::npos) {
    fmt::print("\n## The real strata as they are\n\nGPU-work verdicts called (slow or failing) on the healthy stratum; "
               "each GPU slowed in turn on all its GPU rows by 5 %, on each family by 10 %, on each GPU row by 20 %.\n\n"
               "| stratum | GPUs | called healthy | undecided | all rows 5 % | one family 10 % | one row 20 % |\n"
               "|---|---:|---:|---:|---:|---:|---:|\n");
    std::vector<std::string> misses;
    for (const stratum_set& s : strata) {
      if (judged(s)) real_section(s, set, misses);
    }
    evaluated += said_left_out(strata, judged, four);
    if (!misses.empty()) fmt::print("\nMissed:\n\n");
    for (const std::string& m : misses) fmt::print("- {}\n", m);
    fmt::print("\nThe largest share of a part's rows a healthy GPU failed:\n\n| stratum | GPU work, first run only | GPU work, every run | host work, first run only | host work, every run |\n|---|---:|---:|---:|---:|\n");
    for (const stratum_set& s : strata) failed_section(s);
  }
  if (sections.find("join") != std::string::npos) {
    fmt::print("\n## Fit to join: each GPU alone against the reference of the others\n\n"
               "| stratum | GPUs | called (all runs) | called (each run alone) | all rows 5 % | one family 10 % |\n"
               "|---|---:|---:|---:|---:|---:|\n");
    for (const stratum_set& s : strata) {
      if (join_judged(s)) join_section(s, set);
    }
    evaluated += said_left_out(strata, join_judged, "five GPUs or more needed");
  }
  if (sections.find("synthetic") != std::string::npos) {
    fmt::print("\n## Synthetic fleets drawn from each stratum ({})\n",
               o.draw == ft::draw_mode::distinct ? "each real GPU once before any twice; runs as measured, or n - 1 of five or more"
                                                 : "the bootstrap: GPUs, and five runs or more, drawn with replacement");
    for (const stratum_set& s : strata) {
      if (judged(s)) synthetic_section(s, sizes, trials, set, o, rng);
    }
    evaluated += said_left_out(strata, judged, four);
  }
  // An evaluation of nothing is no evidence (as membench-check-evaluate says): a script that
  // keeps the output must not take it for one.
  if (evaluated == 0)
    throw input_error("no stratum has GPUs enough for the sections asked (real, synthetic: four or more; join: five or "
                      "more): nothing was evaluated");
  return 0;
}

}  // namespace membench::report::fleet_evaluate

namespace {

// Each part of --sections one of the three ("" when so); options that shape only the synthetic
// fleets, given without them, said (passed over unsaid, the output would seem shaped by them).
std::string sections_problem(const CLI::App& app, const std::string& sections) {
  for (std::size_t at = 0; at <= sections.size();) {
    const std::size_t comma = std::min(sections.find(',', at), sections.size());
    const std::string part = sections.substr(at, comma - at);
    if (part != "real" && part != "join" && part != "synthetic")
      return fmt::format("--sections: '{}' is none of real, join, synthetic", part);
    at = comma + 1;
  }
  std::vector<std::string> moot;
  for (const char* name : {"--sizes", "--trials", "--seed", "--draw", "--model-below"}) {
    if (app.count(name) > 0 && sections.find("synthetic") == std::string::npos) moot.emplace_back(name);
  }
  if (!moot.empty())
    fmt::print(stderr, "membench-fleet-evaluate: {}: passed over: only the synthetic fleets take them\n", fmt::join(moot, ", "));
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"membench-fleet-evaluate: fleet's per-GPU test on real sets and synthetic fleets resampled from them"};
  std::vector<std::string> folders;
  std::vector<std::size_t> sizes{4, 32, 256, 1024, 10000};
  std::size_t trials = 100;
  std::uint64_t seed = 1;
  std::string sections = "real,join,synthetic", draw = "distinct";
  app.add_option("folders", folders, "folders of membench JSON files")->required()->check(CLI::ExistingDirectory);
  app.add_option("--sizes", sizes, "synthetic fleet sizes")->delimiter(',')->check(CLI::Range(std::size_t{2}, std::size_t{1000000}));
  app.add_option("--trials", trials, "trials per cell at 32 GPUs or fewer (fewer for larger fleets)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  // As text, read whole: CLI11 takes a number past 64 bits without a word, and a seed that is
  // not the one given cannot reproduce the run.
  std::string seed_text = "1";
  app.add_option("--seed", seed_text, "random seed (0 to 18446744073709551615)");
  app.add_option("--sections", sections, "real, join, synthetic (comma-separated)");
  app.add_option("--draw", draw, "how synthetic fleets are drawn: distinct (each real GPU once before any twice, "
                 "no run counted twice) or bootstrap")->check(CLI::IsMember({"distinct", "bootstrap"}));
  membench::report::fleet_evaluate::synthetic_options synthetic;
  app.add_option("--model-below", synthetic.model_below,
                 "judge a synthetic fleet of fewer GPUs than this against the reference of its stratum's other GPUs "
                 "(fleet --model-below with a model reference; 0: never)")
      // CLI11 reads "-1" into an unsigned count as its largest: a negative is refused first.
      ->check(CLI::Validator([](std::string& text) { return text.starts_with('-') ? "'" + text + "' is below 0" : ""; },
                             "COUNT"));
  // CLI11's own exit codes (105, 106, ...) mapped to the documented 2 for unusable input.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (const std::string problem = sections_problem(app, sections); !problem.empty()) {
    std::fprintf(stderr, "membench-fleet-evaluate: %s\n", problem.c_str());
    return 2;
  }
  const auto [end, ec] = std::from_chars(seed_text.data(), seed_text.data() + seed_text.size(), seed);
  if (ec != std::errc{} || end != seed_text.data() + seed_text.size()) {
    std::fprintf(stderr, "membench-fleet-evaluate: --seed: '%s' is no whole number from 0 to 2^64-1\n", seed_text.c_str());
    return 2;
  }
  synthetic.draw = membench::report::fleet_test::parse_draw_mode(draw);
  // Each size once, ascending (as membench-check-evaluate's --steps): a size given twice would
  // be two rows of different numbers (the random stream goes on), two answers to one question.
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  try {
    return membench::report::with_stdout_flushed(
        "membench-fleet-evaluate",
        membench::report::fleet_evaluate::evaluate(folders, sizes, trials, seed, sections, synthetic));
  } catch (const membench::report::input_error& e) {
    std::fprintf(stderr, "membench-fleet-evaluate: %s\n", e.what());
    return 2;
  }
}
