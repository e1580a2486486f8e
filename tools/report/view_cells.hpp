// Pieces the views share: cells of one value, the files as pointers, context lookups.
#pragma once

#include <string>
#include <vector>

#include "common/schema.hpp"
#include "document.hpp"
#include "model.hpp"

namespace membench::report {

/// A result's value as a cell: "skipped"/"error" for error rows, "-" where it lacks the value.
cell value_cell(const result& r, const std::string& what);

/// A file's context value under a schema key ("?" when absent).
std::string context_of(const result_file& f, const schema::field& key);

}  // namespace membench::report
