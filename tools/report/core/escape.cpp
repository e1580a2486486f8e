#include "core/escape.hpp"

#include <fmt/format.h>

namespace membench::report {
namespace {

unsigned char byte(std::string_view s, std::size_t i) { return static_cast<unsigned char>(s[i]); }

// The bytes of the invisible control that starts at s[i], 0 for none: a C1 control
// (U+0080..U+009F: 0xC2 0x80..0x9F) or a bidirectional one (U+200E, U+200F, U+202A..U+202E,
// U+2066..U+2069: 0xE2 0x80/0x81 ...), which reorders what follows it on a terminal or a page.
std::size_t wide_control(std::string_view s, std::size_t i) {
  if (byte(s, i) == 0xC2 && i + 1 < s.size() && byte(s, i + 1) >= 0x80 && byte(s, i + 1) <= 0x9F) return 2;
  if (byte(s, i) != 0xE2 || i + 2 >= s.size()) return 0;
  const unsigned char b1 = byte(s, i + 1), b2 = byte(s, i + 2);
  const bool marks = b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (b2 >= 0xAA && b2 <= 0xAE));
  const bool isolates = b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9;
  return marks || isolates ? 3 : 0;
}
bool is_c1_lead(std::string_view s, std::size_t i) { return wide_control(s, i) != 0; }

bool is_c0_or_del(unsigned char c) { return c < 0x20 || c == 0x7F; }

void append_control(std::string& out, unsigned char c) {
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\t': out += "\\t"; return;
    case '\r': out += "\\r"; return;
    default: out += fmt::format("\\x{:02x}", c);
  }
}

// The control at s[i] (wide_control's bytes) as visible_controls writes it: \u{85}, \u{202e}.
// Returns how many bytes it took.
std::size_t append_c1(std::string& out, std::string_view s, std::size_t i) {
  const std::size_t n = wide_control(s, i);
  const unsigned point = n == 2 ? byte(s, i + 1)
                                : ((byte(s, i) & 0x0Fu) << 12) | ((byte(s, i + 1) & 0x3Fu) << 6) | (byte(s, i + 2) & 0x3Fu);
  out += fmt::format("\\u{{{:02x}}}", point);
  return n;
}

bool word_byte(std::string_view s, std::size_t i) {
  const unsigned char c = byte(s, i);
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Whether Markdown needs s[i] escaped: markup characters, and control characters.
bool markdown_special(std::string_view s, std::size_t i) {
  switch (s[i]) {
    case '<': case '>': case '&': case '\\': case '`': case '|':
    case '[': case ']': case '!': case '*': case '~': return true;
    case '_': return i == 0 || i + 1 == s.size() || !word_byte(s, i - 1) || !word_byte(s, i + 1);
    default: return is_c0_or_del(byte(s, i)) || is_c1_lead(s, i);
  }
}

// Bytes of the UTF-8 sequence that starts at s[i]: 1 for ASCII and for a byte that starts
// no complete sequence (a stray continuation byte, a sequence cut short).
std::size_t sequence_length(std::string_view s, std::size_t i) {
  const unsigned char c = byte(s, i);
  const std::size_t n = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  if (i + n > s.size()) return 1;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(s, i + k) & 0xC0) != 0x80) return 1;
  }
  return n;
}

}  // namespace

std::size_t utf8_sequence(std::string_view s, std::size_t i, char32_t* point) {
  const unsigned char c = byte(s, i);
  const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(s, i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(s, i + k) & 0x3Fu);
  }
  constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  if (point != nullptr) *point = cp;
  return n;
}

std::string visible_controls(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (is_c0_or_del(byte(s, i))) {
      append_control(out, byte(s, i));
    } else if (is_c1_lead(s, i)) {
      i += append_c1(out, s, i) - 1;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string terminal_text(std::string_view s) { return visible_controls(s); }

void append_markdown_text(std::string& out, std::string_view s) {
  std::size_t plain_from = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!markdown_special(s, i)) continue;
    out.append(s.substr(plain_from, i - plain_from));
    const unsigned char c = byte(s, i);
    if (c == '<' || c == '>' || c == '&') {
      out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : "&amp;";
    } else if (is_c0_or_del(c)) {
      out += '\\';  // the visible escape's own backslash, so that Markdown shows it
      append_control(out, c);
    } else if (is_c1_lead(s, i)) {
      out += '\\';
      i += append_c1(out, s, i) - 1;
    } else {
      out += '\\';
      out += s[i];
    }
    plain_from = i + 1;
  }
  out.append(s.substr(plain_from));
}

std::string markdown_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_markdown_text(out, s);
  return out;
}

std::string markdown_code(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '`' || s[i] == '|' || s[i] == '\\' || is_c0_or_del(byte(s, i)) || is_c1_lead(s, i)) return markdown_text(s);
  }
  return s.empty() ? std::string() : fmt::format("`{}`", s);
}

std::string markdown_link_target(std::string_view s) {
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    const bool plain = (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || c == '-' ||
                       c == '.' || c == '_' || c == '~' || c == '/';
    out += plain ? std::string(1, c) : fmt::format("%{:02X}", u);
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

std::size_t code_points(std::string_view s) {
  std::size_t points = 0;
  for (std::size_t i = 0; i < s.size(); i += sequence_length(s, i)) ++points;
  return points;
}

std::string_view utf8_prefix(std::string_view s, std::size_t max_points) {
  std::size_t i = 0;
  for (std::size_t points = 0; i < s.size() && points < max_points; ++points) i += sequence_length(s, i);
  return s.substr(0, i);
}

std::string ellipsize(std::string_view s, std::size_t max_points) {
  if (code_points(s) <= max_points) return std::string(s);
  if (max_points == 0) return {};
  return std::string(utf8_prefix(s, max_points - 1)) + "\u2026";
}

}  // namespace membench::report
