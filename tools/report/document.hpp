// What every membench-report view produces and every renderer consumes: a titled
// document of tables, each optionally with a line chart of its numbers.
#pragma once

#include <cmath>
#include <string>
#include <vector>

namespace membench::report {

/// How a cell reads: plain, or good/bad news (colour in a terminal, class in HTML).
enum class tone { plain, good, bad, muted };

struct cell {
  std::string text;          ///< as shown (already formatted, unit-free)
  double value = NAN;        ///< the number behind it, NAN for text cells (CSV writes it raw)
  tone mood = tone::plain;
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

struct table {
  std::string title;                       ///< e.g. "global/read_offset type:f32 l2:cold"
  std::string unit;                        ///< what the numeric cells are, e.g. "GB/s (decimal)"
  std::vector<std::string> header;
  std::vector<std::vector<cell>> rows;
  std::vector<chart> charts;               ///< zero or one, usually
  /// > 0: a heatmap; HTML shades each numeric cell but muted ones by its value, red up to
  /// +heat_limit and beyond, blue down to -heat_limit (the other formats show the numbers).
  double heat_limit = 0;
};

struct document {
  std::string title;
  std::vector<std::string> notes;          ///< lines before the tables (inputs, devices, verdicts)
  std::vector<table> tables;
};

}  // namespace membench::report
