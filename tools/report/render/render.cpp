#include "render/render.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "core/escape.hpp"

namespace membench::report {
namespace {

// Display width of UTF-8 text: its code points.
std::size_t width(const std::string& s) { return code_points(s); }

std::string pad(const std::string& s, std::size_t w, bool right) {
  const std::string fill(w > width(s) ? w - width(s) : 0, ' ');
  return right ? fill + s : s + fill;
}

const char* ansi(tone t) {
  switch (t) {
    case tone::good: return "\033[32m";
    case tone::bad: return "\033[31m";
    case tone::muted: return "\033[2m";
    case tone::plain: return "";
  }
  return "";
}

}  // namespace

std::string render_terminal(const document& d, bool colour) {
  std::string out = fmt::format("{}\n", terminal_text(d.title));
  for (const auto& n : d.notes) out += fmt::format("  {}\n", terminal_text(n));
  for (const auto& t : d.tables) {
    out += fmt::format("\n{}  [{}]\n", terminal_text(t.title), terminal_text(t.unit));
    std::vector<std::string> header;
    for (const auto& h : t.header) header.push_back(terminal_text(h));
    std::vector<std::vector<std::string>> rows;
    for (const auto& r : t.rows) {
      rows.emplace_back();
      for (std::size_t i = 0; i < r.size() && i < header.size(); ++i) rows.back().push_back(terminal_text(r[i].text));
    }
    std::vector<std::size_t> w(header.size(), 0);
    for (std::size_t i = 0; i < header.size(); ++i) w[i] = width(header[i]);
    for (const auto& r : rows)
      for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], width(r[i]));
    std::string line;
    for (std::size_t i = 0; i < header.size(); ++i) {
      if (i > 0) line += "  ";
      line += pad(header[i], w[i], i > 0);
    }
    out += line + "\n";
    for (std::size_t k = 0; k < rows.size(); ++k) {
      line.clear();
      for (std::size_t i = 0; i < rows[k].size(); ++i) {
        const cell& c = t.rows[k][i];
        const bool paint = colour && c.mood != tone::plain;
        if (i > 0) line += "  ";
        if (paint) line += ansi(c.mood);
        line += pad(rows[k][i], w[i], c.numeric() || i > 0);
        if (paint) line += "\033[0m";
      }
      out += line + "\n";
    }
  }
  return out;
}

namespace {

// An upper bound of the bytes the document's cells take (numbers written in full), to
// reserve the output once: a string grown by doubling holds one and a half times its text.
std::size_t cells_size(const document& d) {
  std::size_t n = 0;
  for (const auto& t : d.tables) {
    n += t.title.size() + t.unit.size() + 64;
    for (const auto& h : t.header) n += h.size() + 8;
    for (const auto& r : t.rows) {
      for (const auto& c : r) n += c.text.size() + 32;
    }
  }
  return n;
}

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7F || u == 0xC2;  // C0, DEL, and the lead byte of C1 (and of more: then escaped anyway)
}

// Appends text with its control characters visible: as it is where it has none.
void append_visible(std::string& out, std::string_view s) {
  if (std::none_of(s.begin(), s.end(), is_control)) {
    out += s;
  } else {
    out += visible_controls(s);
  }
}

// Appends a cell's text for CSV: as it is where nothing needs escaping or quoting.
void append_csv(std::string& out, std::string_view s) {
  const bool formula = !s.empty() && s != "-" && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@');
  const bool plain = !formula && std::none_of(s.begin(), s.end(), [](char c) { return is_control(c) || c == ',' || c == '"'; });
  if (plain) {
    out += s;
  } else {
    out += csv_text(s);
  }
}

}  // namespace

std::string render_markdown(const document& d) {
  std::string out;
  out.reserve(cells_size(d));
  fmt::format_to(std::back_inserter(out), "## {}\n\n", markdown_text(d.title));
  for (const auto& n : d.notes) fmt::format_to(std::back_inserter(out), "- {}\n", markdown_text(n));
  for (const auto& t : d.tables) {
    fmt::format_to(std::back_inserter(out), "\n### {}\n\n{}\n\n", markdown_text(t.title), markdown_text(t.unit));
    std::string rule = "|";
    out += '|';
    for (std::size_t i = 0; i < t.header.size(); ++i) {
      out += ' ';
      append_markdown_text(out, t.header[i]);
      out += " |";
      rule += i == 0 ? "---|" : "---:|";
    }
    out += '\n';
    out += rule;
    out += '\n';
    for (const auto& r : t.rows) {
      out += '|';
      for (const auto& c : r) {
        const bool bold = c.mood == tone::bad;
        out += bold ? " **" : " ";
        append_markdown_text(out, c.text);
        out += bold ? "** |" : " |";
      }
      out += '\n';
    }
  }
  return out;
}

std::string render_csv(const document& d) {
  std::string out;
  out.reserve(cells_size(d));
  for (const auto& t : d.tables) {
    out += "# ";
    append_visible(out, t.title);
    out += " [";
    append_visible(out, t.unit);
    out += "]\n";
    for (std::size_t i = 0; i < t.header.size(); ++i) {
      if (i > 0) out += ',';
      append_csv(out, t.header[i]);
    }
    out += '\n';
    for (const auto& r : t.rows) {
      for (std::size_t i = 0; i < r.size(); ++i) {
        if (i > 0) out += ',';
        if (r[i].numeric()) {
          fmt::format_to(std::back_inserter(out), FMT_COMPILE("{}"), r[i].value);
        } else {
          append_csv(out, r[i].text);
        }
      }
      out += '\n';
    }
    out += '\n';
  }
  return out;
}

std::string render(const document& d, format f, bool colour) {
  switch (f) {
    case format::terminal: return render_terminal(d, colour);
    case format::markdown: return render_markdown(d);
    case format::csv: return render_csv(d);
    case format::html: return render_html(d);
    case format::json: return render_json(d);
  }
  return {};
}

}  // namespace membench::report
