// The JSON reader's scalars as the reader gives them to the rows: a number's value (an
// integer where its text is one of at most 64 bits, else the nearest double, as
// nlohmann_json and strtod read it) and the check that a string is UTF-8. RapidJSON checks
// the grammar and hands over each number's text: converting it here keeps every read (the
// whole one and the split one) to one conversion.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace membench::report {

struct json_number {
  double value = 0;
  bool integral = false;      ///< an integer that fits int64: `integer`
  std::int64_t integer = 0;
  bool integer_text = false;  ///< written as an integer of at most 64 bits, signed or not
};

/// `text` is a JSON number (its grammar checked); false when it is beyond a double's range.
bool read_number(std::string_view text, json_number& n);

/// The number as minified JSON, as the context keeps a value: an integer's digits, any
/// other number as written.
std::string number_text(std::string_view text, const json_number& n);

/// Whether `s` is UTF-8: shortest forms only, no surrogates, nothing past U+10FFFF.
bool valid_utf8(std::string_view s);

}  // namespace membench::report
