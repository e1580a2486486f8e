#include "stats/reasons.hpp"

#include <array>
#include <iterator>

#include <fmt/format.h>

namespace membench::report {
namespace {

struct reason_entry {
  reason_code code;
  const char* name;     // as the JSON writes it
  const char* verdict;  // where it appears
  const char* meaning;
};

// In the enumeration's order (a test checks), so that an entry is found by its code.
constexpr std::array reason_table{
    reason_entry{reason_code::timer_floor, "timer_floor", "compare, history", "a run sits at the timer's floor"},
    reason_entry{reason_code::too_small, "too_small", "compare, history", "the change is below what the measurement resolves"},
    reason_entry{reason_code::no_spread, "no_spread", "compare, history", "one run a side and nothing about its spread"},
    reason_entry{reason_code::too_noisy, "too_noisy", "compare, history", "the interval of the change does not clear the threshold and margin"},
    reason_entry{reason_code::throttled, "throttled", "compare, history", "a run was throttled"},
    reason_entry{reason_code::not_converged, "not_converged", "compare, history", "a run did not converge"},
    reason_entry{reason_code::host_one_run, "host_one_run", "compare, history", "host work with one run a side"},
    reason_entry{reason_code::clock_in_cycles, "clock_in_cycles", "compare, history", "the change in time does not hold in cycles"},
    reason_entry{reason_code::clocks_differ, "clocks_differ", "compare, history", "the sides' SM clocks differ beyond the tolerance"},
    reason_entry{reason_code::two_levels, "two_levels", "compare, history", "the runs fall into two levels in different shares"},
    reason_entry{reason_code::family_alone, "family_alone", "compare, history", "slower alone, not as one of the family compared (Benjamini-Hochberg)"},
    reason_entry{reason_code::slower, "slower", "fleet, node check", "a scope (all rows, a family, a level, a row) is slower than the reference"},
    reason_entry{reason_code::rows_failed, "rows_failed", "fleet, node check", "more of its rows failed than the fleet tolerates"},
    reason_entry{reason_code::level_lost, "level_lost", "fleet, node check", "a level has no time in any run: not checked"},
    reason_entry{reason_code::thin_reference, "thin_reference", "fleet, node check", "the reference has too few GPUs to be robust"},
    reason_entry{reason_code::nothing_scored, "nothing_scored", "fleet, node check", "no scope had enough rows in any run"},
    reason_entry{reason_code::reference_splits, "reference_splits", "fleet, node check", "the reference splits into groups: no majority agrees"},
    reason_entry{reason_code::too_few_runs, "too_few_runs", "fleet, node check", "too few runs to judge families and rows"},
    reason_entry{reason_code::implausibly_fast, "implausibly_fast", "fleet, node check", "far faster than any healthy chip of its stratum"},
    reason_entry{reason_code::no_rows, "no_rows", "fleet, node check", "the part has no rows"},
    reason_entry{reason_code::host_runs_short, "host_runs_short", "fleet, node check", "host work with too few runs to judge"},
    reason_entry{reason_code::host_other_shape, "host_other_shape", "fleet, node check", "the baseline ran host work on another host shape"},
    reason_entry{reason_code::no_run_spread, "no_run_spread", "fleet, node check", "drift: no scope with a measured run-to-run spread"},
    reason_entry{reason_code::within, "within", "fleet, node check", "judged and within the reference (or as before)"},
};

}  // namespace

const char* to_string(reason_code r) noexcept {
  const auto i = static_cast<std::size_t>(r);
  return i < reason_table.size() ? reason_table[i].name : "?";
}

bool reason_table_in_order() noexcept {
  for (std::size_t i = 0; i < reason_table.size(); ++i) {
    if (static_cast<std::size_t>(reason_table[i].code) != i) return false;
  }
  return static_cast<std::size_t>(reason_code::within) + 1 == reason_table.size();
}

std::string reasons_markdown() {
  std::string out = "<!-- reason-codes -->\n| code | given by | meaning |\n|---|---|---|\n";
  for (const reason_entry& e : reason_table) fmt::format_to(std::back_inserter(out), "| `{}` | {} | {} |\n", e.name, e.verdict, e.meaning);
  return out + "<!-- /reason-codes -->\n";
}

void reasons::add(reason_code code, std::string_view prose) {
  codes.push_back(code);
  if (!text.empty()) text += "; ";
  text += prose;
}

}  // namespace membench::report
