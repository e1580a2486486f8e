// The command line: membench's own options (listed in the schema) after Google Benchmark
// has taken its own, checks of Google Benchmark's that it would accept silently, and the
// exit codes. Plain host logic, tested without a GPU.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "options.hpp"

namespace membench {

/// Exit codes of the membench executables (schema::exit_codes() documents them).
enum exit_code : int {
  exit_ok = 0,
  exit_benchmark_failed = 1,  ///< at least one row is an error (verification, CUDA)
  exit_usage = 2,             ///< unknown flag or bad value, bad filter, unwritable output
  exit_no_device = 3,         ///< no CUDA device or driver
  exit_bad_device = 4,        ///< --device out of range
  exit_build_mismatch = 5,    ///< kernels not compiled the way this build claims
  // 128 + signal when SIGINT/SIGTERM stopped the run (see interrupt.hpp)
};

/// True when argv asks Google Benchmark only to list the benchmarks.
bool wants_list_only(const std::vector<std::string>& args);

/// Null when every Google Benchmark flag in `args` has a value Google Benchmark takes as
/// meant; otherwise what is wrong. Google Benchmark answers a bad format or time unit with
/// its help and exit 0, and reads `nan` as a number: membench refuses them first.
std::optional<std::string> check_benchmark_flags(const std::vector<std::string>& args);

/// The value of `flag=` (the last one) in `args`, empty when absent.
std::string flag_value(const std::vector<std::string>& args, std::string_view flag);
/// The value of `--benchmark_out=` in `args`, empty when absent.
std::string output_path(const std::vector<std::string>& args);

/// True when some argument starts with `prefix`.
bool has_arg_prefix(const std::vector<std::string>& args, std::string_view prefix);

/// The flag that makes Google Benchmark run each benchmark function exactly once (membench
/// samples inside that one iteration): `--benchmark_min_time=1x` from 1.8 on; 1.7 has no
/// `x` form, and a bare 0 seconds stops it after its first iteration.
std::string single_iteration_arg(std::string_view version);

struct parsed_options {
  run_options options;
  std::optional<std::string> error;  ///< what is wrong, for exit_usage
};

/// membench's options from the arguments Google Benchmark left (argv[0] first), each value
/// checked and --devices with --peers and --peers-only (check_gpu_choice in cli.cpp).
parsed_options parse_options(const std::vector<std::string>& args);

/// `--help`: membench's options and exit codes, from the schema.
std::string help_text(std::string_view build_mode);

/// `--version`'s line: membench's version (full_version()), the commit, and the Google
/// Benchmark and CUDA runtime versions this build was made with (no CUDA call: it works
/// without a GPU).
std::string version_text(std::string_view version, std::string_view git_commit, std::string_view benchmark_version,
                         std::string_view cuda_runtime);

/// What a Debug build says on stderr before it measures anything (its times are not
/// membench's); nullopt for any other build type.
std::optional<std::string> debug_build_banner(std::string_view build_type);

/// The filter Google Benchmark runs with, and where it came from.
struct benchmark_filter {
  std::string spec;         ///< the regular expression as given ("" and "all": every benchmark)
  std::string_view origin;  ///< "--benchmark_filter" or "BENCHMARK_FILTER", for messages
};

/// Google Benchmark's filter: the last `--benchmark_filter=`, else `environment` (the value
/// of BENCHMARK_FILTER, which Google Benchmark takes as the flag's default; null: unset),
/// else none (every benchmark).
std::optional<benchmark_filter> effective_filter(const std::vector<std::string>& args, const char* environment);

/// Null when the filter (as check_filter finds it) is absent or a valid regular expression;
/// otherwise what is wrong.
std::optional<std::string> check_filter_syntax(const std::vector<std::string>& args);

/// Null when the mode the options ask for goes with the rest of `user_args` (argv as given;
/// `list_only`: wants_list_only); otherwise what is wrong: two listings (--list-families or
/// --list-devices with --benchmark_list_tests), a filter flag with a listing that takes none,
/// a filter (the flag, else BENCHMARK_FILTER) that is not a valid regular expression. Checked
/// for every mode, before anything looks for a GPU.
std::optional<std::string> check_modes(const run_options& o, const std::vector<std::string>& user_args, bool list_only);

/// Null when the filter (effective_filter of `args` and the environment; none: all) is a
/// regular expression Google Benchmark accepts (POSIX extended, an optional leading '-'
/// negating it) and selects at least one of `names` (registered names; Google Benchmark
/// matches them with their `/manual_time` suffix); otherwise what is wrong.
std::optional<std::string> check_filter(const std::vector<std::string>& args, const std::vector<std::string>& names,
                                        std::string_view tier);

/// The names the filter (as check_filter finds it) selects (all of them when there is none
/// or it is invalid).
std::vector<std::string> selected_names(const std::vector<std::string>& args, const std::vector<std::string>& names);

/// How many rows the run will report: the names the filter selects times
/// `--benchmark_repetitions` (for progress). An invalid filter counts every name.
std::size_t selected_count(const std::vector<std::string>& args, const std::vector<std::string>& names);

/// Null when `--benchmark_out` is absent or its file can be written; else why not. Leaves
/// no file behind that was not there.
std::optional<std::string> check_output(const std::vector<std::string>& args);

}  // namespace membench
