// The document as JSON: the same record the terminal, Markdown, CSV and HTML renderers draw,
// for programs, so that a view's output is declared once (its document) and every format is
// rendered from it.
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/escape.hpp"
#include "render/render.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;

const char* tone_name(tone t) {
  switch (t) {
    case tone::good: return "good";
    case tone::bad: return "bad";
    case tone::muted: return "muted";
    case tone::plain: break;
  }
  return "plain";
}

// Text from the inputs is data in every format: a control character (a commit's ESC) shown as
// `\x1b` and the like, never handed on to the program that decodes the document.
std::string shown(std::string_view s) { return visible_controls(s); }

std::vector<std::string> shown(const std::vector<std::string>& texts) {
  std::vector<std::string> out;
  out.reserve(texts.size());
  for (const std::string& t : texts) out.push_back(shown(t));
  return out;
}

// A cell: its text as shown, its number where it has one (full precision), and its tone
// where it is news.
json cell_record(const cell& c) {
  json out = {{"text", shown(c.text)}};
  if (c.numeric() && std::isfinite(c.value)) out["value"] = c.value;
  if (c.mood != tone::plain) out["tone"] = tone_name(c.mood);
  return out;
}

json table_record(const table& t) {
  json rows = json::array();
  for (const auto& r : t.rows) {
    json cells = json::array();
    for (const cell& c : r) cells.push_back(cell_record(c));
    rows.push_back(std::move(cells));
  }
  return {{"title", shown(t.title)}, {"unit", shown(t.unit)}, {"header", shown(t.header)}, {"rows", std::move(rows)}};
}

}  // namespace

std::string render_json(const document& d) {
  json tables = json::array();
  for (const auto& t : d.tables) tables.push_back(table_record(t));
  const json out = {{"format", "membench-report-document"}, {"version", 1}, {"title", shown(d.title)},
                    {"notes", shown(d.notes)}, {"tables", std::move(tables)}};
  return out.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace membench::report
