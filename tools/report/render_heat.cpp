// The HTML renderer's heatmaps: a cell's shade from its heat (one sequential scale, light to
// dark blue, readable in print and by the colour-blind), and the legend under the table.
// Fixed number formatting: golden tests compare bytes.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "html_text.hpp"

namespace membench::report::html {

const std::string_view heat_css = R"(<style>
.legend{margin:6px 0 0;font-size:12px;color:#59636e}
.legend .swatches{display:flex;margin-top:2px}
.legend .swatches span{min-width:56px;padding:2px 6px;text-align:center;border:1px solid #d0d7de}
</style>
)";

namespace {

struct rgb {
  double r, g, b;
};

// ColorBrewer's Blues, sampled at 0, 1/4, 1/2, 3/4 and 1.
constexpr std::array<rgb, 5> stops{{{247, 251, 255}, {198, 219, 239}, {107, 174, 214}, {33, 113, 181}, {8, 48, 107}}};

// Above this the shade is dark enough for white text.
constexpr double dark_from = 0.6;

std::string colour_at(double heat) {
  const double x = std::clamp(heat, 0.0, 1.0) * static_cast<double>(stops.size() - 1);
  const std::size_t i = std::min(static_cast<std::size_t>(x), stops.size() - 2);
  const double f = x - static_cast<double>(i);
  auto mix = [f](double a, double b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g),
                     mix(stops[i].b, stops[i + 1].b));
}

std::string style_for(double heat) {
  return fmt::format("background:{};color:{}", colour_at(heat), heat > dark_from ? "#fff" : "#1f2328");
}

}  // namespace

std::string heat_style(double heat) {
  if (!std::isfinite(heat)) return "";
  return fmt::format(" style=\"{}\"", style_for(heat));
}

void append_heat_legend(std::string& out, const heat_scale& h) {
  fmt::format_to(out_it(out), "<div class=\"legend\">{}<div class=\"swatches\">", escape(h.what));
  constexpr int steps = 4;
  for (int k = 0; k <= steps; ++k) {
    const double heat = static_cast<double>(k) / steps;
    fmt::format_to(out_it(out), "<span style=\"{}\">{}</span>", style_for(heat), escape(fmt::format("{:.4g}", heat * h.top)));
  }
  out += "</div></div>\n";
}

}  // namespace membench::report::html
