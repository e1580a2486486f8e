// fleet in stages, data flowing one way: the loaded files -> fleets of one model and build,
// their GPUs and rows (fleet_group.cpp) -> per row the centre and spread, per GPU and row a
// decision, the family correction (fleet_decide.cpp) -> per GPU a verdict (fleet_verdict.cpp)
// -> a document, JSON or a baseline (fleet_render.cpp, fleet_json.cpp, fleet_baseline.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "family.hpp"
#include "fleet.hpp"
#include "verdict.hpp"

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

/// A row's reference: the centre of its GPUs and how far they spread about it.
struct row_centre {
  double centre_us = NAN;  ///< the median of the GPUs' medians
  double spread = NAN;     ///< between GPUs: 1.4826 x the median absolute deviation of their log medians
  int gpus = 0;            ///< GPUs behind it
  double clock_mhz = NAN;  ///< the median SM clock of their runs
  /// A run's run-to-run variance (of its log median about its GPU's mean), pooled over the
  /// GPUs with two runs or more: a property of the row and the model, measured on many GPUs
  /// at once (two runs of one GPU alone give an interval with one degree of freedom).
  double run_variance = NAN;
  double run_df = 0;  ///< its degrees of freedom: the runs less one per GPU (0: none measured)
  /// The same as Yuen's test takes it: the runs' winsorized variance (20 %), pooled over
  /// the GPUs with two runs or more on the runs each keeps less one.
  double trimmed_variance = NAN;
  double trimmed_df = 0;
  bool known() const { return gpus > 0; }
  /// The variance of the log centre: the median of n values spreading as `spread` varies
  /// pi/2 times as much as their mean, spread^2 / n.
  double variance() const;
};

/// A fleet: its GPUs, its rows, each row's reference.
struct fleet {
  fleet_key key;
  std::vector<fleet_gpu> gpus;       ///< in the order of their first file
  std::vector<fleet_row> rows;       ///< the rows its files have, the filter keeps, in first-file order
  std::vector<row_centre> centres;   ///< per row: the fleet's own, or the baseline's
  int reference_gpus = 0;            ///< GPUs the centres come from (the fleet, or the baseline's)
  fleet_identity_values baseline_identity;  ///< against a baseline: its GPUs' identity
};

/// Stage 1: the files as fleets of one key each, their GPUs by gpu_uuid. throws input_error
/// for a file without gpu_uuid, and for several keys without allow_mixed
std::vector<fleet> group_fleets(const file_refs& files, bool allow_mixed);
/// Rows that involve several GPUs (the peer space, src: and dst: keys): no GPU's own.
bool multi_gpu_row(const result& r);
/// Stage 1's rows: a fleet's rows the filter keeps, per GPU its usable runs. Rows that
/// involve several GPUs are left out, their names added to `multi_gpu`. Runs that did not
/// converge are left out unless a GPU has `calibration_runs` runs of the row or more.
void gather_rows(fleet& f, const name_filter& filter, std::vector<std::string>& multi_gpu, int calibration_runs);

/// One GPU's decision on one row.
struct judged {
  std::size_t fleet = 0, row = 0, gpu = 0;
  row_centre ref;  ///< what the GPU is judged against: its fleet's centre, the spread of the others
  decision d;      ///< at --threshold
  /// The verdict at --one-row-threshold (a family of its own): slower makes the GPU an outlier.
  verdict one_row = verdict::same;
};

/// Everything decided: the fleets, a decision per GPU and row compared, the correction.
struct fleet_state {
  std::vector<fleet> fleets;
  std::vector<judged> rows;          ///< fleet by fleet, row by row, GPU by GPU
  family_outcome fam;          ///< the correction at --threshold
  family_outcome one_row_fam;  ///< at --one-row-threshold
  std::vector<std::string> multi_gpu;  ///< rows left out: they involve several GPUs
  std::string baseline_path;           ///< "" unless judged against a baseline
};

/// Whether a GPU's runs of a row measure their own spread: calibration_runs of them or more.
bool measured_runs(const side& s, int calibration_runs);
/// A GPU's time on a row: the median of its runs' medians; with measured runs, the exp of
/// their 20 % trimmed mean of logs (a row whose runs fall at two levels moves the median of
/// many runs from one level to the other with a run or two, as compare takes it).
double gpu_time(const side& s, int calibration_runs);
/// The fleet's own centre of a row, its run-to-run variance pooled over its GPUs.
row_centre centre_of(const fleet_row& r, int calibration_runs = 0);
/// The centre `all` of a row as GPU `gpu` is judged against it: the spread measured on the
/// other GPUs (their log medians about the centre), so that a GPU far off does not widen the
/// interval of its own deviation. `all` itself when the row has fewer than three GPUs.
row_centre centre_for(const row_centre& all, const fleet_row& r, std::size_t gpu, int calibration_runs = 0);
/// Adds the run-to-run spread of a row's GPUs to a reference's pool.
void pool_runs(row_centre& c, const fleet_row& r);
/// A GPU's runs of a row against its reference: the change, its interval and the verdict.
/// With `calibration_runs` runs of the GPU or more (0: never) and a run-to-run spread in the
/// reference, that measured spread replaces the floors (evidence runs).
decision judge_gpu(const side& gpu, const row_centre& c, const decide_options& o, int calibration_runs = 0);
/// Stage 2: every fleet's centres (own, or the baseline's: throws input_error for a fleet
/// it lacks), every GPU's decisions and their family correction, at --threshold and at
/// --one-row-threshold.
void decide_fleets(fleet_state& s, const fleet_options& opt, const fleet_baseline* against);

enum class gpu_verdict { outlier, unsure, within };
const char* to_string(gpu_verdict v) noexcept;

/// One family of a GPU's rows.
struct family_score {
  std::string family;
  int compared = 0, slower = 0, faster = 0, unsure = 0;
  double median_change = NAN;
};

/// One GPU's rows in sum, and its verdict.
struct gpu_summary {
  std::size_t fleet = 0, gpu = 0;
  int compared = 0, slower = 0, faster = 0, same = 0, unsure = 0;
  int one_row_slower = 0, one_row_faster = 0;   ///< rows called so at --one-row-threshold
  int called_slower = 0, called_slower_host_work = 0;  ///< rows called slower at either threshold, and those of host work
  std::string one_row_slowest, one_row_fastest;  ///< the farthest of those, as the verdict says it
  int left[left_out_count] = {};       ///< rows left out, by left_out
  double median_change = NAN;          ///< over its compared rows
  double clock_mhz = NAN, fleet_clock_mhz = NAN;  ///< medians over its rows' runs, and its fleet's
  std::vector<family_score> families;  ///< worst first
  gpu_verdict v = gpu_verdict::within;
  std::string reason;
  int decided() const { return same + slower + faster; }
};

/// Stage 3: each GPU's summary and verdict, worst first.
std::vector<gpu_summary> summarize_gpus(const fleet_state& s, const fleet_options& opt);

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

/// A GPU as tables show it: the UUID's first twelve characters, unless two GPUs of the
/// fleet share those.
std::string gpu_label(const fleet& f, std::size_t gpu);
/// The families a GPU is worst in ("global/read +8.2 % (4/4 slower)"), "-" when none.
std::string worst_families(const gpu_summary& g, std::size_t most);
/// The rules as the notes say them.
std::string row_rule_note(const fleet_options& opt);
std::string gpu_rule_note(const fleet_options& opt);

/// Stage 4: the document, the JSON, a baseline.
document fleet_document(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt);
std::string fleet_json(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt);
std::string baseline_text(const fleet_state& s, const fleet_options& opt);

}  // namespace membench::report
