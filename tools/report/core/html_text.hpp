// What the HTML renderer's page and its charts share: escaping, UTF-8 widths, tone classes.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

#include "core/document.hpp"
#include "core/escape.hpp"

namespace membench::report::html {

using out_it = std::back_insert_iterator<std::string>;

/// Everything shown comes from user files (benchmark names, JSON context), so every string
/// goes through here, in element content and attribute values alike.
std::string escape(std::string_view s);
/// Code points, not bytes: legend widths and truncation must not split a UTF-8 sequence.
using report::code_points;
using report::ellipsize;
/// The CSS class of a tone ("" for plain).
const char* tone_class(tone t);

/// An SVG line chart of `c` in a <figure>.
void append_chart(std::string& out, const chart& c);

/// The page's CSS for heatmaps, in its head only where a table has one.
extern const std::string_view heat_css;
/// A heatmap cell's style attribute (` style="background:#...;color:#..."`); "" for no heat.
std::string heat_style(double heat, bool diverging);
/// The legend of a heatmap: what the shade is, and swatches from 0 to its top.
void append_heat_legend(std::string& out, const heat_scale& h);

}  // namespace membench::report::html
