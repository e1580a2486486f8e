// membench-fleet-evaluate's synthetic fleets: fleets of each size drawn from a stratum's real
// GPUs (--draw; fleet/draw.hpp), one, two or a quarter of them slowed 3, 5, 10 and 20 % on all
// GPU rows, one family or one row (drawn per trial): how often a slowed GPU is called, how
// often a healthy one is, how often a fleet exits 0.
#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fleet/evaluate_fleets.hpp"

namespace membench::report::fleet_evaluate {
namespace {

namespace ft = fleet_test;

enum class what { all, family, row };
const char* to_string(what w) { return w == what::all ? "all GPU rows" : w == what::family ? "one family" : "one row"; }

struct cell_count {
  std::size_t slowed = 0, found = 0, healthy = 0, alarms = 0, undecided = 0, fleets = 0, exit0 = 0;
  double seconds = 0;
};

// Every healthy GPU called in a stratum's synthetic fleets, by reason: what a false alarm is made of.
struct healthy_alarms {
  std::map<std::string, std::size_t> reasons;
  std::size_t verdicts = 0, called = 0;
};

// The reference a synthetic fleet is judged against: its own, or below model_below the
// reference of the stratum's GPUs it did not draw (none of the fleet's GPUs in it).
ft::reference reference_for(const ft::matrix& fleet, const ft::matrix& stratum, const std::vector<std::size_t>& drawn,
                            const ft::settings& set, std::size_t model_below) {
  if (fleet.gpus.size() >= model_below || stratum.gpus.size() <= 2 * drawn.size()) return ft::reference_of(fleet, set);
  ft::matrix others;
  others.rows = stratum.rows;
  for (std::size_t g = 0; g < stratum.gpus.size(); ++g) {
    if (std::find(drawn.begin(), drawn.end(), g) == drawn.end()) others.gpus.push_back(stratum.gpus[g]);
  }
  return ft::reference_of(others, set);
}

// The knobs of one cell of a table: the fleet's size, the GPUs slowed, by how much, on what.
struct cell_spec {
  std::size_t size = 0, slowed = 0;
  double p = 0;
  what w = what::all;
  std::size_t trials = 0;
};

cell_count synthetic_cell(const stratum_set& s, const cell_spec& spec, const ft::settings& set,
                          const synthetic_options& o, healthy_alarms& h, std::mt19937_64& rng) {
  const auto [size, slowed, p, w, trials] = spec;
  cell_count c;
  const std::vector<std::size_t> all_rows = gpu_rows(s.m, "");
  for (std::size_t t = 0; t < trials; ++t) {
    std::vector<std::size_t> drawn;
    ft::matrix m = ft::draw_fleet(s.m, size, o.draw, rng, &drawn);
    std::vector<std::size_t> rows = all_rows;
    if (w == what::family) rows = gpu_rows(s.m, s.families[std::uniform_int_distribution<std::size_t>(0, s.families.size() - 1)(rng)]);
    if (w == what::row) rows = {all_rows[std::uniform_int_distribution<std::size_t>(0, all_rows.size() - 1)(rng)]};
    std::vector<bool> is_slow(size, false);
    for (std::size_t k = 0; k < std::min(slowed, size) && p > 0; ++k) {
      is_slow[k] = true;  // the first GPUs: they were drawn at random
      slow_down(m.gpus[k], rows, m.rows.size(), p);
    }
    const auto start = std::chrono::steady_clock::now();
    const std::vector<ft::gpu_result> r = ft::judge(m, reference_for(m, s.m, drawn, set, o.model_below), set);
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
        ++h.verdicts;
        h.called += hit;
        if (hit) ++h.reasons[r[g].of(ft::part::gpu).why.text];
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

}  // namespace

void synthetic_section(const stratum_set& s, const std::vector<std::size_t>& sizes, std::size_t trials,
                       const ft::settings& set, const synthetic_options& o, std::mt19937_64& rng) {
  healthy_alarms h;
  fmt::print("\n#### {} ({} real GPUs)\n\nHealthy fleets (no GPU slowed):\n\n", s.name, s.m.gpus.size());
  fmt::print("| GPUs | fleets | healthy verdicts | called | undecided | exit 0 | seconds per fleet |\n|---:|---:|---:|---:|---:|---:|---:|\n");
  for (std::size_t size : sizes) {
    const cell_count c = synthetic_cell(s, {size, 0, 0, what::all, trials_for(size, trials)}, set, o, h, rng);
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
          const cell_count c = synthetic_cell(s, {size, slowed, p, w, trials_for(size, trials)}, set, o, h, rng);
          fmt::print(" {:.1f} % ({}/{}; {} healthy called; {} exit 0) |",
                     100.0 * static_cast<double>(c.found) / static_cast<double>(c.slowed), c.found, c.slowed, c.alarms,
                     c.exit0);
        }
        fmt::print("\n");
      }
    }
  }
  fmt::print("\nHealthy GPU verdicts in every synthetic fleet of {}: {}, called {}.\n", s.name, h.verdicts, h.called);
  for (const auto& [reason, n] : h.reasons) fmt::print("- {} x: {}\n", n, reason);
}

}  // namespace membench::report::fleet_evaluate
