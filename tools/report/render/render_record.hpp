// The generic renderers of a declared record (core/record.hpp): as JSON for programs, and as
// the header and cells of a document table for people (which render.hpp then draws in every
// human format).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/record.hpp"

namespace membench::report {

/// The record as a JSON object, keys in the record's order, nested records as objects.
nlohmann::ordered_json record_json(const record& r);

/// The records as a JSON array.
nlohmann::ordered_json records_json(const std::vector<record>& rs);

/// The headings of the fields people see, in order: a table's header.
std::vector<std::string> record_header(const record& r);

/// The cells of the fields people see, in order: a table's row.
std::vector<cell> record_row(const record& r);

/// JSON text as membench-report writes it: indented, invalid UTF-8 replaced, a final newline.
std::string json_text(const nlohmann::ordered_json& j, int indent);

}  // namespace membench::report
