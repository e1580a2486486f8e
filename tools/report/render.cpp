#include "render.hpp"

#include <algorithm>

#include <fmt/format.h>

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

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    // GitHub does not italicise intra-word underscores, so names stay readable unescaped.
    if (c == '|' || c == '\\' || c == '`') out += '\\';
    out += c;
  }
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string render_terminal(const document& d, bool colour) {
  std::string out = fmt::format("{}\n", d.title);
  for (const auto& n : d.notes) out += fmt::format("  {}\n", n);
  for (const auto& t : d.tables) {
    out += fmt::format("\n{}  [{}]\n", t.title, t.unit);
    std::vector<std::size_t> w(t.header.size(), 0);
    for (std::size_t i = 0; i < t.header.size(); ++i) w[i] = width(t.header[i]);
    for (const auto& r : t.rows)
      for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) w[i] = std::max(w[i], width(r[i].text));
    std::string line;
    for (std::size_t i = 0; i < t.header.size(); ++i) {
      if (i > 0) line += "  ";
      line += pad(t.header[i], w[i], i > 0);
    }
    out += line + "\n";
    for (const auto& r : t.rows) {
      line.clear();
      for (std::size_t i = 0; i < r.size() && i < w.size(); ++i) {
        const std::string text = pad(r[i].text, w[i], r[i].numeric() || i > 0);
        const bool paint = colour && r[i].mood != tone::plain;
        if (i > 0) line += "  ";
        if (paint) line += ansi(r[i].mood);
        line += text;
        if (paint) line += "\033[0m";
      }
      out += line + "\n";
    }
  }
  return out;
}

std::string render_markdown(const document& d) {
  std::string out = fmt::format("## {}\n\n", md_escape(d.title));
  for (const auto& n : d.notes) out += fmt::format("- {}\n", md_escape(n));
  for (const auto& t : d.tables) {
    out += fmt::format("\n### {}\n\n{}\n\n", md_escape(t.title), md_escape(t.unit));
    std::string head = "|", rule = "|";
    for (std::size_t i = 0; i < t.header.size(); ++i) {
      head += fmt::format(" {} |", md_escape(t.header[i]));
      rule += i == 0 ? "---|" : "---:|";
    }
    out += head + "\n" + rule + "\n";
    for (const auto& r : t.rows) {
      std::string line = "|";
      for (const auto& c : r) {
        const std::string text = md_escape(c.text);
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
    out += fmt::format("# {} [{}]\n", t.title, t.unit);
    std::string line;
    for (std::size_t i = 0; i < t.header.size(); ++i) {
      if (i > 0) line += ',';
      line += csv_field(t.header[i]);
    }
    out += line + "\n";
    for (const auto& r : t.rows) {
      line.clear();
      for (std::size_t i = 0; i < r.size(); ++i) {
        if (i > 0) line += ',';
        line += csv_field(r[i].numeric() ? fmt::format("{}", r[i].value) : r[i].text);
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
