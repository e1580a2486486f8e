// compare in stages, data flowing one way: the loaded files (session) -> the benchmarks
// paired across the sides (compare_pairs.cpp) -> a decision per pair (compare.cpp) -> the
// family correction (family.hpp) -> counts -> a document (compare_render.cpp).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "core/record.hpp"
#include "render/test_report.hpp"
#include "views/family.hpp"
#include "views/views.hpp"

namespace membench::report {

/// The files of each side: BASE and NEW, several runs each.
struct compare_sides {
  const std::vector<const result_file*>& base;
  const std::vector<const result_file*>& next;
};

/// What becomes of a benchmark: decided, or why not.
enum class pair_state {
  decide,        ///< decided (perhaps from the files that have it, noted in `why`)
  skipped_both,  ///< skipped on both sides for the same reason: nothing to compare
  unusable,      ///< missing or errored on a side: no verdict, the input unusable
  left_out,      ///< --allow-missing, and a side has no usable result: noted, not compared
};

/// The state's word in the JSON and the test reports: decided, skipped, unusable, left_out.
const char* to_string(pair_state s) noexcept;

/// One benchmark of the BASE files and its result in each file of each side (null where
/// a file lacks it).
struct benchmark_pair {
  const std::string* name = nullptr;
  std::vector<const result*> base, next;
  pair_state state = pair_state::decide;
  std::string why;  ///< the problem ("missing in ...", "error row in ...: ..."); "" when none
  /// --pairs: NEW's row, its own files on each side, the factors each side's times were
  /// multiplied by, its own threshold and margin (percents, as given: the record repeats them
  /// exactly, where a fraction multiplied back would say 7.000000000000001); otherwise null,
  /// empty, 1 and NAN: the benchmark's name, the sides' files, its times, --threshold and --margin.
  const std::string* new_name = nullptr;
  std::vector<const result_file*> base_files, next_files;
  double base_scale = 1, next_scale = 1;
  double threshold_pct = NAN, margin_pct = NAN;
};

/// The files' paths, comma-separated.
std::string files_text(const std::vector<const result_file*>& files);

/// A result that can be decided on: present, not an error row, with a time.
bool usable(const result* r);

/// The benchmark's name; with --pairs "BASE-ROW vs NEW-ROW" where the rows' names differ.
std::string pair_name(const benchmark_pair& p);
/// A pair's own files (--pairs), else the comparison's.
compare_sides files_of(const benchmark_pair& p, const compare_sides& files);
/// What keeps a pair from a verdict, if anything: sets its state and why.
void classify(benchmark_pair& p, const compare_sides& files, bool allow_missing);

/// Stage 1, pairing: every benchmark of the BASE files the filter keeps, in the first
/// file's order, then the others'. throws input_error when the sides share none
std::vector<benchmark_pair> pair_benchmarks(const compare_sides& files, const compare_options& opt);
/// The benchmarks the filter keeps that only NEW files have ("only in FILE: NAME").
std::vector<std::string> only_in_new(const compare_sides& files, const name_filter& filter);

/// Stage 2's input and output: the pairs decided, in order, and a decision each.
struct decided_pairs {
  std::vector<std::size_t> family;  ///< indices of the pairs decided
  std::vector<decision> decisions;  ///< one per entry of `family`
};

/// Stage 4, counting: the verdicts, the unusable benchmarks and the geometric mean.
struct compare_counts {
  int compared = 0, slower = 0, faster = 0, same = 0, unsure = 0, unusable = 0;
  double geomean_ratio = 1;
};
compare_counts count_verdicts(const std::vector<benchmark_pair>& pairs, const decided_pairs& d);

/// Stages 2 and 3: every pair that can be decided, then the family correction.
decided_pairs decide_pairs(const std::vector<benchmark_pair>& pairs, const compare_sides& files,
                           const compare_options& opt, family_outcome& fam);

/// Stage 5, rendering: the document of a comparison.
document compare_document(const compare_sides& files, const std::vector<benchmark_pair>& pairs,
                          const decided_pairs& d, const family_outcome& fam, const compare_counts& counts,
                          const compare_options& opt);

/// Stage 5 and the counts as compare's outcome: its document, or its JSON when opt.as_json.
compare_outcome compare_outcome_of(const compare_sides& files, const std::vector<benchmark_pair>& pairs,
                                   const decided_pairs& decided, const family_outcome& fam, const compare_counts& counts,
                                   const compare_options& opt);
/// Stage 5's one declaration: a pair's record (compare_record.cpp), every field of the JSON
/// and, with a heading, every column of the table; x is its decision, null where it has none.
record pair_record(const benchmark_pair& p, const compare_sides& files, const decision* x, const compare_options& opt);
/// Stage 5 for --format junit and ctrf: a test case per pair (compare_json.cpp): slower and
/// unusable fail, unsure fails with --unsure=fail and is skipped otherwise, said with its reasons.
test_run compare_tests(const std::vector<benchmark_pair>& pairs, const decided_pairs& d, const compare_options& opt);
/// Stage 5 for --format json: a record per pair and the summary, numbers in full precision.
std::string compare_json(const compare_sides& files, const std::vector<benchmark_pair>& pairs, const decided_pairs& d,
                         const family_outcome& fam, const compare_counts& counts, const compare_options& opt);

}  // namespace membench::report
