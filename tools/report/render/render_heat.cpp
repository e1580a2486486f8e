// The HTML renderer's heatmaps: a cell's shade from its heat (one sequential scale, light to
// dark blue, readable in print and by the colour-blind), and the legend under the table.
// Fixed number formatting: golden tests compare bytes.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/html_text.hpp"

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

using palette = std::array<rgb, 5>;

// ColorBrewer's Blues, sampled at 0, 1/4, 1/2, 3/4 and 1.
constexpr palette blues{{{247, 251, 255}, {198, 219, 239}, {107, 174, 214}, {33, 113, 181}, {8, 48, 107}}};
// ColorBrewer's RdBu (reversed: blue low, red high), sampled at -1, -1/2, 0, 1/2 and 1.
constexpr palette blue_red{{{33, 102, 172}, {146, 197, 222}, {247, 247, 247}, {244, 165, 130}, {178, 24, 43}}};

// Beyond this (from the light end) the shade is dark enough for white text.
constexpr double dark_from = 0.6;

// `x` from 0 to 1 along the palette.
std::string colour_at(const palette& stops, double x01) {
  const double x = std::clamp(x01, 0.0, 1.0) * static_cast<double>(stops.size() - 1);
  const std::size_t i = std::min(static_cast<std::size_t>(x), stops.size() - 2);
  const double f = x - static_cast<double>(i);
  auto mix = [f](double a, double b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g),
                     mix(stops[i].b, stops[i + 1].b));
}

std::string style_for(double heat, bool diverging) {
  const std::string colour = diverging ? colour_at(blue_red, (heat + 1) / 2) : colour_at(blues, heat);
  const bool dark = diverging ? std::abs(heat) > 2 * dark_from - 0.2 : heat > dark_from;
  return fmt::format("background:{};color:{}", colour, dark ? "#fff" : "#1f2328");
}

}  // namespace

std::string heat_style(double heat, bool diverging) {
  if (!std::isfinite(heat)) return "";
  return fmt::format(" style=\"{}\"", style_for(heat, diverging));
}

void append_heat_legend(std::string& out, const heat_scale& h) {
  fmt::format_to(out_it(out), "<div class=\"legend\">{}<div class=\"swatches\">", escape(h.what));
  constexpr int steps = 4;
  for (int k = 0; k <= steps; ++k) {
    const double heat = h.diverging ? 2.0 * k / steps - 1 : static_cast<double>(k) / steps;
    fmt::format_to(out_it(out), "<span style=\"{}\">{}</span>", style_for(heat, h.diverging),
                   escape(h.diverging ? fmt::format("{:+.4g}", heat * h.top) : fmt::format("{:.4g}", heat * h.top)));
  }
  out += "</div></div>\n";
}

}  // namespace membench::report::html
