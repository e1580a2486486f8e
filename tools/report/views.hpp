// The four views of membench-report. Each turns loaded result files into a document;
// compare also returns a verdict for the exit code.
#pragma once

#include <string>
#include <vector>

#include "document.hpp"
#include "model.hpp"

namespace membench::report {

struct common_options {
  std::string filter;             ///< ECMAScript regex searched in benchmark names; empty = all
  std::string value = "gb_per_s";  ///< "time" or a counter name
};

struct table_options : common_options {
  std::string rows = "bytes";  ///< a name key, or space/experiment/build/gpu/file
  std::string cols = "build";
};

/// Pivot: one table per combination of the keys that are neither rows nor cols. throws input_error
document view_table(const std::vector<result_file>& files, const table_options& opt);

/// The same benchmarks from the default, ca and cg builds (told apart by the JSON
/// context) side by side, with ratios to the default build. throws input_error
document view_builds(const std::vector<result_file>& files, const common_options& opt);

struct gpus_options : common_options {
  std::string build = "default";  ///< which build's files to compare across GPUs
};
/// The same benchmarks on several GPUs, absolute and as % of each GPU's own peak. throws input_error
document view_gpus(const std::vector<result_file>& files, const gpus_options& opt);

enum class verdict { same, faster, slower, unsure };
const char* to_string(verdict v) noexcept;

struct compare_options {
  std::string filter;
  double threshold_pct = 5;  ///< changes within this are "same"
  double resolution_us = 0.5;  ///< smaller absolute changes are "unsure": the timing's resolution for small kernels
  bool show_all = false;     ///< list "same" rows too (default: only the others)
};
struct compare_outcome {
  document doc;
  int slower = 0, faster = 0, same = 0, unsure = 0;
  int unusable = 0;   ///< missing or errored in either file
  double geomean_ratio = 1;  ///< geometric mean of new/base time
};
/// Per benchmark: time and bandwidth change and a noise-aware verdict. Never throws for
/// missing or errored benchmarks (they are counted as unusable); throws input_error for
/// files that share no benchmark.
compare_outcome view_compare(const result_file& base, const result_file& next, const compare_options& opt);

/// The verdict for one benchmark: `change` is new/base - 1 in time and `delta_us` the same
/// in microseconds; `uncertainty` the relative uncertainty of the change (combined, one
/// standard deviation); `threshold` a fraction; `resolution_us` the smallest trusted delta.
verdict judge(double change, double delta_us, double uncertainty, double threshold, double resolution_us);

/// Formats a value for a table: about four significant digits, no exponent.
std::string format_value(double v);
/// What a value is measured in, for table captions ("GB/s (decimal)", "us", ...).
std::string unit_of(const std::string& value);
/// True when smaller is better (times), false for rates and efficiencies.
bool lower_is_better(const std::string& value);

}  // namespace membench::report
