// Pieces the views share: cells of one value, the files as pointers, context lookups.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/schema.hpp"
#include "core/document.hpp"
#include "core/model.hpp"
#include "views/views.hpp"

namespace membench::report {

/// A result's value as a cell: "skipped"/"error" for error rows, "-" where it lacks the value.
cell value_cell(const result& r, const std::string& what);

/// A view's options with --value resolved (resolve_value). throws input_error
template <class Options>
Options with_value(const file_refs& files, const Options& options) {
  Options opt = options;
  opt.value = resolve_value(pointers(files), options);
  return opt;
}

/// How many tables a view of one table per family makes of `results` in this order (a new
/// one where the family changes): to reserve the document's tables at once.
std::size_t family_tables(const std::vector<const result*>& results);

/// A key's values, each once, in the order a table shows them: builds in the lessons' order
/// (default, ca, cg), numbers and sizes by value, words in the order first seen (membench
/// registers a progression's steps in order: naive, coalesced, ...).
void sort_values(std::vector<std::string_view>& v);

/// A file's context value under a schema key ("?" when absent).
std::string context_of(const result_file& f, const schema::field& key);

}  // namespace membench::report
