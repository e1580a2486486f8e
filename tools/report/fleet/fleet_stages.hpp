// fleet in stages, data flowing one way: the loaded files -> fleets of one model, build and
// stratum, their GPUs and rows (fleet_group.cpp) -> the matrix of their runs, the reference,
// each GPU's verdicts (fleet_decide.cpp, fleet/gpu_test.cpp) -> a summary per GPU
// (fleet_verdict.cpp) -> a document, JSON or a baseline (fleet_render.cpp, fleet_json.cpp,
// fleet_baseline.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "common/levels.hpp"
#include "core/record.hpp"
#include "fleet/fleet.hpp"
#include "fleet/gpu_test.hpp"
#include "render/test_report.hpp"
#include "stats/verdict.hpp"

namespace membench::report {

/// What makes GPUs one fleet: the same model (name, memory, SMs, maximum SM clock) and build.
struct fleet_key {
  std::string gpu_name, memory_bytes, sm_count, max_sm_clock_mhz, build;
  bool operator==(const fleet_key&) const = default;
  std::vector<std::string> fields() const;  ///< in the order above
  std::string text() const;                 ///< "NVIDIA H200 (150109880320 bytes, 132 SMs, 1980 MHz), default build"
};
fleet_key key_of(const result_file& f);

/// One GPU: its UUID, its host and its runs (a file each).
struct fleet_gpu {
  std::string uuid, host;
  std::vector<const result_file*> files;
  std::vector<const result_file*> earlier;  ///< with --since: its runs before the date, its own reference
};

/// Why a GPU's row is not compared.
enum class left_out { none, missing, error, skipped, unconverged, no_reference, other_figure };
inline constexpr int left_out_count = 7;
const char* to_string(left_out w) noexcept;

/// One row of a fleet: per GPU its usable runs (converged, not errors), or why it has none.
struct fleet_row {
  const std::string* name = nullptr;
  std::string family;
  std::vector<side> sides;    ///< per GPU of the fleet
  std::vector<left_out> why;  ///< per GPU: none where its side has runs
  figure fig = figure::single;  ///< the figure the sides hold (a copy's fastest sample, or compare's choice)
};

/// A fleet: its GPUs, its rows, the matrix of their runs, its reference and the verdicts.
struct fleet {
  fleet_key key;
  fleet_identity_values stratum;     ///< the stratum fields' values its GPUs share (fleet_group.cpp)
  std::vector<fleet_gpu> gpus;       ///< in the order of their first file
  std::vector<fleet_row> rows;       ///< the rows its files have, the filter keeps, in first-file order
  fleet_test::matrix runs;           ///< per GPU, run and row the log time judged (fleet_matrix.cpp)
  fleet_test::reference ref;         ///< the fleet's own, or the baseline's
  std::vector<fleet_test::gpu_result> results;  ///< per GPU
  std::vector<fleet_test::gpu_result> drift;    ///< with --since: per GPU against its own earlier runs
  int reference_gpus = 0;            ///< GPUs the reference comes from (the fleet, or the baseline's)
  std::string reference_path;        ///< the baseline or model reference that judged it; "" its own
  bool by_model = false;             ///< judged against the model reference (a fleet too small for its own)
  fleet_identity_values baseline_identity;  ///< against a baseline: its GPUs' identity
  std::vector<std::string> not_in_baseline;  ///< rows the GPUs have that the baseline lacks
  std::size_t host_shapes = 1;       ///< host shapes its host work was judged apart by
};

/// Stage 1: the files as fleets of one key and stratum each, their GPUs by gpu_uuid and host.
/// One run given twice (the same rows' times, result_file::run_identity: a copy, one file
/// under two paths, or a copy with its GPU, host or date edited) counts once, and a file of peer rows alone is no GPU's run: each is said in
/// `set_aside`. throws input_error for a file without gpu_uuid and for several keys without
/// allow_mixed
std::vector<fleet> group_fleets(const file_refs& files, bool allow_mixed, std::vector<std::string>* set_aside = nullptr);
/// The context keys that split GPUs of one model into strata: board part, VBIOS, memory
/// clock, power limit.
const std::vector<std::string_view>& stratum_keys();
/// Rows that involve several GPUs (the peer space, src: and dst: keys): no GPU's own.
bool multi_gpu_row(const result& r);
/// Stage 1's rows: a fleet's rows the filter keeps, per GPU its usable runs. Rows that
/// involve several GPUs are left out, their names added to `multi_gpu`. With `no_level`, the
/// rows are grouped by level (level_group) instead of family, and rows of no level are left
/// out, their names added to it.
void gather_rows(fleet& f, const name_filter& filter, std::vector<std::string>& multi_gpu,
                 std::vector<std::string>* no_level = nullptr);
/// The family name fleet gives a level's rows: "level L2 far".
std::string level_group(const levels::level& l);
/// Whether a row's time is the host's work (host link, driver calls): work:host or work:copy.
fleet_test::part part_of(const fleet_row& r);

/// Stage 2: the matrix of a fleet's runs over `rows` (its own, or a baseline's): per run the
/// median of its file's usable repetitions of the row's figure, as a log.
fleet_test::matrix matrix_of(const fleet& f, const std::vector<fleet_test::row_meta>& rows,
                             const std::vector<figure>& figs, bool earlier = false);
/// A GPU by UUID and host (one UUID on two hosts is two GPUs).
struct gpu_at_host {
  std::string uuid, host;
};
/// With --since: each GPU's runs dated before `since` moved to its earlier runs, and the GPUs
/// with no run since dropped (returned). throws input_error for a run without a date
std::vector<gpu_at_host> split_by_date(std::vector<fleet>& fleets, const std::string& since);
/// "gpu_board_part 692-2G520-0282-000, gpu_vbios ...".
std::string stratum_text(const fleet_identity_values& stratum);
/// The rows of a fleet as the test takes them.
std::vector<fleet_test::row_meta> row_metas(const fleet& f);

/// Everything decided: the fleets with their references and verdicts.
struct fleet_state {
  std::vector<fleet> fleets;
  std::vector<std::string> multi_gpu;  ///< rows left out: they involve several GPUs
  std::vector<std::string> no_level;   ///< with --by=level: rows left out, of no level (sorted, once each)
  std::string baseline_path;           ///< "" unless judged against a baseline
  std::string since;                   ///< --since: each GPU also against its runs before this date
  fleet_test::settings test;           ///< what judged: the options', at a baseline's thresholds against one
  std::vector<gpu_at_host> no_recent_run;  ///< with --since: GPUs left out, no run since
  std::set<std::string> split_gpus;        ///< GPUs (split_key) whose runs fall in several strata
  std::vector<std::string> set_aside;      ///< files not counted as runs, and why
  int unreadable = 0;                      ///< of them, files that could not be read
};

/// Stage 2 and 3: every fleet's matrix, its reference (own, or the baseline's: throws
/// input_error for a fleet it lacks) and each GPU's verdicts.
/// Stage 2: each fleet's reference and verdicts: against `against` when given; else a fleet of
/// fewer than opt.model_below GPUs against `model`'s group of its stratum when it has one;
/// else against itself.
void decide_fleets(fleet_state& s, const fleet_options& opt, const fleet_baseline* against,
                   const fleet_baseline* model = nullptr);

/// A GPU's overall verdict: the worse of its parts', slow before failing before undecided.
enum class gpu_verdict { outlier, failing, undecided, within };
const char* to_string(gpu_verdict v) noexcept;

/// One GPU in sum, as the outputs list it.
struct gpu_summary {
  std::size_t fleet = 0, gpu = 0;
  gpu_verdict v = gpu_verdict::within;     ///< from its GPU part
  gpu_verdict host_v = gpu_verdict::within;  ///< from its host part
  std::string reason, host_reason;
  double worst_z = 0;  ///< the largest z of any scope of its GPU part (ranking)
  gpu_verdict drift_v = gpu_verdict::within;  ///< with --since: its GPU part against itself
  gpu_verdict host_drift_v = gpu_verdict::within;
  std::string drift_reason;  ///< "" without --since
  /// Its place in the worst-first order of every GPU (1: the worst), set once where the order
  /// is made: the table and the JSON list the GPUs in that order, strata mixed, and give this.
  int rank = 0;
};
/// Every GPU's summary, worst first, each with its rank.
std::vector<gpu_summary> summarize_gpus(const fleet_state& s);
/// The part verdict as a GPU verdict.
gpu_verdict verdict_of(const fleet_test::part_result& p);

/// An identity field on which a fleet's outliers share no value with its GPUs within.
struct apart_field {
  std::string key;                              ///< a context key, e.g. gpu_board_part
  std::vector<std::string> outliers, within;    ///< the values each side has, sorted
};
/// Stage 3's last step: the identity fields that set fleet `fi`'s outliers apart from its
/// GPUs within (every GPU of both has the field, and no value is on both sides); none
/// without an outlier, nor without a GPU within unless judged against a baseline, whose
/// GPUs' values (its identity) join those of the GPUs within.
std::vector<apart_field> outliers_apart(const fleet_state& s, const std::vector<gpu_summary>& gpus, std::size_t fi);
/// The identity a baseline keeps of fleet `f`: every identity field all its GPUs have, with
/// their values; not the fields that name one host (a newcomer is always on another).
fleet_identity_values fleet_identity(const fleet& f);
/// Whether a baseline keeps `key` in its identity.
bool baseline_identity_key(std::string_view key);
/// "gpu_board_part (A against B); ...".
std::string apart_text(const std::vector<apart_field>& fields);

/// GPUs as tables show them: the UUID's first twelve characters, unless two GPUs of the
/// fleet share those (then the whole UUID); one per GPU of the fleet.
std::vector<std::string> gpu_labels(const fleet& f);
/// A --benchmark_filter that selects exactly these rows: ^(a|b)/ with every character a
/// regular expression treats specially escaped (the names end before /manual_time).
std::string confirm_filter(const std::vector<std::string>& rows);
/// The rules as the notes say them.
std::string rule_note(const fleet_test::settings& t);

/// Stage 4: the document, the JSON, a baseline.
/// Whether a fleet has GPUs enough to be written as a baseline's reference (--baseline-out).
bool enough_for_baseline(const fleet& f);
/// Whether a reference groups its rows by level (fleet --by=level, or a baseline made so).
bool grouped_by_level(const fleet_test::reference& ref);
/// A line per GPU and level (fleet_levels.cpp); empty unless a fleet is grouped by level.
table level_table(const fleet_state& s, const std::vector<gpu_summary>& gpus);
document fleet_document(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt);
/// One GPU on one level (fleet --by=level), the record the level table, the test results and
/// the metrics are each rendered from.
struct level_outcome {
  const fleet* f = nullptr;
  std::size_t gpu = 0;                ///< index into f->gpus
  const levels::level* l = nullptr;
  std::string part;                   ///< "GPU" or "host"
  std::string verdict;                ///< within, faster, slower, failing, undecided, not judged, no time, not in the reference
  double change = NAN, z = NAN;       ///< against the reference's centre; NAN where not judged on the level
  int rows = 0;                       ///< the level's rows in the reference
  std::vector<reason_code> reasons;
  std::string message;                ///< the prose: the deviation, or the part's reason
};
/// Every GPU's levels, GPUs worst first, levels in the hierarchy's order (fleet_levels.cpp),
/// of the fleets grouped by level.
std::vector<level_outcome> level_outcomes(const fleet_state& s, const std::vector<gpu_summary>& gpus);
/// Whether the GPU (UUID, host and build) has runs in another of the state's strata too (a
/// setting such as its power limit changed between runs): then judged once in each.
bool in_several_strata(const fleet_state& s, const fleet& f, std::size_t gpu);
/// Fills `s.split_gpus` once, so that the question above is a lookup for every series and case.
void find_split_gpus(fleet_state& s);
/// What a GPU's test cases are grouped under: its UUID, host and build (one UUID on two hosts,
/// or two builds' runs of one GPU, are two suites), and its stratum where it is in several.
std::string gpu_suite(const fleet_state& s, const fleet& f, std::size_t gpu);
/// A test case per GPU and level.
void add_level_cases(test_run& run, const fleet_state& s, const std::vector<level_outcome>& levels);
/// The verdicts and the level rows' measurements as Prometheus metrics in the text format
/// (fleet_metrics.cpp): per GPU and level, or per GPU and part.
std::string fleet_metrics(const fleet_state& s, const std::vector<gpu_summary>& gpus);
/// The verdicts as test results (fleet_tests.cpp): per GPU and level where the fleet is
/// grouped by level, else per GPU and part; a GPU without a run since --since is an error.
test_run fleet_tests(const fleet_state& s, const std::vector<gpu_summary>& gpus);
/// fleet's declarations (fleet_record.cpp): a GPU's record (its rank: gpu_summary's) and a
/// scope's (`label` the GPU as the tables name it): every JSON field and every table column.
record gpu_record(const fleet_state& s, const gpu_summary& g);
record scope_record(const fleet& f, std::size_t gi, std::size_t fi, const std::string& label, const fleet_test::finding& k);
/// One GPU on one level (fleet --by=level): the JSON's `levels` entry and the level table's line.
record level_record(const level_outcome& o);
std::string fleet_json(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt);
std::string baseline_text(const fleet_state& s, const fleet_options& opt);

}  // namespace membench::report
