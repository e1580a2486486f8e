// Whether a build's kernels run the way it claims: plain host logic over what the probe
// kernel reports (build_probe.hpp), tested without a GPU.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace membench {

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

/// Null when the CUDA runtime this binary was built with (`built`, e.g. 13000) and the
/// runtime it found (`running`) have the same major version; else what to do.
std::optional<std::string> check_cuda_major(int built, int running);

}  // namespace membench
