// Google Benchmark JSON as membench-report reads it: files, their context, and one
// result per benchmark name. Every malformed input becomes an input_error naming the file.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace membench::report {

/// Unusable input: the message names the file and what is wrong (exit code 2).
class input_error : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A result's counters, sorted by name: cheap to build for 100 000 rows, binary-searched.
class counter_set {
 public:
  using value_type = std::pair<std::string_view, double>;  ///< names interned for the process
  counter_set() = default;
  explicit counter_set(std::vector<value_type> v);  ///< sorts; the first of equal names wins
  const double* find(std::string_view name) const noexcept;
  double at(std::string_view name) const;  ///< throws std::out_of_range
  bool empty() const noexcept { return v_.empty(); }
  auto begin() const noexcept { return v_.begin(); }
  auto end() const noexcept { return v_.end(); }

 private:
  std::vector<value_type> v_;
};

/// One benchmark of one file, its repetitions folded.
struct result {
  std::string name;                                         ///< registered name, no /manual_time
  std::string space, experiment;                            ///< "global", "read_offset"
  std::vector<std::pair<std::string, std::string>> params;  ///< name keys in order
  std::optional<std::string> error;                         ///< error row: its message
  bool skipped = false;                                     ///< error message starts with "skipped:"
  double time_us = 0;                                       ///< median over repetitions (or the aggregate)
  counter_set counters;                                     ///< per counter, median over repetitions
  std::string label;
  std::vector<double> rep_times_us;                         ///< one per repetition (empty: aggregates only)
  double rep_cv = -1;                                       ///< relative stddev across repetitions, -1 unknown

  std::optional<double> value(std::string_view what) const;  ///< "time" or a counter
  std::string param(std::string_view key) const;            ///< "" when absent
};

struct result_file {
  std::string path;
  std::map<std::string, std::string> context;
  std::vector<result> results;  ///< in file order
  std::unordered_map<std::string, std::size_t> index;  ///< name -> position in results

  std::string build() const;  ///< membench_cache_mode, or "unknown"
  std::string gpu() const;    ///< gpu_name, or "unknown"
  double peak_gbps() const;   ///< gpu_peak_dram_gbps, 0 if unknown
  std::string context_value(const std::string& key) const;  ///< "?" when absent
  const result* find(std::string_view name) const;
};

/// Parses Google Benchmark JSON text; `path` names it in errors. throws input_error
result_file parse_results(std::string_view text, const std::string& path);
/// Reads and parses a file. throws input_error
result_file load_results(const std::string& path);

/// Strict weak order for names and parameter values: numbers and sizes (16K < 4M < 1G)
/// by value, then text.
bool value_less(std::string_view a, std::string_view b);
/// The numeric value of a parameter ("16K" -> 16384, "8" -> 8), or nullopt.
std::optional<double> numeric_value(std::string_view v);
/// Orders results by space, experiment, then parameters in their order, numerically.
bool result_less(const result& a, const result& b);

}  // namespace membench::report
