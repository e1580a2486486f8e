// profile's builds section: each headline figure per build with its interval, and the ratios
// to the base build as a small heatmap. A ratio is shaded only where compare's test calls the
// difference (green faster, red slower, as builds colours them, and the cell says which in
// words); an unsure one is outlined and says so; the rest stay white however far apart. Fixed
// number formatting: golden tests compare bytes.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/html_text.hpp"
#include "profile/profile.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

using html::escape;
using html::out_it;

constexpr double label_w = 240, cell_w = 120, row_h = 20, head_h = 22;

std::string px(double v) { return fmt::format("{:.1f}", std::isfinite(v) ? v : 0.0); }

// Light to dark with the size of the change: 1.0x light, 2x (or 1/2) and beyond the darkest.
std::string shade(tone mood, double ratio) {
  const double x = std::clamp(std::abs(std::log2(ratio > 0 ? ratio : 1.0)), 0.0, 1.0);
  const auto mix = [x](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * (0.25 + 0.75 * x))); };
  // ColorBrewer's Greens and Reds, from their lightest to their darkest.
  if (mood == tone::good) return fmt::format("#{:02x}{:02x}{:02x}", mix(247, 0), mix(252, 109), mix(245, 44));
  return fmt::format("#{:02x}{:02x}{:02x}", mix(255, 165), mix(245, 15), mix(240, 21));
}

bool dark(double ratio) { return std::abs(std::log2(ratio > 0 ? ratio : 1.0)) > 0.55; }

void heat_cell(std::string& out, const cell& c, double x, double y) {
  const bool called = c.mood == tone::good || c.mood == tone::bad;
  const bool unsure = c.text.find("unsure") != std::string::npos;
  const std::string fill = called ? shade(c.mood, c.value) : std::string("#ffffff");
  fmt::format_to(out_it(out), "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" class=\"{}\"/>", px(x),
                 px(y), px(cell_w - 2), px(row_h - 2), fill, unsure ? "bu" : "bc");
  fmt::format_to(out_it(out), "<text x=\"{}\" y=\"{}\" class=\"bt{}\">{}</text>\n", px(x + (cell_w - 2) / 2),
                 px(y + row_h - 6), called && dark(c.value) ? " bw" : unsure ? " bn" : "",
                 escape(c.mood == tone::good ? c.text + " faster" : c.mood == tone::bad ? c.text + " slower" : c.text));
}

std::string value_text(const profile_value& v) {
  if (std::isnan(v.value)) return v.flag.empty() ? "-" : v.flag;
  std::string t = format_value(v.value);
  if (std::isfinite(v.low) && std::isfinite(v.high))
    t += fmt::format(" ({} to {})", format_value(v.low), format_value(v.high));
  return v.flag.empty() ? t : fmt::format("{} [{}]", t, v.flag);
}

std::string md_ratio(const cell& c) {
  const std::string text = markdown_text(c.text);
  if (c.mood == tone::good) return fmt::format("**{} faster**", text);
  if (c.mood == tone::bad) return fmt::format("**{} slower**", text);
  return c.text.find("unsure") != std::string::npos ? fmt::format("_{}_", text) : text;
}

std::string ratio_heading(const build_comparison& b, std::size_t k) { return fmt::format("{}/{}", b.builds[k], b.builds[0]); }

}  // namespace

std::string profile_builds_svg(const build_comparison& b) {
  const std::size_t cols = b.builds.size() > 1 ? b.builds.size() - 1 : 0;
  const double w = label_w + cell_w * static_cast<double>(cols) + 8;
  const double h = head_h + row_h * static_cast<double>(b.rows.size()) + 6;
  std::string out = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
                                "height=\"{1}\" role=\"img\"><title>build ratios</title>", px(w), px(h));
  out += "<style>text{font:12px system-ui,-apple-system,\"Segoe UI\",Roboto,Arial,sans-serif;fill:#1f2328}"
         ".bl{text-anchor:end}.bh{font-weight:600;text-anchor:middle}.bt{text-anchor:middle}.bw{fill:#fff}"
         ".bn{fill:#9a6700}.bc{stroke:#d0d7de}.bu{stroke:#9a6700;stroke-dasharray:3 2}</style>\n";
  for (std::size_t k = 0; k < cols; ++k)
    fmt::format_to(out_it(out), "<text x=\"{}\" y=\"15\" class=\"bh\">{}</text>\n",
                   px(label_w + cell_w * static_cast<double>(k) + cell_w / 2), escape(ratio_heading(b, k + 1)));
  for (std::size_t i = 0; i < b.rows.size(); ++i) {
    const build_row& r = b.rows[i];
    const double y = head_h + row_h * static_cast<double>(i);
    const std::string label = r.values.empty() ? std::string() : r.values.front().label;
    fmt::format_to(out_it(out), "<text x=\"{}\" y=\"{}\" class=\"bl\">{} ({})</text>\n", px(label_w - 8),
                   px(y + row_h - 6), escape(html::ellipsize(label, 30)), escape(r.unit));
    for (std::size_t k = 0; k < r.ratios.size(); ++k)
      heat_cell(out, r.ratios[k], label_w + cell_w * static_cast<double>(k), y);
  }
  return out + "</svg>\n";
}

std::string profile_builds_markdown(const build_comparison& b) {
  std::string out = "| figure | unit |";
  for (const std::string& name : b.builds) fmt::format_to(out_it(out), " {} |", markdown_text(name));
  for (std::size_t k = 1; k < b.builds.size(); ++k)
    fmt::format_to(out_it(out), " {} |", markdown_text(ratio_heading(b, k)));
  out += "\n|---|---|";
  for (std::size_t k = 0; k < 2 * b.builds.size() - 1; ++k) out += "---:|";
  out += "\n";
  for (const build_row& r : b.rows) {
    fmt::format_to(out_it(out), "| {} | {} |", markdown_text(r.values.front().label), markdown_text(r.unit));
    for (const profile_value& v : r.values) {
      const std::string text = markdown_text(value_text(v));
      fmt::format_to(out_it(out), " {} |", v.flag.empty() ? text : fmt::format("_{}_", text));
    }
    for (const cell& c : r.ratios) fmt::format_to(out_it(out), " {} |", md_ratio(c));
    out += "\n";
  }
  return out;
}

std::string profile_builds_html(const build_comparison& b) {
  std::string out = "<table class=\"builds\"><thead><tr><th>figure</th><th>unit</th>";
  for (const std::string& name : b.builds) fmt::format_to(out_it(out), "<th>{}</th>", escape(name));
  out += "</tr></thead><tbody>\n";
  for (const build_row& r : b.rows) {
    fmt::format_to(out_it(out), "<tr><th>{}</th><td>{}</td>", escape(r.values.front().label), escape(r.unit));
    for (const profile_value& v : r.values)
      fmt::format_to(out_it(out), "<td{}>{}</td>", v.flag.empty() ? "" : " class=\"unsure\"", escape(value_text(v)));
    out += "</tr>\n";
  }
  out += "</tbody></table>\n<figure>";
  return out + profile_builds_svg(b) + "</figure>\n";
}

}  // namespace membench::report
