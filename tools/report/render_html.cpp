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

#include "render.hpp"

namespace membench::report {
namespace {

// ---------------------------------------------------------------------------------------
// Text

// Everything shown comes from user files (benchmark names, JSON context), so every string
// goes through here, in element content and attribute values alike.
std::string escape(std::string_view s) {
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

// Code points, not bytes: legend widths and truncation must not split a UTF-8 sequence.
std::size_t code_points(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string ellipsize(std::string_view s, std::size_t max_points) {
  if (code_points(s) <= max_points) return std::string(s);
  std::size_t points = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((s[i] & 0xC0) != 0x80 && points++ == max_points - 1) break;
  }
  return std::string(s.substr(0, i)) + "\u2026";
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

// ---------------------------------------------------------------------------------------
// Numbers

// SVG coordinates: one decimal is sub-pixel at any sane zoom; never NaN/inf or "-0".
std::string px(double v) {
  if (!std::isfinite(v)) v = 0;
  double r = std::round(v * 10) / 10;
  if (r == 0) r = 0;
  std::string s = fmt::format("{:.1f}", r);
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

// Decimals needed to print multiples of `step` exactly (0.25 -> 2, 2.5 -> 1, 50 -> 0).
int decimals_for(double step) {
  for (int d = 0; d < 9; ++d) {
    const double scaled = step * std::pow(10.0, d);
    if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) return d;
  }
  return 9;
}

// Linear-axis labels: plain decimals, SI suffixes only once numbers get too long to read.
std::string linear_label(double v, double step, double magnitude) {
  if (v == 0) return "0";  // not "0G", not "-0.0"
  static constexpr std::array<std::pair<double, const char*>, 3> si{{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}}};
  double scale = 1;
  const char* suffix = "";
  for (auto [limit, name] : si) {
    if (magnitude >= limit) {
      scale = limit;
      suffix = name;
      break;
    }
  }
  return fmt::format("{:.{}f}{}", v / scale, decimals_for(step / scale), suffix);
}

// Log-axis labels are byte sizes or strides: binary suffixes like the benchmark names
// (1024 -> 1K, 3 MiB -> 3M), with up to three significant digits for in-between values.
std::string binary_label(double v) {
  if (v >= 0x1p60) return fmt::format("{:.3g}", v);  // past exbibytes: not a size, just say it
  static constexpr std::array<std::pair<int, char>, 5> units{{{50, 'P'}, {40, 'T'}, {30, 'G'}, {20, 'M'}, {10, 'K'}}};
  for (auto [shift, suffix] : units) {
    const double unit = std::ldexp(1.0, shift);
    if (v >= unit) {
      const double x = v / unit;
      if (x == std::floor(x) && x < 1e6) return fmt::format("{}{}", static_cast<long long>(x), suffix);
      return fmt::format("{:.3g}{}", x, suffix);
    }
  }
  if (v == std::floor(v)) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.3g}", v);
}

struct axis {
  double lo = 0, hi = 1;             ///< domain in axis units (log2 for log axes)
  std::vector<double> ticks;         ///< in axis units
  std::vector<std::string> labels;   ///< one per tick; empty string = tick mark only
};

// ~`target` ticks at 1/2/2.5/5 x 10^k, domain widened to whole ticks.
axis nice_axis(double lo, double hi, int target, bool widen) {
  axis a;
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo) || !std::isfinite(hi - lo)) {
    lo = 0;
    hi = 1;
  }
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double frac = raw / mag;
  const double step = mag * (frac <= 1 ? 1 : frac <= 2 ? 2 : frac <= 2.5 ? 2.5 : frac <= 5 ? 5 : 10);
  const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
  a.lo = widen ? std::min(lo, std::floor(lo / step + 1e-9) * step) : lo;
  a.hi = widen ? std::max(hi, std::ceil(hi / step - 1e-9) * step) : hi;
  const double wlo = widen ? std::floor(lo / step + 1e-9) : first, whi = widen ? std::ceil(hi / step - 1e-9) : last;
  if (!(whi - wlo < 100)) return a;  // pathological ranges: frame only, never a runaway loop
  const double magnitude = std::max(std::abs(a.lo), std::abs(a.hi));
  for (double k = wlo; k <= whi; k += 1) {
    double t = k * step;
    if (t == 0) t = 0;
    a.ticks.push_back(t);
    a.labels.push_back(linear_label(t, step, magnitude));
  }
  return a;
}

