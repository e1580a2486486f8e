// fleet: which GPU of many of one model is slow, and is its host. The files are split into
// fleets of one model, build and stratum (board part, VBIOS, memory clock, power limit); each
// GPU is judged alone against its stratum's healthy GPUs (fleet/gpu_test.hpp), its GPU work
// and its host work apart. A baseline (a stratum's reference, written to a file) can stand in
// for the fleet: "is this new node fit to join?".
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/document.hpp"
#include "fleet/gpu_test.hpp"
#include "core/model.hpp"
#include "core/options.hpp"
#include "stats/verdict.hpp"
#include "views/views.hpp"

namespace membench::report {

struct fleet_options {
  fleet_test::settings test = defaults();  ///< thresholds, level, failed-row share
  std::string filter;                      ///< rows to judge (--filter)
  bool show_all = false;                   ///< every scope of every GPU, not only those called
  bool as_json = false;
  std::string machine_format;   ///< with as_json: "junit", "ctrf" (test results) or "prom" (metrics) instead of the JSON
  std::int64_t started_ms = 0;  ///< when the command started (test results' start)
  bool allow_mixed = false;                ///< several models or builds: a fleet each
  std::string baseline_format = std::string(options::baseline_format.text);  ///< membench or reframe
  bool make_baseline = false;              ///< --baseline-out: write the reference too
  std::string since;                       ///< --since DATE: each GPU also against its own runs before it
  std::string by = std::string(options::fleet_by.text);  ///< family or level: the scopes between all and a row
  /// Fleets of fewer GPUs than this are judged against the model reference of their stratum,
  /// when one is given (view_fleet's `model`).
  int model_below = static_cast<int>(options::fleet_model_below.number);
  /// The test's settings at the options table's defaults.
  static fleet_test::settings defaults();
};

/// Identity fields and, per field, the values a fleet's GPUs have (each field's sorted): what a GPU of
/// another board part, VBIOS or driver than a baseline's can be told apart by.
using fleet_identity_values = std::vector<std::pair<std::string, std::vector<std::string>>>;

/// A baseline file as --baseline reads it: per model, build and stratum the reference its
/// GPUs made.
struct fleet_baseline {
  std::string path;
  fleet_test::settings test;  ///< the thresholds it was measured at, which judge against it
  struct group {
    std::vector<std::string> key;    ///< gpu_name, memory, SMs, maximum SM clock, build (fleet_key's order)
    fleet_identity_values stratum;   ///< the stratum fields' values
    std::vector<std::string> gpus;   ///< the UUIDs it was made from
    fleet_identity_values identity;  ///< its GPUs' identity
    fleet_test::reference ref;
    std::vector<figure> figures;     ///< per row of ref, the figure its centre is of
  };
  std::vector<group> groups;
};
/// Reads a baseline written with --baseline-format membench. throws input_error
fleet_baseline parse_baseline(std::string_view text, const std::string& path);

struct fleet_outcome {
  document doc;
  std::string json;      ///< instead of `doc` when as_json
  std::string baseline;  ///< with make_baseline: the baseline in baseline_format
  int gpus = 0, outliers = 0, failing = 0, undecided = 0, slow_hosts = 0;
  int drifted = 0, drifted_hosts = 0;  ///< with --since: slower than their own earlier runs
  int unreadable = 0;                  ///< files that could not be read (some GPU's runs)
  std::vector<std::string> findings;  ///< "GPU-... (host): reason" of each GPU or host not passing, worst first
  /// 1 a GPU slow (against the fleet or, with --since, itself) or failing, else 4 a host so,
  /// else 3 a GPU or host undecided or a file unreadable, else 0.
  int exit_code() const;
};

/// Groups the files by model, build and stratum, GPUs by gpu_uuid and host, and judges every
/// GPU against its fleet (or against `against`; a fleet of fewer than opt.model_below GPUs
/// against `model`'s group of its stratum, when it has one); `unreadable` says which files
/// (and why) could not be read: the outcome is then undecided at best. throws input_error for
/// a file without gpu_uuid, several models or builds without allow_mixed, a fleet the
/// baseline lacks, no row to judge.
fleet_outcome view_fleet(const file_refs& files, const fleet_options& opt, const fleet_baseline* against = nullptr,
                         const std::vector<std::string>& unreadable = {}, const fleet_baseline* model = nullptr);

}  // namespace membench::report
