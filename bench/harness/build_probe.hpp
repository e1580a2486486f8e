#pragma once

#include "cli.hpp"

namespace membench {

/// "default", "ca" or "cg": the -dlcm flag this executable's kernels were compiled with.
const char* build_cache_mode();
/// Attributes of a kernel compiled like every benchmark kernel of this build. throws cuda_error
probe_attributes build_probe_attributes();
/// Short git commit of the sources (with -dirty), written at build time.
const char* git_commit();

}  // namespace membench
