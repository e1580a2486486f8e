// HTML renderer: one self-contained file (inline CSS, inline SVG charts, no scripts, nothing
// fetched) that opens offline and can be attached to a CI run or mailed as-is. Output is a
// pure function of the document (no clocks, no locale, fixed number formatting) so golden
// tests can compare bytes.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/html_text.hpp"
#include "render/render.hpp"

namespace membench::report {
namespace html {

// Everything shown comes from user files (benchmark names, JSON context), so every string
// goes through here, in element content and attribute values alike.
std::string escape(std::string_view raw) {
  // Control characters from the inputs (ESC, BEL, C1) are shown, not passed: `cat page.html`
  // would run them. Line breaks and tabs stay what they are.
  std::string shown;
  for (std::size_t from = 0; from <= raw.size();) {
    const std::size_t at = std::min(raw.find_first_of("\n\t", from), raw.size());
    shown += visible_controls(raw.substr(from, at - from));
    if (at < raw.size()) shown += raw[at];
    from = at + 1;
  }
  const std::string_view s = shown;
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

const char* tone_class(tone t) {
  switch (t) {
    case tone::good: return "good";
    case tone::bad: return "bad";
    case tone::muted: return "muted";
    case tone::plain: return "";
  }
  return "";
}

}  // namespace html

namespace {

using namespace html;

// ---------------------------------------------------------------------------------------
// Page

constexpr std::string_view style = R"(<style>
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1f2328;background:#fff;margin:24px auto;padding:0 24px;max-width:1600px}
h1{font-size:22px;margin:0 0 8px}
h2{font-size:17px;margin:32px 0 8px;padding-bottom:4px;border-bottom:1px solid #d0d7de;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-weight:600;overflow-wrap:anywhere}
ul.notes{margin:0 0 16px;padding-left:20px;color:#59636e}
.body{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
caption{caption-side:top;text-align:left;font-size:12px;color:#59636e;padding-bottom:4px}
th,td{padding:3px 10px;border-bottom:1px solid #eaeef2;text-align:left;white-space:nowrap}
th{background:#f6f8fa;border-bottom:1px solid #d0d7de;font-weight:600}
tbody tr:nth-child(even){background:#fafbfc}
.num{text-align:right}
.good{color:#1a7f37;font-weight:600}
.bad{color:#cf222e;font-weight:600}
.muted{color:#8c959f}
figure.chart{margin:0;flex:0 1 800px;max-width:100%}
figure.chart svg{width:100%;height:auto;display:block}
svg text{font:11px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;fill:#1f2328}
svg .grid{stroke:#e6e9ed;stroke-width:1}
svg .tick{stroke:#57606a;stroke-width:1}
svg .frame{fill:none;stroke:#57606a;stroke-width:1}
svg .yt{text-anchor:end}
svg .xt,svg .xl,svg .yl,svg .nodata{text-anchor:middle}
svg .xl,svg .yl{font-size:12px;font-weight:600}
svg .nodata{fill:#8c959f;font-size:14px}
svg text.muted{fill:#8c959f}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}figure.chart{break-inside:avoid}}
</style>
)";

void append_table(std::string& out, const table& t) {
  // A column that holds numbers is right-aligned as a whole (header and text cells such as
  // "error" included), so the digits line up.
  std::size_t cols = t.header.size();
  for (const auto& r : t.rows) cols = std::max(cols, r.size());
  std::vector<bool> numeric_col(cols, false);
  for (const auto& r : t.rows)
    for (std::size_t i = 0; i < r.size(); ++i)
      if (r[i].numeric()) numeric_col[i] = true;

  fmt::format_to(out_it(out), "<section>\n<h2>{}</h2>\n<div class=\"body\">\n<div class=\"scroll\"><table>\n",
                 escape(t.title));
  if (!t.unit.empty()) fmt::format_to(out_it(out), "<caption>{}</caption>\n", escape(t.unit));
  out += "<thead><tr>";
  for (std::size_t i = 0; i < t.header.size(); ++i)
    fmt::format_to(out_it(out), "<th{}>{}</th>", numeric_col[i] ? " class=\"num\"" : "", escape(t.header[i]));
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& r : t.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < cols; ++i) {
      if (i >= r.size()) {
        out += "<td></td>";  // ragged rows still fill the grid
        continue;
      }
      const cell& c = r[i];
      const std::string cls = fmt::format("{}{}{}", numeric_col[i] ? "num" : "",
                                          numeric_col[i] && c.mood != tone::plain ? " " : "", tone_class(c.mood));
      fmt::format_to(out_it(out), "<td{}{}>{}</td>", cls.empty() ? "" : " class=\"" + cls + "\"", heat_style(c.heat, t.heat && t.heat->diverging),
                     escape(c.text));
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table>";
  if (t.heat) append_heat_legend(out, *t.heat);  // under the table it explains
  out += "</div>\n";
  for (const auto& c : t.charts) append_chart(out, c);
  out += "</div>\n</section>\n";
}

}  // namespace

std::string render_html(const document& d) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  fmt::format_to(out_it(out), "<title>{}</title>\n", escape(d.title.empty() ? "membench report" : d.title));
  out += style;
  if (std::any_of(d.tables.begin(), d.tables.end(), [](const table& t) { return t.heat.has_value(); })) out += heat_css;
  out += "</head>\n<body>\n";
  if (!d.title.empty()) fmt::format_to(out_it(out), "<h1>{}</h1>\n", escape(d.title));
  if (!d.notes.empty()) {
    out += "<ul class=\"notes\">\n";
    for (const auto& n : d.notes) fmt::format_to(out_it(out), "<li>{}</li>\n", escape(n));
    out += "</ul>\n";
  }
  for (const auto& t : d.tables) append_table(out, t);
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace membench::report
