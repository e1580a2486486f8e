// The run-time proof of how this build's kernels were compiled (build_probe.cu).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/device/build_check.hpp"

namespace membench {

/// "default", "ca" or "cg": the -dlcm flag this executable's kernels were compiled with.
const char* build_cache_mode();
/// Attributes of a kernel compiled like every benchmark kernel of this build. throws cuda_error
probe_attributes build_probe_attributes();
/// The probe's readings for the JSON context.
std::vector<std::pair<std::string, std::string>> probe_context(const probe_attributes& probe);

}  // namespace membench
