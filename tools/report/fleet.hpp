// fleet: which GPU of many of one model and build is slow. Each GPU's time on each row
// against the fleet's robust centre (the median of the GPUs' medians), decided by compare's
// test (verdict.hpp) and corrected as one family (family.hpp), at two thresholds: many rows
// a little slower, or one row far slower; per GPU a verdict. A
// baseline (the centres of a fleet, written to a file) can stand in for the centre: "is this
// new node fit to join?".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "document.hpp"
#include "model.hpp"
#include "options.hpp"
#include "verdict.hpp"
#include "views.hpp"

namespace membench::report {

/// compare's settings at fleet's defaults (--threshold 3).
compare_options fleet_test_defaults();

struct fleet_options {
  compare_options test = fleet_test_defaults();  ///< threshold, confidence, floors, correction, filter, --all, json
  double outlier_share_pct = options::outlier_share.number;  ///< this share of decided rows slower: an outlier
  double one_row_threshold_pct = options::one_row_threshold.number;  ///< one row slower beyond this: an outlier
  /// A GPU with this many runs of a row or more: the row's run-to-run spread pooled over the
  /// fleet's runs replaces the floors (0: never).
  int calibration_runs = options::fleet_calibration_runs.value<int>();
  bool allow_mixed = false;                                   ///< several models or builds: a fleet each
  std::string baseline_format = std::string(options::baseline_format.text);  ///< membench or reframe
  bool make_baseline = false;                                 ///< --baseline-out: write the centres too

  /// compare's test as fleet asks it: slower (faster) only when the interval clears the
  /// threshold (the margin is the threshold); a GPU's clock is part of what is judged, never
  /// a reason to be unsure; runs never calibrate (a GPU has a few).
  decide_options decide() const;
  /// The same test at --one-row-threshold: one row called slower by it makes an outlier.
  decide_options decide_one_row() const;
};

/// One row of a baseline: the centre a fleet had and how far its GPUs spread.
struct baseline_row {
  double centre_us = NAN;  ///< the median of the GPUs' medians
  double spread = NAN;     ///< between GPUs: 1.4826 x the MAD of their log medians
  int gpus = 0;            ///< GPUs behind it
  double clock_mhz = NAN;  ///< the median SM clock of their runs
  double run_spread = NAN;  ///< a run's run-to-run spread pooled over its GPUs (log sd)
  double run_df = 0;        ///< the degrees of freedom behind it (0: no GPU had two runs)
  figure fig = figure::single;  ///< the figure the centre is of: a GPU judged on another is not compared
};

/// Identity fields and, per field, the values a fleet's GPUs have (each field's sorted): what a GPU of
/// another board part, VBIOS or driver than a baseline's can be told apart by.
using fleet_identity_values = std::vector<std::pair<std::string, std::vector<std::string>>>;

/// A baseline file as --baseline reads it.
struct fleet_baseline {
  std::string path;
  struct group {
    std::vector<std::string> key;   ///< gpu_name, memory, SMs, maximum SM clock, build (fleet_key's order)
    std::vector<std::string> gpus;  ///< the UUIDs it was made from
    std::vector<std::pair<std::string, baseline_row>> rows;  ///< sorted by name
    fleet_identity_values identity;  ///< its GPUs' identity (none in a baseline written before it had one)
  };
  std::vector<group> groups;
};
/// Reads a baseline written with --baseline-format membench. throws input_error
fleet_baseline parse_baseline(std::string_view text, const std::string& path);

struct fleet_outcome {
  document doc;
  std::string json;      ///< instead of `doc` when test.as_json
  std::string baseline;  ///< with make_baseline: the baseline in baseline_format
  int gpus = 0, outliers = 0, unsure = 0;
  std::vector<std::string> outlier_names;  ///< "GPU-... (host)", worst first
};

/// Groups the files by model and build, GPUs by gpu_uuid, and judges every GPU against its
/// fleet (or against `against`). throws input_error for a file without gpu_uuid, several
/// models or builds without allow_mixed, a fleet the baseline lacks, no row to compare.
fleet_outcome view_fleet(const file_refs& files, const fleet_options& opt,
                         const fleet_baseline* against = nullptr);

}  // namespace membench::report
