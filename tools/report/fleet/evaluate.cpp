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
//   - join: each GPU judged alone against the reference of the others (a node fit to join);
//   - synthetic: fleets of each size drawn from the stratum's GPUs (--draw: distinct chips
//     before any repeats, or the bootstrap; fleet/draw.hpp); one, two or a quarter slowed 3, 5, 10
//     and 20 % on all GPU rows, one family or one row (drawn per trial): how often a slowed
//     GPU is called, how often a healthy one is, how often a fleet exits 0.
// Exit 0; 2 on unusable input.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "fleet/draw.hpp"
#include "core/exit_codes.hpp"
#include "fleet/evaluate_load.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;
// Rows of the GPU part in a family, or every GPU row when family is "".
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

std::vector<ft::gpu_result> judge_own(const ft::matrix& m, const ft::settings& s) {
  return ft::judge(m, ft::reference_of(m, s), s);
}

std::string pct(std::size_t k, std::size_t n) {
  return n == 0 ? "-" : fmt::format("{}/{} ({:.1f} %)", k, n, 100.0 * static_cast<double>(k) / static_cast<double>(n));
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

// --- synthetic fleets ------------------------------------------------------------------------

enum class what { all, family, row };
const char* to_string(what w) { return w == what::all ? "all GPU rows" : w == what::family ? "one family" : "one row"; }

struct cell_count {
  std::size_t slowed = 0, found = 0, healthy = 0, alarms = 0, undecided = 0, fleets = 0, exit0 = 0;
  double seconds = 0;
};

// Every healthy GPU called in a stratum's synthetic fleets, by reason: what a false alarm is made of.
std::map<std::string, std::size_t> alarm_reasons;
std::size_t healthy_verdicts = 0, healthy_called = 0;

// The draw of every synthetic fleet (--draw).
ft::draw_mode draw = ft::draw_mode::distinct;
// --model-below N: a fleet of fewer than N GPUs is judged against the model reference of its
// stratum when that holds more GPUs than the fleet, as fleet does with one installed: here the
// reference of the stratum's other GPUs, none of the fleet's GPUs in it.
std::size_t model_below = 0;

// The reference a synthetic fleet is judged against: its own, or below model_below the
// reference of the stratum's GPUs it did not draw.
ft::reference reference_for(const ft::matrix& fleet, const ft::matrix& stratum, const std::vector<std::size_t>& drawn,
                            const ft::settings& set) {
  if (fleet.gpus.size() >= model_below || stratum.gpus.size() <= 2 * drawn.size()) return ft::reference_of(fleet, set);
  ft::matrix others;
  others.rows = stratum.rows;
  for (std::size_t g = 0; g < stratum.gpus.size(); ++g) {
    if (std::find(drawn.begin(), drawn.end(), g) == drawn.end()) others.gpus.push_back(stratum.gpus[g]);
  }
  return ft::reference_of(others, set);
}

cell_count synthetic_cell(const stratum_set& s, std::size_t size, std::size_t slowed, double p, what w,
                          std::size_t trials, const ft::settings& set, std::mt19937_64& rng) {
  cell_count c;
  const std::vector<std::size_t> all_rows = gpu_rows(s.m, "");
  for (std::size_t t = 0; t < trials; ++t) {
    std::vector<std::size_t> drawn;
    ft::matrix m = ft::draw_fleet(s.m, size, draw, rng, &drawn);
    std::vector<std::size_t> rows = all_rows;
    if (w == what::family) rows = gpu_rows(s.m, s.families[std::uniform_int_distribution<std::size_t>(0, s.families.size() - 1)(rng)]);
    if (w == what::row) rows = {all_rows[std::uniform_int_distribution<std::size_t>(0, all_rows.size() - 1)(rng)]};
    std::vector<bool> is_slow(size, false);
    for (std::size_t k = 0; k < std::min(slowed, size) && p > 0; ++k) {
      is_slow[k] = true;  // the first GPUs: they were drawn at random
      slow_down(m.gpus[k], rows, m.rows.size(), p);
    }
    const auto start = std::chrono::steady_clock::now();
    const std::vector<ft::gpu_result> r = ft::judge(m, reference_for(m, s.m, drawn, set), set);
    c.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bool any = false;
    for (std::size_t g = 0; g < size; ++g) {
      const bool hit = called(r[g]);
      const bool undecided = r[g].of(ft::part::gpu).v == ft::verdict::undecided;
      any = any || hit || undecided;
      if (is_slow[g]) {
        ++c.slowed;
        c.found += hit;
      } else {
        ++c.healthy;
        c.alarms += hit;
        c.undecided += undecided;
        ++healthy_verdicts;
        healthy_called += hit;
        if (hit) ++alarm_reasons[r[g].of(ft::part::gpu).why.text];
      }
    }
    ++c.fleets;
    c.exit0 += !any;
  }
  return c;
}

std::size_t trials_for(std::size_t size, std::size_t base) {
  return std::max<std::size_t>(std::min<std::size_t>(base, 8), base * 32 / std::max<std::size_t>(32, size));
}

void synthetic_section(const stratum_set& s, const std::vector<std::size_t>& sizes, std::size_t trials,
                       const ft::settings& set, std::mt19937_64& rng) {
  alarm_reasons.clear();
  healthy_verdicts = healthy_called = 0;
  fmt::print("\n#### {} ({} real GPUs)\n\nHealthy fleets (no GPU slowed):\n\n", s.name, s.m.gpus.size());
  fmt::print("| GPUs | fleets | healthy verdicts | called | undecided | exit 0 | seconds per fleet |\n|---:|---:|---:|---:|---:|---:|---:|\n");
  for (std::size_t size : sizes) {
    const cell_count c = synthetic_cell(s, size, 0, 0, what::all, trials_for(size, trials), set, rng);
    fmt::print("| {} | {} | {} | {} | {} | {} | {:.3f} |\n", size, c.fleets, c.healthy, c.alarms, c.undecided,
               pct(c.exit0, c.fleets), c.seconds / static_cast<double>(c.fleets));
  }
  for (std::size_t slowed_kind = 0; slowed_kind < 3; ++slowed_kind) {
    const char* label = slowed_kind == 0 ? "one GPU" : slowed_kind == 1 ? "two GPUs" : "a quarter of the GPUs";
    fmt::print("\nDetection, {} slowed: slowed GPUs called (healthy GPUs called in the same fleets; fleets that "
               "exited 0; {} trials at 32 GPUs or fewer, {} at 1024 or more)\n\n| slowed | by |",
               label, trials_for(32, trials), trials_for(100000, trials));
    for (std::size_t size : sizes) fmt::print(" {} GPUs |", size);
    fmt::print("\n|---|---:|");
    for (std::size_t k = 0; k < sizes.size(); ++k) fmt::print("---:|");
    fmt::print("\n");
    for (what w : {what::all, what::family, what::row}) {
      for (double p : {3.0, 5.0, 10.0, 20.0}) {
        fmt::print("| {} | {:g} % |", to_string(w), p);
        for (std::size_t size : sizes) {
          const std::size_t slowed = slowed_kind == 0 ? 1 : slowed_kind == 1 ? 2 : std::max<std::size_t>(1, size / 4);
          const cell_count c = synthetic_cell(s, size, slowed, p, w, trials_for(size, trials), set, rng);
          fmt::print(" {:.1f} % ({}/{}; {} healthy called; {} exit 0) |",
                     100.0 * static_cast<double>(c.found) / static_cast<double>(c.slowed), c.found, c.slowed, c.alarms,
                     c.exit0);
        }
        fmt::print("\n");
      }
    }
  }
}

}  // namespace

