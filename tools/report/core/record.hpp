// A command's output declared once: a record of named fields. Each field is a value for
// programs (JSON) and, where it has a heading, a cell for people (the table the terminal,
// Markdown, CSV and HTML renderers draw). A command writes one function that fills a record
// per item; the renderers (render/render_record.cpp) draw every format from it, so a new
// field is one line in one place.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/document.hpp"

namespace membench::report {

/// What a field holds for programs: null (unknown), a flag, a count, a number (NaN or an
/// infinity is written as null), a text or a list of texts.
using field_value = std::variant<std::monostate, bool, std::int64_t, double, std::string, std::vector<std::string>>;

struct field {
  std::string key;           ///< the JSON key
  field_value value;         ///< the leaf value, when `fields` is empty
  std::vector<field> fields; ///< a nested record (JSON object) instead of a leaf
  std::string heading;       ///< the table column it fills; empty: machine formats only
  cell shown;                ///< what people see in that column
};

/// An ordered record of fields; the order is the JSON's key order and the table's columns.
struct record {
  std::vector<field> fields;

  /// A field for programs only.
  record& add(std::string key, field_value v) {
    fields.push_back({std::move(key), std::move(v), {}, {}, {}});
    return *this;
  }
  /// A text for programs only (a C string is a text, never a flag).
  record& add(std::string key, const char* text) { return add(std::move(key), field_value(std::string(text))); }
  /// A nested record for programs only.
  record& add(std::string key, record nested) {
    fields.push_back({std::move(key), {}, std::move(nested.fields), {}, {}});
    return *this;
  }
  /// A field that is also a column of the table, shown as `shown`.
  record& show(std::string key, field_value v, std::string heading, cell shown) {
    fields.push_back({std::move(key), std::move(v), {}, std::move(heading), std::move(shown)});
    return *this;
  }
  /// A text that is also a column of the table.
  record& show(std::string key, const char* text, std::string heading, cell shown) {
    return show(std::move(key), field_value(std::string(text)), std::move(heading), std::move(shown));
  }
  /// A nested record that is also a column of the table, shown as `shown`.
  record& show(std::string key, record nested, std::string heading, cell shown) {
    fields.push_back({std::move(key), {}, std::move(nested.fields), std::move(heading), std::move(shown)});
    return *this;
  }
};

/// A number as a field value: NaN and infinities are unknown (null).
inline field_value number_value(double x) { return std::isfinite(x) ? field_value(x) : field_value(); }

/// A count as a field value (an integer in JSON, never 3.0).
template <class Integer>
field_value count_value(Integer n) {
  return field_value(static_cast<std::int64_t>(n));
}

}  // namespace membench::report