// ---------------------------------------------------------------------------------------
// Chart

// matplotlib's tab10: the palette performance plots are usually read in.
constexpr std::array<const char*, 10> palette{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                              "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

constexpr double chart_w = 720, chart_h = 360;
constexpr double char_w = 6.2;            // ~11px sans-serif; estimates, the browser has the final say
constexpr double top_pad = 14, bottom_pad = 50, right_pad = 14;
constexpr std::size_t max_legend_chars = 32;
constexpr std::size_t max_markers = 60;   // beyond this, markers hide the line

struct point {
  double x, y;  // in pixels
};

using out_it = std::back_insert_iterator<std::string>;

// Series past the palette keep apart by marker shape and dash.
void marker(std::string& out, std::size_t s, point p, const char* colour) {
  switch ((s / palette.size()) % 3) {
    case 0:
      fmt::format_to(out_it(out), "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"{}\"/>", px(p.x), px(p.y), colour);
      break;
    case 1:
      fmt::format_to(out_it(out), "<rect x=\"{}\" y=\"{}\" width=\"6\" height=\"6\" fill=\"{}\"/>", px(p.x - 3),
                     px(p.y - 3), colour);
      break;
    default:
      fmt::format_to(out_it(out), "<path d=\"M{} {}l4 7h-8z\" fill=\"{}\"/>", px(p.x), px(p.y - 4), colour);
  }
}

const char* dash(std::size_t s) { return s < palette.size() ? "" : " stroke-dasharray=\"6 3\""; }

void append_chart(std::string& out, const chart& c) {
  const auto tx = [&](double x) { return c.log_x ? std::log2(x) : x; };
  const auto usable_x = [&](double x) { return std::isfinite(x) && (!c.log_x || x > 0); };
  const std::size_t n_series = c.ys.size();

  // x spans every usable x, measured or not: a sweep whose last sizes failed shows the gap
  // instead of quietly ending early. y spans the points that will be drawn.
  double x_min = INFINITY, x_max = -INFINITY, y_min = 0, y_max = 0;
  for (double x : c.xs) {
    if (!usable_x(x)) continue;
    x_min = std::min(x_min, tx(x));
    x_max = std::max(x_max, tx(x));
  }
  bool any_point = false;
  std::vector<bool> has_data(n_series, false);
  for (std::size_t s = 0; s < n_series; ++s) {
    for (std::size_t i = 0; i < c.xs.size() && i < c.ys[s].size(); ++i) {
      const double x = c.xs[i], y = c.ys[s][i];
      if (!usable_x(x) || !std::isfinite(y)) continue;
      any_point = has_data[s] = true;
      y_min = std::min(y_min, y);
      y_max = std::max(y_max, y);
    }
  }

  // y: linear from 0 (bandwidths and latencies read against zero), ~5 nice ticks, a little
  // headroom so a plateau at a round number does not hide in the frame.
  if (!(y_max > y_min)) y_max = y_min + 1;
  const double headroom = 0.04 * (y_max - y_min);
  if (y_max > 0) y_max += headroom;
  if (y_min < 0) y_min -= headroom;
  const axis ya = nice_axis(y_min, y_max, 5, true);

  // x: log axes tick at the data's own x values (the sizes actually measured); linear
  // axes get nice ticks inside the data range, which spans the full plot width.
  axis xa;
  const bool have_x = std::isfinite(x_min);
  if (!have_x) {
    xa.lo = 0;
    xa.hi = 1;
  } else if (c.log_x) {
    xa.lo = x_min == x_max ? x_min - 1 : x_min;
    xa.hi = x_min == x_max ? x_max + 1 : x_max;
    for (double x : c.xs) {
      if (!usable_x(x) || tx(x) < xa.lo || tx(x) > xa.hi || (!xa.ticks.empty() && tx(x) <= xa.ticks.back())) continue;
      xa.ticks.push_back(tx(x));
      xa.labels.push_back(binary_label(x));
    }
  } else if (!c.x_ticks.empty()) {
    // Named points (runs): a tick at each, half a step of room at either end.
    xa.lo = x_min - 0.5;
    xa.hi = x_max + 0.5;
    for (std::size_t i = 0; i < c.xs.size() && i < c.x_ticks.size(); ++i) {
      if (!usable_x(c.xs[i])) continue;
      xa.ticks.push_back(c.xs[i]);
      xa.labels.push_back(c.x_ticks[i]);
    }
  } else {
    const double pad = x_min == x_max ? std::max(1.0, std::abs(x_min) * 0.1) : 0;
    xa = nice_axis(x_min - pad, x_max + pad, 6, false);
  }

  // Layout: y label | y tick labels | plot | legend.
  std::size_t y_label_chars = 0;
  for (const auto& l : ya.labels) y_label_chars = std::max(y_label_chars, code_points(l));
  const double left = (c.y_label.empty() ? 8 : 26) + static_cast<double>(y_label_chars) * char_w + 10;
  std::size_t legend_chars = 0;
  for (std::size_t s = 0; s < n_series; ++s) {
    const std::string name = s < c.series.size() ? c.series[s] : fmt::format("series {}", s + 1);
    legend_chars = std::max(legend_chars, std::min(code_points(name), max_legend_chars) + (has_data[s] ? 0 : 10));
  }
  const double legend_w = n_series == 0 ? 0 : 40 + static_cast<double>(legend_chars) * char_w;
  const double plot_l = left, plot_r = chart_w - right_pad - legend_w, plot_t = top_pad;
  const double height = std::max(chart_h, top_pad + 18.0 * static_cast<double>(n_series) + 10);
  const double plot_b = height - bottom_pad;
  const auto sx = [&](double v) { return plot_l + (v - xa.lo) / (xa.hi - xa.lo) * (plot_r - plot_l); };
  const auto sy = [&](double v) { return plot_b - (v - ya.lo) / (ya.hi - ya.lo) * (plot_b - plot_t); };

  const std::string what = c.y_label.empty() || c.x_label.empty() ? c.y_label + c.x_label : c.y_label + " vs " + c.x_label;
  fmt::format_to(out_it(out), "<figure class=\"chart\"><svg viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n",
                 px(chart_w), px(height), escape(what.empty() ? "chart" : what));

  // Grid and y ticks.
  for (std::size_t i = 0; i < ya.ticks.size(); ++i) {
    const double y = sy(ya.ticks[i]);
    fmt::format_to(out_it(out), "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", px(plot_l), px(y),
                   px(plot_r), px(y));
    fmt::format_to(out_it(out), "<text class=\"yt\" x=\"{}\" y=\"{}\">{}</text>\n", px(plot_l - 6), px(y + 4),
                   escape(ya.labels[i]));
  }
  // x ticks: every tick gets a mark; labels are thinned so they never overlap. When a log
  // axis is too dense to label every x, only powers of two compete for a label (1K 4K 16K
  // reads better than 1K 3K 8K 24K).
  std::size_t x_label_chars = 0;
  for (const auto& l : xa.labels) x_label_chars = std::max(x_label_chars, code_points(l));
  const double min_gap = static_cast<double>(x_label_chars) * char_w + 10;
  bool all_fit = true;
  for (std::size_t i = 1; i < xa.ticks.size(); ++i) all_fit = all_fit && sx(xa.ticks[i]) - sx(xa.ticks[i - 1]) >= min_gap;
  const auto powers = std::count_if(xa.ticks.begin(), xa.ticks.end(), [](double t) { return t == std::round(t); });
  const bool powers_only = c.log_x && !all_fit && powers >= 2;
  double last_label = -INFINITY;
  for (std::size_t i = 0; i < xa.ticks.size(); ++i) {
    const double x = sx(xa.ticks[i]);
    const bool labelled = (!powers_only || xa.ticks[i] == std::round(xa.ticks[i])) && x - last_label >= min_gap;
    if (labelled) {
      last_label = x;
      fmt::format_to(out_it(out), "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", px(x), px(plot_t),
                     px(x), px(plot_b));
      fmt::format_to(out_it(out), "<text class=\"xt\" x=\"{}\" y=\"{}\">{}</text>", px(x), px(plot_b + 16),
                     escape(xa.labels[i]));
    }
    fmt::format_to(out_it(out), "<line class=\"tick\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", px(x), px(plot_b),
                   px(x), px(plot_b + (labelled ? 5 : 3)));
  }
  // Frame (axes) on top of the grid.
  fmt::format_to(out_it(out), "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", px(plot_l),
                 px(plot_t), px(plot_r - plot_l), px(plot_b - plot_t));
  if (!c.x_label.empty())
    fmt::format_to(out_it(out), "<text class=\"xl\" x=\"{}\" y=\"{}\">{}</text>\n", px((plot_l + plot_r) / 2),
                   px(plot_b + 38), escape(c.x_label));
  if (!c.y_label.empty()) {
    const double cy = (plot_t + plot_b) / 2;
    fmt::format_to(out_it(out), "<text class=\"yl\" x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\">{}</text>\n",
                   px(cy), px(cy), escape(c.y_label));
  }
  if (!any_point)
    fmt::format_to(out_it(out), "<text class=\"nodata\" x=\"{}\" y=\"{}\">no data</text>\n", px((plot_l + plot_r) / 2),
                   px((plot_t + plot_b) / 2));

  // Series: a polyline per run of consecutive points (NAN breaks the line), then markers.
  const bool show_markers = c.xs.size() <= max_markers;
  for (std::size_t s = 0; s < n_series; ++s) {
    const char* colour = palette[s % palette.size()];
    std::vector<std::vector<point>> runs(1);
    for (std::size_t i = 0; i < c.xs.size() && i < c.ys[s].size(); ++i) {
      const double x = c.xs[i], y = c.ys[s][i];
      if (!usable_x(x) || !std::isfinite(y)) {
        if (!runs.back().empty()) runs.emplace_back();
        continue;
      }
      runs.back().push_back({sx(tx(x)), sy(y)});
    }
    fmt::format_to(out_it(out), "<g class=\"series\">");
    for (const auto& run : runs) {
      if (run.size() < 2) continue;
      fmt::format_to(out_it(out), "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"", colour,
                     dash(s));
      for (std::size_t i = 0; i < run.size(); ++i)
        fmt::format_to(out_it(out), "{}{},{}", i ? " " : "", px(run[i].x), px(run[i].y));
      out += "\"/>";
    }
    for (const auto& run : runs)
      for (const auto& p : run)
        if (show_markers || run.size() == 1) marker(out, s, p, colour);  // a lone point needs its marker
    // Points marked as news (a change in a history): a ring in the news's colour.
    for (std::size_t i = 0; s < c.marks.size() && i < c.marks[s].size() && i < c.xs.size() && i < c.ys[s].size(); ++i) {
      const tone m = c.marks[s][i];
      if ((m != tone::good && m != tone::bad) || !usable_x(c.xs[i]) || !std::isfinite(c.ys[s][i])) continue;
      fmt::format_to(out_it(out),
                     "<circle class=\"mark {}\" cx=\"{}\" cy=\"{}\" r=\"7\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
                     tone_class(m), px(sx(tx(c.xs[i]))), px(sy(c.ys[s][i])), m == tone::bad ? "#cf222e" : "#1a7f37");
    }
    out += "</g>\n";
  }

  // Legend, right of the plot; the full name is the hover text when it had to be cut.
  for (std::size_t s = 0; s < n_series; ++s) {
    const std::string name = s < c.series.size() ? c.series[s] : fmt::format("series {}", s + 1);
    const char* colour = palette[s % palette.size()];
    const double lx = plot_r + 14, ly = plot_t + 8 + 18.0 * static_cast<double>(s);
    fmt::format_to(out_it(out), "<g class=\"legend\"><title>{}</title>", escape(name));
    fmt::format_to(out_it(out), "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>",
                   px(lx), px(ly), px(lx + 20), px(ly), colour, dash(s));
    marker(out, s, {lx + 10, ly}, colour);
    fmt::format_to(out_it(out), "<text x=\"{}\" y=\"{}\"{}>{}{}</text></g>\n", px(lx + 26), px(ly + 4),
                   has_data[s] ? "" : " class=\"muted\"", escape(ellipsize(name, max_legend_chars)),
                   has_data[s] ? "" : " (no data)");
  }
  out += "</svg></figure>\n";
}

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
      fmt::format_to(out_it(out), "<td{}>{}</td>", cls.empty() ? "" : " class=\"" + cls + "\"", escape(c.text));
    }
    out += "</tr>\n";
  }
  out += "</tbody>\n</table></div>\n";
  for (const auto& c : t.charts) append_chart(out, c);
  out += "</div>\n</section>\n";
}

}  // namespace

std::string render_html(const document& d) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  fmt::format_to(out_it(out), "<title>{}</title>\n", escape(d.title.empty() ? "membench report" : d.title));
  out += style;
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