int evaluate(const std::vector<std::string>& folders, const std::vector<std::size_t>& sizes, std::size_t trials,
        std::uint64_t seed, const std::string& sections) {
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
  if (sections.find("real") != std::string::npos) {
    fmt::print("\n## The real strata as they are\n\nGPU-work verdicts called (slow or failing) on the healthy stratum; "
               "each GPU slowed in turn on all its GPU rows by 5 %, on each family by 10 %, on each GPU row by 20 %.\n\n"
               "| stratum | GPUs | called healthy | undecided | all rows 5 % | one family 10 % | one row 20 % |\n"
               "|---|---:|---:|---:|---:|---:|---:|\n");
    std::vector<std::string> misses;
    for (const stratum_set& s : strata) {
      if (judged(s)) real_section(s, set, misses);
    }
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
      if (s.m.gpus.size() >= 5) join_section(s, set);
    }
  }
  if (sections.find("synthetic") != std::string::npos) {
    fmt::print("\n## Synthetic fleets drawn from each stratum ({})\n",
               draw == ft::draw_mode::distinct ? "each real GPU once before any twice; runs as measured, or n - 1 of five or more"
                                               : "the bootstrap: GPUs, and five runs or more, drawn with replacement");
    for (const stratum_set& s : strata) {
      if (!judged(s)) continue;
      synthetic_section(s, sizes, trials, set, rng);
      fmt::print("\nHealthy GPU verdicts in every synthetic fleet of {}: {}, called {}.\n", s.name, healthy_verdicts,
                 healthy_called);
      for (const auto& [reason, n] : alarm_reasons) fmt::print("- {} x: {}\n", n, reason);
    }
  }
  return 0;
}

}  // namespace membench::report

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
  app.add_option("--model-below", membench::report::model_below,
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
  membench::report::draw = membench::report::fleet_test::parse_draw_mode(draw);
  try {
    return membench::report::with_stdout_flushed("membench-fleet-evaluate", membench::report::evaluate(folders, sizes, trials, seed, sections));
  } catch (const membench::report::input_error& e) {
    std::fprintf(stderr, "membench-fleet-evaluate: %s\n", e.what());
    return 2;
  }
}
