// fleet's test, one GPU at a time: is this GPU slower than healthy GPUs of its stratum?
// Pure functions of a matrix of log times (GPU x run x row), so that the same code judges a
// file set, a baseline's newcomers and the synthetic fleets of the evaluation.
//
// Each GPU is scored on scopes of rows: all rows of a part, each family, each row. A scope's
// score for one run is the mean over its rows of log(time / row centre); the GPU's score is
// the mean over its runs. The null a score is judged against is the healthy fleet's, as
// variance components: the spread between healthy chips (robust: 1.4826 x the MAD of the
// GPUs' scores, less what their own run-to-run noise explains), plus the GPU's own run-to-run
// variance over its runs, plus the centre's uncertainty. A GPU is slower on a scope when its
// score clears both the practical threshold of the scope and the z of its per-GPU level
// (Bonferroni over the GPU's scopes), a level that does not depend on how many other GPUs
// were measured. The centre is the median of the largest group of GPUs that agree within the
// threshold; where no group holds a majority the scope is split and no GPU passes on it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "stats/reasons.hpp"

namespace membench::report::fleet_test {

/// What a row's time measures: the GPU's own work, or the host's (the host link, the driver).
enum class part : unsigned char { gpu, host };
inline constexpr int part_count = 2;
const char* to_string(part p) noexcept;

enum class scope_kind : unsigned char { all, family, row };
const char* to_string(scope_kind k) noexcept;

struct row_meta {
  std::string name, family;
  part p = part::gpu;
  double step = 0;  ///< the timer's step relative to the row's time: what no spread can be smaller than
};

/// A fleet's runs: per GPU, its runs (files) times rows of log times; NaN where a run has no
/// usable time of the row.
struct matrix {
  std::vector<row_meta> rows;
  struct gpu {
    std::size_t runs = 0;
    std::vector<double> logs;  ///< runs x rows, row-major by run
    double at(std::size_t run, std::size_t row, std::size_t rows) const { return logs[run * rows + row]; }
  };
  std::vector<gpu> gpus;
};

/// The test's settings.
struct settings {
  double alpha = 1e-5;  ///< a healthy GPU's chance of being called, over all its scopes of one part
  double all_pct = 3, family_pct = 5, row_pct = 10;  ///< practical thresholds (percent) of the GPU part
  double host_all_pct = 10, host_row_pct = 20;        ///< and of the host part (no families)
  /// A part of a GPU with more than this share of its rows failed (errored, missing,
  /// unconverged or throttled in every run) is failing: it cannot be vouched for.
  double fail_share = 0.2;
  int robust_gpus = 3;      ///< fewer GPUs behind a reference: no verdict but undecided
  /// Runs of host work a GPU needs for its host to be judged: their median sets aside one run
  /// that took three times as long, which a single run cannot.
  int host_runs = 3;
  /// Runs a GPU needs for its families and rows to be judged: one run of a row can jump 8-12 %
  /// in one process (a local-memory row on an H100, twice in 52 runs), which a second run
  /// halves; with fewer, only all its GPU rows together are, and a GPU not slow on them is
  /// undecided.
  int scope_runs = 2;
  double floor_sd = 0.002;  ///< the least spread a scope's null has (log sd): numerics at ties
  double threshold_pct(part p, scope_kind k) const;
};

/// One scope as the reference has it: the healthy GPUs' centre and the parts of their spread.
struct scope_ref {
  scope_kind kind = scope_kind::all;
  part p = part::gpu;
  std::string name;               ///< "all", the family, or the row's name
  std::vector<std::size_t> rows;  ///< the matrix rows it averages (indices of reference::rows)
  /// Per row, its weight in the average: the inverse of the row's healthy variance (a GPU's
  /// row score between chips and runs), so that a few-microsecond row whose healthy chips
  /// spread by 5 % does not drown a family's steady rows; empty: equal weights (a row scope).
  std::vector<double> weights;
  double centre = 0;      ///< log: the median score of the majority group
  double between = 0;     ///< variance between healthy chips (log), run noise taken out
  double within = 0;      ///< a run's variance about its GPU's mean (log), pooled robustly; 0 unknown
  /// The same pooled as a mean over the GPUs' runs: it keeps the rare run that jumped (one
  /// process in tens: a local-memory row 12 % slower), which a GPU's one or two runs cannot
  /// set aside as the median of three can. At least `within`.
  double within_tail = 0;
  double typical_runs = 1;  ///< runs behind the GPUs' scores the spread was measured on (median)
  double floor = 0;       ///< variance no score is judged with less than (timer step, numerics)
  int gpus = 0;           ///< GPUs behind it
  bool split = false;     ///< no group of more than half the GPUs agrees within the threshold
  int majority = 0;       ///< GPUs in the largest group that agrees within the threshold
  /// The variance of the centre: the median of n values spreading as s varies pi/2 s^2 / n.
  double centre_variance() const;
  /// The variance of a score of n runs: a run's (the tail's below three runs) over n, times how
  /// much more a median or trimmed mean varies than the mean.
  double run_variance(double n) const;
};

/// "all GPU-work rows", "all host-work rows", "family global/read", "row global/read/...".
std::string describe(const scope_ref& s);

/// What GPUs are judged against: per row its centre, per scope its spread.
struct reference {
  std::vector<row_meta> rows;
  std::vector<double> row_centre;  ///< log
  std::vector<scope_ref> scopes;
  int gpus = 0;                       ///< GPUs behind its GPU-work scopes
  int part_gpus[part_count] = {};     ///< per part, the GPUs behind it (those not failing it)
  int scope_count(part p) const;
};

/// Sets every scope's row weights from its rows' scopes (a reference read from a baseline
/// gets them so too).
void weigh_scopes(reference& ref);

/// The scopes of a set of rows: all rows of each part, each family of the GPU part with two
/// rows or more, each row; in that order.
std::vector<scope_ref> scopes_of(const std::vector<row_meta>& rows);

/// The reference a fleet is its own: row centres (median of the GPUs' mean logs), then each
/// row scope's majority centre and variance components over the GPUs not failing its part,
/// the rows' weights from those (weigh_scopes), and the other scopes' with them.
reference reference_of(const matrix& m, const settings& s);

/// One GPU's score on one scope against the reference.
struct finding {
  std::size_t scope = 0;
  double deviation = 0;  ///< score - centre (log)
  double sd = 0;         ///< of the deviation under the null
  double z = 0;
  int runs = 0;
  bool slower = false, faster = false;
  double change() const;  ///< exp(deviation) - 1
};

enum class verdict : unsigned char { pass, slow, failing, undecided, not_judged };
const char* to_string(verdict v) noexcept;

/// One part of one GPU: its verdict and the evidence.
struct part_result {
  verdict v = verdict::pass;
  reasons why;                     ///< codes, and the prose the text shows
  int rows = 0, failed = 0;        ///< rows the reference has in this part, and those the GPU failed
  int unjudged = 0;                ///< scopes not judged: too few runs of their rows (settings::scope_runs), or
                                   ///< a reference of fewer than settings::robust_gpus GPUs on them
  int runs = 0;                    ///< the GPU's runs with a time of any row of the part
  std::vector<finding> findings;   ///< every scope of the part the GPU has a score on, in scope order
  std::vector<std::size_t> called; ///< indices into findings called slower, worst (largest z) first
};

struct gpu_result {
  part_result parts[part_count];
  const part_result& of(part p) const { return parts[static_cast<int>(p)]; }
};

/// The critical z of one scope at the settings' per-GPU level over `scopes` scopes.
double critical_z(const settings& s, int scopes);

/// Judges every GPU of `m` against `ref` (rows matched by index: m.rows must be ref.rows).
std::vector<gpu_result> judge(const matrix& m, const reference& ref, const settings& s);

/// Each GPU against its own earlier runs: `then` and `now` hold the same GPUs in the same
/// order, over ref.rows. A scope's drift is its score now less its score then; the null has
/// no spread between chips (the same chip), only the run-to-run variance pooled in `ref`
/// over the runs of each side, and the floor. A GPU without runs on both sides, or a scope
/// without a pooled run-to-run variance, is not judged.
std::vector<gpu_result> drift(const matrix& then, const matrix& now, const reference& ref, const settings& s);

/// The rows to run again to confirm a part called slow: its rows with the largest z, at most
/// `most`, as indices into the reference's rows.
std::vector<std::size_t> rows_to_confirm(const part_result& p, const reference& ref, std::size_t most = 6);

/// A GPU's runs with a time of any row of a part.
int runs_with(const matrix::gpu& g, const std::vector<row_meta>& rows, part p);
/// The first level (fleet --by=level's group, "level L2 far") of a part none of whose rows has
/// a time in any of a GPU's runs; "" when every level has one. A node check that lost a level
/// has not checked it: the part fails, whatever share of rows that is.
std::string level_without_time(const matrix::gpu& g, const std::vector<row_meta>& rows, part p);
/// A GPU's rows of a part failed: NaN in every run.
int failed_rows(const matrix::gpu& g, const std::vector<row_meta>& rows, part p);

}  // namespace membench::report::fleet_test
