// The views of membench-report. Each turns loaded result files into a document; compare
// and history also decide, per benchmark, whether it changed (verdict.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.hpp"
#include "core/model.hpp"
#include "views/family.hpp"
#include "core/options.hpp"

namespace re2 {
class RE2;
}

namespace membench::report {

struct common_options {
  std::string filter = {};  ///< ECMAScript regex searched in benchmark names; empty = all
  std::string value = {};   ///< "time" or a counter; empty: gb_per_s where the rows have it, else time
  bool charts = true;       ///< the tables' charts (only HTML draws them: the commands leave them out of other formats)
};

/// The files as pointers, in their order.
std::vector<const result_file*> pointers(const file_refs& files);

/// What a view over `opt` reads of each row (the counters it shows).
read_options reads_for(const common_options& opt, bool evidence = false);

/// The value a view shows: `opt.value`, or gb_per_s where any matching row has it, else
/// time. throws input_error when no file has the value asked for, naming those it has.
std::string resolve_value(const std::vector<const result_file*>& files, const common_options& opt);

struct table_options : common_options {
  std::string rows;  ///< a name key, or space/experiment/build/gpu/file; empty: bytes, else the first key that varies
  std::string cols;  ///< empty: build for membench files, else file (several files) or the next key that varies
};

/// Pivot: one table per combination of the keys that are neither rows nor cols. throws input_error
document view_table(const file_refs& files, const table_options& opt);

/// The same benchmarks from the default, ca and cg builds (told apart by the JSON
/// context) side by side, with ratios to the default build. throws input_error
document view_builds(const file_refs& files, const common_options& opt);

struct gpus_options : common_options {
  std::string build = std::string(options::gpus_build.text);  ///< which build's files to compare across GPUs
};
/// The same benchmarks on several GPUs, absolute and as % of each row's own ceiling
/// (share_of_ceiling). throws input_error
document view_gpus(const file_refs& files, const gpus_options& opt);
/// What gpus reads of each row: the value and the counters of each row's ceiling.
read_options gpus_reads(const gpus_options& opt);

/// p2p: per case of the peer family (the name without src and dst) a source x destination
/// matrix, or one row per GPU for the aggregates. `value` empty: gb_per_s, or ns_per_load
/// for a case without it (latency). throws input_error, also when no peer matrix row is left
document view_p2p(const file_refs& files, const common_options& opt);
/// The same as JSON: per case every pair's state, value, link and interval, for programs.
std::string p2p_json(const file_refs& files, const common_options& opt);
/// What p2p reads of each row: the value, the link's counters and the evidence of an interval.
read_options p2p_reads(const common_options& opt);

struct compare_options {
  std::string filter;
  /// The test's settings in percent, defaults from the options table (decide() makes them fractions).
  double threshold_pct = options::threshold.number;                ///< changes within this are "same"
  double margin_pct = options::margin.number;                      ///< slower (faster) only when the interval clears this
  double resolution_us = options::resolution.number;               ///< smaller absolute changes are "too small"; NAN: auto
  double clock_tolerance_pct = options::clock_tolerance.number;    ///< SM clocks further apart make a verdict unsure
  double run_spread_pct = options::run_spread.number;              ///< a run's median's spread (one sd): kernel rows
  double run_spread_copy_pct = options::run_spread_copy.number;    ///< ... rows that time copy engines
  double run_spread_host_pct = options::run_spread_host.number;    ///< ... rows with host or driver work in their samples
  double run_spread_us = options::run_spread_us.number;            ///< ... its absolute part, added in quadrature
  int calibration_runs = options::calibration_runs.value<int>();   ///< this many runs a side measure their spread
  double confidence_pct = options::confidence.number;              ///< level of the interval of each change
  std::uint64_t seed = options::seed.value<std::uint64_t>();       ///< seeds the bootstraps
  bool show_all = false;                                           ///< list "same" rows too (default: only the others)
  bool allow_missing = false;                                      ///< a benchmark missing or errored on a side is noted
  bool unsure_fails = options::unsure.text == "fail";              ///< an unsure benchmark fails like a slower one
  correction family = correction_named(options::correction.text);  ///< how the benchmarks together are corrected
  bool as_json = false;                                            ///< the outcome as JSON instead of a document
  std::string machine_format;        ///< with as_json: "junit" or "ctrf", test results instead of the JSON record
  std::int64_t started_ms = 0;     ///< when the command started (test results' start)

