// The HTML renderer's SVG line charts: axes with readable ticks, a polyline per series,
// marks on points that are news, a legend. Output is a pure function of the chart (fixed
// number formatting) so golden tests can compare bytes.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/html_text.hpp"

namespace membench::report::html {
namespace {

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

// What the chart's data span. x spans every usable x, measured or not: a sweep whose last
// sizes failed shows the gap instead of quietly ending early. y spans the points drawn.
struct extent {
  double x_min = INFINITY, x_max = -INFINITY, y_min = 0, y_max = 0;
  bool any_point = false;
  std::vector<bool> has_data;  ///< per series
};

bool usable_x(const chart& c, double x) { return std::isfinite(x) && (!c.log_x || x > 0); }
double tx(const chart& c, double x) { return c.log_x ? std::log2(x) : x; }

extent data_extent(const chart& c) {
  extent e;
  for (double x : c.xs) {
    if (!usable_x(c, x)) continue;
    e.x_min = std::min(e.x_min, tx(c, x));
    e.x_max = std::max(e.x_max, tx(c, x));
  }
  e.has_data.assign(c.ys.size(), false);
  for (std::size_t s = 0; s < c.ys.size(); ++s) {
    for (std::size_t i = 0; i < c.xs.size() && i < c.ys[s].size(); ++i) {
      const double x = c.xs[i], y = c.ys[s][i];
      if (!usable_x(c, x) || !std::isfinite(y)) continue;
      e.any_point = e.has_data[s] = true;
      e.y_min = std::min(e.y_min, y);
      e.y_max = std::max(e.y_max, y);
    }
  }
  return e;
}

// y: linear from 0 (bandwidths and latencies read against zero), ~5 nice ticks, a little
// headroom so a plateau at a round number does not hide in the frame.
axis y_axis(double y_min, double y_max) {
  if (!(y_max > y_min)) y_max = y_min + 1;
  const double headroom = 0.04 * (y_max - y_min);
  if (y_max > 0) y_max += headroom;
  if (y_min < 0) y_min -= headroom;
  return nice_axis(y_min, y_max, 5, true);
}

// x: log axes tick at the data's own x values (the sizes actually measured); linear axes
// get nice ticks inside the data range, which spans the full plot width.
axis x_axis(const chart& c, const extent& e) {
  axis xa;
  if (!std::isfinite(e.x_min)) return xa;  // no usable x: the unit range
  if (c.log_x) {
    xa.lo = e.x_min == e.x_max ? e.x_min - 1 : e.x_min;
    xa.hi = e.x_min == e.x_max ? e.x_max + 1 : e.x_max;
    for (double x : c.xs) {
      if (!usable_x(c, x) || tx(c, x) < xa.lo || tx(c, x) > xa.hi || (!xa.ticks.empty() && tx(c, x) <= xa.ticks.back()))
        continue;
      xa.ticks.push_back(tx(c, x));
      xa.labels.push_back(binary_label(x));
    }
    return xa;
  }
  if (!c.x_ticks.empty()) {
    // Named points (runs): a tick at each, half a step of room at either end.
    xa.lo = e.x_min - 0.5;
    xa.hi = e.x_max + 0.5;
    for (std::size_t i = 0; i < c.xs.size() && i < c.x_ticks.size(); ++i) {
      if (!usable_x(c, c.xs[i])) continue;
      xa.ticks.push_back(c.xs[i]);
      xa.labels.push_back(c.x_ticks[i]);
    }
    return xa;
  }
  const double pad = e.x_min == e.x_max ? std::max(1.0, std::abs(e.x_min) * 0.1) : 0;
  return nice_axis(e.x_min - pad, e.x_max + pad, 6, false);
}

std::string series_name(const chart& c, std::size_t s) {
  return s < c.series.size() ? c.series[s] : fmt::format("series {}", s + 1);
}

// The chart laid out: y label | y tick labels | plot | legend.
struct plot {
  const chart& c;
  extent e;
  axis xa, ya;
  double left = 0, right = 0, top = top_pad, bottom = 0, height = chart_h;

