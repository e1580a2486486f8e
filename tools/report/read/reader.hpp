// The JSON reader behind parse_results and load_results, with its two schedules exposed
// for the tests and the fuzz target (both must agree on every input they both read).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/model.hpp"

namespace membench::report {

enum class read_schedule {
  automatic,  ///< split, or whole where the split read gives up
  whole,      ///< the document through the SAX parser on one thread: every error message comes from here
  split,      ///< the rows split over the cores, or an input_error saying it gave up (tests)
};

struct split_options {
  std::size_t parts = 0;                           ///< 0: one per core for 1 MiB of rows or more, else one
  std::size_t block_bytes = std::size_t{1} << 18;  ///< about how much of a part the parser takes at once
};

/// throws input_error
result_file read_results(std::string_view text, const std::string& path, const read_options& what, read_schedule how,
                         const split_options& split = {});

}  // namespace membench::report
