#include "render.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "escape.hpp"

namespace membench::report {
namespace {

// Display width of UTF-8 text: count the bytes that start a code point.
std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

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

std::string render_markdown(const document& d) {
  std::string out = fmt::format("## {}\n\n", markdown_text(d.title));
  for (const auto& n : d.notes) out += fmt::format("- {}\n", markdown_text(n));
  for (const auto& t : d.tables) {
    out += fmt::format("\n### {}\n\n{}\n\n", markdown_text(t.title), markdown_text(t.unit));
    std::string head = "|", rule = "|";
    for (std::size_t i = 0; i < t.header.size(); ++i) {
      head += fmt::format(" {} |", markdown_text(t.header[i]));
      rule += i == 0 ? "---|" : "---:|";
    }
    out += head + "\n" + rule + "\n";
    for (const auto& r : t.rows) {
      std::string line = "|";
      for (const auto& c : r) {
        const std::string text = markdown_text(c.text);
        line += c.mood == tone::bad ? fmt::format(" **{}** |", text) : fmt::format(" {} |", text);
      }
      out += line + "\n";
    }
  }
  return out;
}

std::string render_csv(const document& d) {
  std::string out;
  for (const auto& t : d.tables) {
    out += fmt::format("# {} [{}]\n", visible_controls(t.title), visible_controls(t.unit));
    std::string line;
    for (std::size_t i = 0; i < t.header.size(); ++i) {
      if (i > 0) line += ',';
      line += csv_text(t.header[i]);
    }
    out += line + "\n";
    for (const auto& r : t.rows) {
      line.clear();
      for (std::size_t i = 0; i < r.size(); ++i) {
        if (i > 0) line += ',';
        line += r[i].numeric() ? fmt::format("{}", r[i].value) : csv_text(r[i].text);
      }
      out += line + "\n";
    }
    out += "\n";
  }
  return out;
}

std::string render(const document& d, format f, bool colour) {
  switch (f) {
    case format::terminal: return render_terminal(d, colour);
    case format::markdown: return render_markdown(d);
    case format::csv: return render_csv(d);
    case format::html: return render_html(d);
  }
  return {};
}

}  // namespace membench::report
