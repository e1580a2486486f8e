// After a sticky CUDA error (the context is lost for the rest of the process) membench
// runs the benchmarks that did not run in a fresh process and merges its JSON rows into
// the main output, so one faulting kernel costs one row, not the rest of the sweep.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/options/cli.hpp"

namespace membench {

/// A --benchmark_filter value that selects exactly `names` (registered names; Google
/// Benchmark matches them with its /manual_time suffix).
std::string exact_filter(const std::vector<std::string>& names);

/// Arguments for the fresh process: `args` (argv as the user gave it, argv[0] first)
/// without filter and output flags, then a filter for `names` and, when `out_path` is
/// not empty, JSON output to it.
std::vector<std::string> rerun_args(const std::vector<std::string>& args, const std::vector<std::string>& names,
                                    const std::string& out_path);

/// Why the output `args` ask for cannot take a fresh process's rows, or null when it can:
/// console on standard output, JSON (or nothing) in --benchmark_out.
std::optional<std::string> fresh_process_obstacle(const std::vector<std::string>& args);

/// How deep fresh processes may nest (each one follows a different faulting benchmark).
inline constexpr int max_fresh_depth = 8;

/// Replaces the rows of `names` in the Google Benchmark JSON at `main_path` by the rows of
/// the JSON at `part_path` (in place of the first replaced row) and records the fresh
/// process in the context. throws std::runtime_error naming the file that is unusable.
void merge_rerun(const std::string& main_path, const std::string& part_path, const std::vector<std::string>& names,
                 const std::string& culprit);
/// The same on the main JSON's text (`main_name` names it in errors): the merged text.
std::string merged_rerun(const std::string& main_text, const std::string& main_name, const std::string& part_path,
                         const std::vector<std::string>& names, const std::string& culprit);

/// Adds the rows of the JSON at `part_path` (the host-bound rows of one GPU, run alone after
/// its other rows: devices.hpp) to the JSON at `main_path`, ordered as `order` (the names as
/// one process registers them) lists them, sets its context's `membench_host_link` to
/// `alone`, and removes `part_path`. throws std::runtime_error naming the file that is
/// unusable or could not be written.
void merge_host_link_rows(const std::string& main_path, const std::string& part_path,
                          const std::vector<std::string>& order);

/// Runs /proc/self/exe with `args` (argv[0] first) and waits; its exit status, or
/// 128 + signal when a signal ended it. throws std::runtime_error when it cannot start.
int run_fresh_process(const std::vector<std::string>& args);

}  // namespace membench
