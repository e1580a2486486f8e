// The JSON reader behind parse_results and load_results, with its two paths exposed for
// the tests and the fuzz target (both paths must agree on every input).
#pragma once

#include <string>
#include <string_view>

#include "model.hpp"

namespace membench::report {

enum class reader_path {
  automatic,  ///< the fast path, the plain one when the fast one gives up
  plain,      ///< the whole document through the SAX parser, on one thread
  fast_only,  ///< the fast path or an input_error saying it gave up (tests)
};

/// `release_pages`: `text` is a private read-only file mapping whose pages may be dropped
/// once read. throws input_error
result_file read_results(std::string_view text, const std::string& path, const read_options& what, reader_path how,
                         bool release_pages = false);

}  // namespace membench::report
