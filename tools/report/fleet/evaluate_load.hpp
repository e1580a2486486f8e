// The evaluation tools' input: folders of membench JSON files grouped into strata as fleet
// groups them, each as the matrix of its GPUs' runs.
#pragma once

#include <string>
#include <vector>

#include "fleet/fleet_stages.hpp"

namespace membench::report {

struct stratum_set {
  std::string name;
  fleet_test::matrix m;
  std::vector<std::string> families;  ///< GPU-work families (or levels) with two rows or more
};

/// Every .json file below `folder`, sorted. throws input_error when there is none
std::vector<std::string> json_files(const std::string& folder);

/// The strata of the folders' files (kept alive in `keep`), rows the filter keeps; with
/// `by_level`, only level rows, grouped by level (fleet --by=level). throws input_error
std::vector<stratum_set> load_strata(const std::vector<std::string>& folders, std::vector<result_file>& keep,
                                     const std::string& filter = "", bool by_level = false);

}  // namespace membench::report