  decide_options decide() const;
};
struct compare_outcome {
  document doc;
  std::string json;          ///< instead of `doc` with as_json: a record per benchmark and the summary
  int slower = 0, faster = 0, same = 0, unsure = 0;
  int unusable = 0;          ///< missing or errored on a side (unless allow_missing)
  double geomean_ratio = 1;  ///< geometric mean of new/base time
};
/// Per benchmark: time and bandwidth change and a verdict from every run of the BASE
/// files against every run of the NEW files. Never throws for missing or errored
/// benchmarks (they are counted as unusable); throws input_error for sides that share
/// no benchmark.
compare_outcome view_compare(const std::vector<const result_file*>& base, const std::vector<const result_file*>& next,
                             const compare_options& opt);
compare_outcome view_compare(const result_file& base, const result_file& next, const compare_options& opt);
/// One row of one file, its time scaled (`2*` a row: is X twice Y's time?).
struct named_row {
  std::string file, row;
  double scale = 1;
};
/// Two rows to compare, perhaps of different names or files, with their own threshold and
/// margin (percent; NAN: --threshold, --margin).
struct row_pair {
  named_row base, next;
  double threshold_pct = NAN, margin_pct = NAN;
};
/// compare --pairs: the pairs of a JSON file, `[{"base": {"file", "row", "scale"}, "new": {...},
/// "threshold", "margin"}]` (scale, threshold and margin optional). throws input_error
std::vector<row_pair> parse_row_pairs(std::string_view text, const std::string& path);
/// Each pair decided as compare decides a benchmark; `files` holds every file the pairs name,
/// in the order they first name them. throws input_error for a file not among them
compare_outcome view_compare_pairs(const std::vector<row_pair>& pairs, const file_refs& files,
                                   const compare_options& opt);

/// rows: per file its path, level and context, and per row its name, error, label, time,
/// counters, the interval of its median time at the file's level, and its problems
/// (error, unrecorded, unconverged, few_samples, throttled); as JSON.
std::string rows_json(const file_refs& files, const std::string& filter);

/// What compare reads of each row.
read_options compare_reads();

struct history_options : common_options {
  compare_options test;  ///< the test that marks a change between consecutive runs
};
/// The files as runs in time (ordered by their context's date, then commit, then path).
std::vector<const result_file*> history_order(const file_refs& files);
/// Per experiment a trend table, a column per run; with html a chart per benchmark. A
/// run that changed from the one before (compare's test) is marked. throws input_error
document view_history(const file_refs& files, const history_options& opt);

/// Bencher Metric Format of one run: {"<name>": {"latency": {"value", "lower_value",
/// "upper_value"}, "<value>": {"value"}}}; latency in nanoseconds.
std::string export_bmf(const result_file& run, const common_options& opt);
/// github-action-benchmark's customSmallerIsBetter: [{"name", "unit": "us", "value", "range"}].
std::string export_gab(const result_file& run, const common_options& opt);

/// The ceiling a row's label names (`peak:pcie` -> "pcie"); "" when it names none (DRAM).
std::string_view labelled_peak(std::string_view label);

/// What a row's gb_per_s is judged against and how far it gets: `pct` NAN when unknown.
struct ceiling_share {
  double pct = NAN;
  std::string ceiling;  ///< "link" (pct_of_link, link_gb_per_s), the label's ("pcie"), or "DRAM"
};
/// The share of its own ceiling `r`'s gb_per_s reaches: its link where it has one (peer
/// rows), else the ceiling its label names (its pct_peak), else `dram_gbps` (0: unknown).
ceiling_share share_of_ceiling(const result& r, double dram_gbps);

/// Formats a value for a table: about four significant digits, no exponent below 1e15 (an
/// absurd value such as 1e300 stays a short text).
std::string format_value(double v);
/// `num / den` as a ratio cell, uncoloured (difference_marks colours it where compare's test
/// calls the difference): "-" without a base, "overflow" where the ratio is beyond a double.
cell ratio_cell(double num, double den);
/// What a value is measured in, for table captions ("GB/s (decimal, median sample)", "us", ...).
std::string unit_of(const std::string& value);
/// unit_of `value` over these rows: pct_peak names the ceilings their labels name (peak:pcie,
/// ...), as the harness computed it, and DRAM only for rows that name none.
std::string unit_over(const std::string& value, const std::vector<const result*>& rows);
/// True when smaller is better (times, latencies, cycles, noise, slowdowns), false for rates
/// and efficiencies.
bool lower_is_better(const std::string& value);

/// Results whose name matches a --filter (a plain substring unless the filter has regex
/// syntax; RE2's syntax, matched in time linear in the name, without recursion).
/// throws input_error for an invalid expression (`what` names the option)
class name_filter {
 public:
  explicit name_filter(const std::string& expression, std::string_view what = "--filter");
  bool operator()(const std::string& name) const;

 private:
  std::string literal_;
  std::shared_ptr<const re2::RE2> regex_;
};

}  // namespace membench::report
