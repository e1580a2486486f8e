// Why a decision is what it is, as codes programs can count and match: one list for every
// verdict the tool gives (compare's per benchmark, fleet's and the node check's per GPU part).
// The JSON carries the codes (`reasons`); the text renders the prose that goes with them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace membench::report {

enum class reason_code : unsigned char {
  // A change between two sides (compare, history, the fleet's row test): why it is unsure.
  timer_floor,      ///< a run sits at the timer's floor
  too_small,        ///< the change is below what the measurement resolves
  no_spread,        ///< one run a side and nothing about its spread
  too_noisy,        ///< the interval of the change does not clear the threshold and margin
  throttled,        ///< a run was throttled
  not_converged,    ///< a run did not converge
  host_one_run,     ///< host work with one run a side
  clock_in_cycles,  ///< the change in time does not hold in cycles
  clocks_differ,    ///< the sides' SM clocks differ beyond the tolerance
  two_levels,       ///< the runs fall into two levels in different shares
  family_alone,     ///< slower alone, not as one of the family compared (Benjamini-Hochberg)
  // A GPU's part against its reference (fleet, the node check).
  slower,            ///< a scope (all rows, a family, a level, a row) is slower than the reference
  rows_failed,       ///< more of its rows failed than the fleet tolerates
  level_lost,        ///< a level has no time in any run: not checked
  thin_reference,    ///< the reference has too few GPUs to be robust
  nothing_scored,    ///< no scope had enough rows in any run
  reference_splits,  ///< the reference splits into groups: no majority agrees
  too_few_runs,      ///< too few runs to judge families and rows
  implausibly_fast,  ///< far faster than any healthy chip of its stratum
  no_rows,           ///< the part has no rows
  host_runs_short,   ///< host work with too few runs to judge
  host_other_shape,  ///< the baseline ran host work on another host shape
  no_run_spread,     ///< drift: no scope with a measured run-to-run spread
  within,            ///< judged and within the reference (or as before)
};

/// The code as the JSON writes it: "timer_floor", "rows_failed", ...
const char* to_string(reason_code r) noexcept;
/// Every code, what gives it and what it means, as docs/reasons.md holds it (a test compares).
std::string reasons_markdown();
/// Whether the table behind both lists every code once, in order.
bool reason_table_in_order() noexcept;

/// A decision's reasons: the codes, and the prose the text shows ("; " between them).
struct reasons {
  std::vector<reason_code> codes;
  std::string text;
  void add(reason_code code, std::string_view prose);
  bool empty() const noexcept { return codes.empty(); }
};

}  // namespace membench::report
