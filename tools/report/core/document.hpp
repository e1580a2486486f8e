// What every membench-report view produces and every renderer consumes: a titled
// document of tables, each optionally with a line chart of its numbers or shaded as a heatmap.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace membench::report {

/// How a cell reads: plain, or good/bad news (colour in a terminal, class in HTML).
enum class tone { plain, good, bad, muted };

struct cell {
  std::string text;          ///< as shown (already formatted, unit-free)
  double value = NAN;        ///< the number behind it, NAN for text cells (CSV writes it raw)
  tone mood = tone::plain;
  double heat = NAN;         ///< 0 to 1 (-1 to 1 diverging): the cell's shade in a heatmap (HTML), NAN for none
  bool numeric() const { return !std::isnan(value); }
};

/// One line chart: y against x, one series per column of the table it belongs to.
struct chart {
  std::string x_label, y_label;
  bool log_x = false;                      ///< sizes, strides: powers of two
  std::vector<double> xs;                  ///< ascending
  std::vector<std::string> series;         ///< names, one per line
  std::vector<std::vector<double>> ys;     ///< ys[s][i] for series s at xs[i]; NAN = no point
  std::vector<std::string> x_ticks;        ///< labels at the xs instead of numbers (a history's runs)
  std::vector<std::vector<tone>> marks;    ///< marks[s][i]: a point that is good or bad news (a change)
};

/// A heatmap over a table's cells: their `heat` shades them from light (0) to dark (1), or,
/// diverging, from blue (-1, below the middle) through white (0) to red (1, above it).
struct heat_scale {
  std::string what;        ///< what the shade is: "% of the link (pct_of_link)"
  double top = 1;          ///< what heat 1 stands for in those units (the legend's labels)
  bool diverging = false;  ///< heat from -1 to 1 around a middle (a deviation), not 0 to 1
};

struct table {
  std::string title;                       ///< e.g. "global/read_offset type:f32 l2:cold"
  std::string unit;                        ///< what the numeric cells are, e.g. "GB/s (decimal)"
  std::vector<std::string> header;
  std::vector<std::vector<cell>> rows;
  std::vector<chart> charts;               ///< zero or one, usually
  std::optional<heat_scale> heat = std::nullopt;  ///< a heatmap of the cells with heat (HTML)
};

struct document {
  std::string title;
  std::vector<std::string> notes;          ///< lines before the tables (inputs, devices, verdicts)
  std::vector<table> tables;
};

}  // namespace membench::report
