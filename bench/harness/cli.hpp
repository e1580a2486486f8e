// Command-line pieces that are plain host logic (tested without a GPU).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace membench {

/// Exit codes of the membench executables.
enum exit_code : int {
  exit_ok = 0,
  exit_benchmark_failed = 1,  ///< at least one row is an error (verification, CUDA)
  exit_usage = 2,             ///< unknown flag or bad value
  exit_no_device = 3,         ///< no CUDA device or driver
  exit_bad_device = 4,        ///< --device out of range
  exit_build_mismatch = 5,    ///< kernels not compiled the way this build claims
  // 128 + signal when SIGINT/SIGTERM stopped the run (see interrupt.hpp)
};

/// True when argv asks Google Benchmark only to list the benchmarks.
bool wants_list_only(const std::vector<std::string>& args);

/// True when some argument starts with `prefix`.
bool has_arg_prefix(const std::vector<std::string>& args, std::string_view prefix);

/// The flag that makes Google Benchmark run each benchmark function exactly once (membench
/// samples inside that one iteration): `--benchmark_min_time=1x` from 1.8 on; 1.7 has no
/// `x` form, and a bare 0 seconds stops it after its first iteration.
std::string single_iteration_arg(std::string_view version);

struct probe_attributes {
  int cache_mode_ca = 0;       ///< cudaFuncAttributes::cacheModeCA (0 on sm_90 even for ca)
  int binary_version = 0;      ///< SASS version of the loaded probe kernel
  int ptx_version = 0;
  double load_cycles = 0;      ///< cycles per dependent load over a 4 KiB chain
};

/// Dependent loads faster than this are L1 hits (tens of cycles); L2 hits take hundreds.
inline constexpr double l1_hit_cycles_max = 100;

/// Null when a build compiled as `cache_mode` for `architectures` ("90-real,100-real")
/// really runs its loads that way; otherwise what is wrong. ca loads must hit L1, cg loads
/// must not; the default build makes no claim.
std::optional<std::string> check_build(std::string_view cache_mode, std::string_view architectures,
                                       const probe_attributes& probe);

}  // namespace membench
