// A timed row as Google Benchmark reports it: the median as the iteration time, the
// counters and the label, every key through the schema.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <benchmark/benchmark.h>

#include "harness/device/device_info.hpp"
#include "harness/device/nvml.hpp"
#include "harness/measure/launch.hpp"
#include "harness/measure/measurement.hpp"

namespace membench {

struct row_inputs {
  const launch_options& launch;
  std::uint64_t bytes = 0;
  const sample_run& run;
  std::optional<gpu_snapshot> before, after;  ///< NVML around the row
  double wall_s = 0;                          ///< the whole row so far
  double ci_level = 0.95;
};

/// Sets the iteration time (the median), counters and label; returns the label.
std::string write_row(benchmark::State& state, const device_info& device, const row_inputs& in);

}  // namespace membench
