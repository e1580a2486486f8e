#include "escape.hpp"

#include <fmt/format.h>

namespace membench::report {
namespace {

bool is_c1_lead(std::string_view s, std::size_t i) {
  // U+0080..U+009F are 0xC2 0x80..0x9F in UTF-8.
  return static_cast<unsigned char>(s[i]) == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
         static_cast<unsigned char>(s[i + 1]) <= 0x9F;
}

void append_control(std::string& out, unsigned char c) {
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\t': out += "\\t"; return;
    case '\r': out += "\\r"; return;
    default: out += fmt::format("\\x{:02x}", c);
  }
}

}  // namespace

std::string visible_controls(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) {
      append_control(out, c);
    } else if (is_c1_lead(s, i)) {
      out += fmt::format("\\u{{{:02x}}}", static_cast<unsigned char>(s[i + 1]));
      ++i;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string terminal_text(std::string_view s) { return visible_controls(s); }

std::string markdown_text(std::string_view s) {
  std::string out;
  for (char c : visible_controls(s)) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '|':
      case '\\':
      case '`': out += '\\'; out += c; break;
      default: out += c;
    }
  }
  return out;
}

std::string csv_text(std::string_view s) {
  std::string cell = visible_controls(s);
  // A lone "-" (a table's "no value") is no formula; a spreadsheet shows it as text.
  if (cell != "-" && !cell.empty() && (cell[0] == '=' || cell[0] == '+' || cell[0] == '-' || cell[0] == '@'))
    cell = "'" + cell;
  if (cell.find_first_of(",\"") == std::string::npos) return cell;
  std::string out = "\"";
  for (char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace membench::report
