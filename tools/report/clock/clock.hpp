// clock: the SM clock each GPU ran at, its three readings side by side with their
// resolutions, and whether NVML and the per-sample probe agree with the events' slope.
#pragma once

#include <string>

#include "core/document.hpp"
#include "core/model.hpp"

namespace membench::report {

/// A row per file that has a compute/sm_clock row; files without one are named in the
/// notes. throws input_error when no file has one.
document view_clock(const file_refs& files);

/// The same rows as JSON records, for programs.
std::string clock_json(const file_refs& files);

}  // namespace membench::report