  double sx(double v) const { return left + (v - xa.lo) / (xa.hi - xa.lo) * (right - left); }
  double sy(double v) const { return bottom - (v - ya.lo) / (ya.hi - ya.lo) * (bottom - top); }
};

plot lay_out(const chart& c) {
  plot p{c, data_extent(c), {}, {}};
  p.ya = y_axis(p.e.y_min, p.e.y_max);
  p.xa = x_axis(c, p.e);
  std::size_t y_label_chars = 0;
  for (const auto& l : p.ya.labels) y_label_chars = std::max(y_label_chars, code_points(l));
  p.left = (c.y_label.empty() ? 8 : 26) + static_cast<double>(y_label_chars) * char_w + 10;
  std::size_t legend_chars = 0;
  for (std::size_t s = 0; s < c.ys.size(); ++s) {
    legend_chars = std::max(legend_chars,
                            std::min(code_points(series_name(c, s)), max_legend_chars) + (p.e.has_data[s] ? 0 : 10));
  }
  const double legend_w = c.ys.empty() ? 0 : 40 + static_cast<double>(legend_chars) * char_w;
  p.right = chart_w - right_pad - legend_w;
  p.height = std::max(chart_h, top_pad + 18.0 * static_cast<double>(c.ys.size()) + 10);
  p.bottom = p.height - bottom_pad;
  return p;
}

// Grid and y ticks.
void append_y_ticks(std::string& out, const plot& p) {
  for (std::size_t i = 0; i < p.ya.ticks.size(); ++i) {
    const double y = p.sy(p.ya.ticks[i]);
    fmt::format_to(out_it(out), "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", px(p.left), px(y),
                   px(p.right), px(y));
    fmt::format_to(out_it(out), "<text class=\"yt\" x=\"{}\" y=\"{}\">{}</text>\n", px(p.left - 6), px(y + 4),
                   escape(p.ya.labels[i]));
  }
}

// x ticks: every tick gets a mark; labels are thinned so they never overlap. When a log
// axis is too dense to label every x, only powers of two compete for a label (1K 4K 16K
// reads better than 1K 3K 8K 24K).
void append_x_ticks(std::string& out, const plot& p) {
  const axis& xa = p.xa;
  std::size_t x_label_chars = 0;
  for (const auto& l : xa.labels) x_label_chars = std::max(x_label_chars, code_points(l));
  const double min_gap = static_cast<double>(x_label_chars) * char_w + 10;
  bool all_fit = true;
  for (std::size_t i = 1; i < xa.ticks.size(); ++i) all_fit = all_fit && p.sx(xa.ticks[i]) - p.sx(xa.ticks[i - 1]) >= min_gap;
  const auto powers = std::count_if(xa.ticks.begin(), xa.ticks.end(), [](double t) { return t == std::round(t); });
  const bool powers_only = p.c.log_x && !all_fit && powers >= 2;
  double last_label = -INFINITY;
  for (std::size_t i = 0; i < xa.ticks.size(); ++i) {
    const double x = p.sx(xa.ticks[i]);
    const bool labelled = (!powers_only || xa.ticks[i] == std::round(xa.ticks[i])) && x - last_label >= min_gap;
    if (labelled) {
      last_label = x;
      fmt::format_to(out_it(out), "<line class=\"grid\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", px(x), px(p.top),
                     px(x), px(p.bottom));
      fmt::format_to(out_it(out), "<text class=\"xt\" x=\"{}\" y=\"{}\">{}</text>", px(x), px(p.bottom + 16),
                     escape(xa.labels[i]));
    }
    fmt::format_to(out_it(out), "<line class=\"tick\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>\n", px(x), px(p.bottom),
                   px(x), px(p.bottom + (labelled ? 5 : 3)));
  }
}

// Frame (axes) on top of the grid, the axis labels, and "no data" when nothing is drawn.
void append_frame(std::string& out, const plot& p) {
  fmt::format_to(out_it(out), "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\n", px(p.left),
                 px(p.top), px(p.right - p.left), px(p.bottom - p.top));
  if (!p.c.x_label.empty())
    fmt::format_to(out_it(out), "<text class=\"xl\" x=\"{}\" y=\"{}\">{}</text>\n", px((p.left + p.right) / 2),
                   px(p.bottom + 38), escape(p.c.x_label));
  if (!p.c.y_label.empty()) {
    const double cy = (p.top + p.bottom) / 2;
    fmt::format_to(out_it(out), "<text class=\"yl\" x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\">{}</text>\n",
                   px(cy), px(cy), escape(p.c.y_label));
  }
  if (!p.e.any_point)
    fmt::format_to(out_it(out), "<text class=\"nodata\" x=\"{}\" y=\"{}\">no data</text>\n", px((p.left + p.right) / 2),
                   px((p.top + p.bottom) / 2));
}

// A series' runs of consecutive points, in pixels (NAN breaks the line).
std::vector<std::vector<point>> point_runs(const plot& p, std::size_t s) {
  std::vector<std::vector<point>> runs(1);
  for (std::size_t i = 0; i < p.c.xs.size() && i < p.c.ys[s].size(); ++i) {
    const double x = p.c.xs[i], y = p.c.ys[s][i];
    if (!usable_x(p.c, x) || !std::isfinite(y)) {
      if (!runs.back().empty()) runs.emplace_back();
      continue;
    }
    runs.back().push_back({p.sx(tx(p.c, x)), p.sy(y)});
  }
  return runs;
}

// Points marked as news (a change in a history): a ring in the news's colour; an open
// question (unsure) a dashed grey ring.
void append_marks(std::string& out, const plot& p, std::size_t s) {
  const chart& c = p.c;
  for (std::size_t i = 0; s < c.marks.size() && i < c.marks[s].size() && i < c.xs.size() && i < c.ys[s].size(); ++i) {
    const tone m = c.marks[s][i];
    if (m == tone::plain || !usable_x(c, c.xs[i]) || !std::isfinite(c.ys[s][i])) continue;
    const char* stroke = m == tone::bad ? "#cf222e" : m == tone::good ? "#1a7f37" : "#8c959f\" stroke-dasharray=\"3 2";
    fmt::format_to(out_it(out),
                   "<circle class=\"mark {}\" cx=\"{}\" cy=\"{}\" r=\"7\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>",
                   tone_class(m), px(p.sx(tx(c, c.xs[i]))), px(p.sy(c.ys[s][i])), stroke);
  }
}

// Series: a polyline per run of consecutive points, then markers and marks.
void append_series(std::string& out, const plot& p) {
  const bool show_markers = p.c.xs.size() <= max_markers;
  for (std::size_t s = 0; s < p.c.ys.size(); ++s) {
    const char* colour = palette[s % palette.size()];
    const std::vector<std::vector<point>> runs = point_runs(p, s);
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
      for (const auto& pt : run)
        if (show_markers || run.size() == 1) marker(out, s, pt, colour);  // a lone point needs its marker
    append_marks(out, p, s);
    out += "</g>\n";
  }
}

// Legend, right of the plot; the full name is the hover text when it had to be cut.
void append_legend(std::string& out, const plot& p) {
  for (std::size_t s = 0; s < p.c.ys.size(); ++s) {
    const std::string name = series_name(p.c, s);
    const char* colour = palette[s % palette.size()];
    const double lx = p.right + 14, ly = p.top + 8 + 18.0 * static_cast<double>(s);
    fmt::format_to(out_it(out), "<g class=\"legend\"><title>{}</title>", escape(name));
    fmt::format_to(out_it(out), "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>",
                   px(lx), px(ly), px(lx + 20), px(ly), colour, dash(s));
    marker(out, s, {lx + 10, ly}, colour);
    fmt::format_to(out_it(out), "<text x=\"{}\" y=\"{}\"{}>{}{}</text></g>\n", px(lx + 26), px(ly + 4),
                   p.e.has_data[s] ? "" : " class=\"muted\"", escape(ellipsize(name, max_legend_chars)),
                   p.e.has_data[s] ? "" : " (no data)");
  }
}

}  // namespace

void append_chart(std::string& out, const chart& c) {
  const plot p = lay_out(c);
  const std::string what = c.y_label.empty() || c.x_label.empty() ? c.y_label + c.x_label : c.y_label + " vs " + c.x_label;
  fmt::format_to(out_it(out), "<figure class=\"chart\"><svg viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n",
                 px(chart_w), px(p.height), escape(what.empty() ? "chart" : what));
  append_y_ticks(out, p);
  append_x_ticks(out, p);
  append_frame(out, p);
  append_series(out, p);
  append_legend(out, p);
  out += "</svg></figure>\n";
}

}  // namespace membench::report::html
