// profile's SVG: horizontal bars, one per headline, its interval a whisker, its ceiling a
// faint bar behind it, rows that are no finding hatched grey and named so. A pure function
// of the values (fixed number formatting), so golden tests compare bytes.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/html_text.hpp"
#include "profile/profile.hpp"

namespace membench::report {
namespace {

constexpr double width = 720, label_w = 190, bar_w = 250, row_h = 22, top = 6;

std::string num(double v) {
  const double a = std::abs(v);
  return fmt::format("{:.{}f}", v, a >= 100 ? 0 : a >= 10 ? 1 : 2);
}

std::string px(double v) { return fmt::format("{:.1f}", std::isfinite(v) ? v : 0.0); }

// The ceiling in the value's unit, where the bar has a share of one.
double ceiling_value(const profile_value& v) { return v.pct > 0 && std::isfinite(v.value) ? v.value * 100 / v.pct : NAN; }

double scale_top(const std::vector<profile_value>& bars) {
  double top_value = 0;
  for (const profile_value& v : bars) {
    for (double x : {v.value, v.high, ceiling_value(v)})
      if (std::isfinite(x)) top_value = std::max(top_value, x);
  }
  return top_value > 0 ? top_value : 1;
}

// What the bar says after it: its number, its share of its ceiling, or why it is no finding.
std::string bar_text(const profile_value& v, const std::string& unit, bool with_pct) {
  if (std::isnan(v.value)) return v.flag.empty() ? "no value" : v.flag;
  std::string t = fmt::format("{} {}", num(v.value), unit);
  if (with_pct) t += std::isnan(v.pct) ? " (no ceiling)" : fmt::format(" ({:.0f} % of {})", v.pct, v.ceiling);
  if (!v.flag.empty()) t += " [" + v.flag + "]";
  return t;
}

void one_bar(std::string& out, const profile_value& v, double y, double scale, const std::string& unit, bool with_pct) {
  using html::escape;
  const double x0 = label_w, mid = y + row_h / 2;
  fmt::format_to(html::out_it(out), "<g><title>{}</title>", escape(v.row.empty() ? v.label : v.row));
  fmt::format_to(html::out_it(out), "<text x=\"{}\" y=\"{}\" class=\"pl\">{}</text>", px(x0 - 6), px(mid + 4),
                 escape(html::ellipsize(v.label, 30)));
  if (const double c = ceiling_value(v); std::isfinite(c))
    fmt::format_to(html::out_it(out), "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"pc\"/>", px(x0),
                   px(y + 3), px(bar_w * c / scale), px(row_h - 6));
  if (std::isfinite(v.value))
    fmt::format_to(html::out_it(out), "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"{}\"/>", px(x0),
                   px(y + 5), px(bar_w * v.value / scale), px(row_h - 10), v.flag.empty() ? "pb" : "pf");
  if (std::isfinite(v.low) && std::isfinite(v.high))
    fmt::format_to(html::out_it(out), "<path d=\"M{} {}H{}M{} {}v6M{} {}v6\" class=\"pw\"/>", px(x0 + bar_w * v.low / scale),
                   px(mid), px(x0 + bar_w * v.high / scale), px(x0 + bar_w * v.low / scale), px(mid - 3),
                   px(x0 + bar_w * v.high / scale), px(mid - 3));
  const double text_x = x0 + bar_w * std::max({std::isfinite(v.high) ? v.high : 0.0, std::isfinite(v.value) ? v.value : 0.0,
                                                 std::isfinite(ceiling_value(v)) ? ceiling_value(v) : 0.0}) / scale;
  fmt::format_to(html::out_it(out), "<text x=\"{}\" y=\"{}\"{}>{}</text></g>\n", px(text_x + 6), px(mid + 4),
                 v.flag.empty() ? "" : " class=\"pn\"", escape(bar_text(v, unit, with_pct)));
}

// The bars' elements, `height` set to what they take.
std::string bars_body(const std::vector<profile_value>& bars, const std::string& unit, bool with_pct, double& height) {
  std::string out;
  const double scale = scale_top(bars);
  for (std::size_t i = 0; i < bars.size(); ++i) one_bar(out, bars[i], top + row_h * static_cast<double>(i), scale, unit, with_pct);
  height = top * 2 + row_h * static_cast<double>(bars.size());
  return out;
}

constexpr std::string_view svg_style =
    "<style>text{font:12px system-ui,-apple-system,\"Segoe UI\",Roboto,Arial,sans-serif;fill:#1f2328}"
    ".pl{text-anchor:end}.pn{fill:#9a6700}.pb{fill:#1f77b4}.pf{fill:#c8ccd1;stroke:#9a6700;stroke-dasharray:3 2}"
    ".pc{fill:#eaeef2;stroke:#afb8c1;stroke-width:.5}.pw{stroke:#1f2328;stroke-width:1.2;fill:none}"
    ".ph{font-weight:600;font-size:13px}</style>";

}  // namespace

std::string profile_bars_svg(const std::vector<profile_value>& bars, const std::string& unit, bool with_pct) {
  double height = 0;
  const std::string body = bars_body(bars, unit, with_pct, height);
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" "
                     "role=\"img\">{}\n{}</svg>\n",
                     px(width), px(height), px(width), px(height), svg_style, body);
}

std::string profile_summary_svg(const gpu_profile& g) {
  double h1 = 0, h2 = 0;
  const std::string ladder = bars_body(g.ladder, "ns", false, h1);
  const std::string levels = bars_body(g.levels, "GB/s", true, h2);
  const double total = 24 + h1 + 24 + h2;
  std::string out = fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
                                "height=\"{1}\" role=\"img\"><title>{2}</title>{3}\n",
                                px(width), px(total), html::escape(g.title), svg_style);
  fmt::format_to(html::out_it(out), "<text x=\"4\" y=\"16\" class=\"ph\">{}: latency per dependent load (ns, "
                 "interval whiskers)</text>\n<g transform=\"translate(0 24)\">{}</g>\n",
                 html::escape(g.identity.empty() ? g.title : g.identity.front().second), ladder);
  fmt::format_to(html::out_it(out), "<text x=\"4\" y=\"{}\" class=\"ph\">bandwidth by level (GB/s; grey: the "
                 "level's ceiling)</text>\n<g transform=\"translate(0 {})\">{}</g>\n</svg>\n",
                 px(24 + h1 + 16), px(24 + h1 + 24), levels);
  return out;
}

}  // namespace membench::report
