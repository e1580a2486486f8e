// profile: each GPU's memory hierarchy on one page. Per GPU (its files grouped by UUID, else
// by name and PCI bus) a latency ladder, bandwidth by level against each level's ceiling
// (headline.hpp), the classic lessons' effects each with the interval compare's test gives
// it, and who the GPU and build are. Data flows one way: files -> gpu_profile -> renderers.
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/document.hpp"
#include "core/model.hpp"

namespace membench::report {

/// One headline number of one row, with its interval and, where it has one, its ceiling.
struct profile_value {
  std::string label;  ///< "L2 near", "offset:1"
  std::string row;    ///< the benchmark it comes from; "" when missing
  double value = NAN, low = NAN, high = NAN;  ///< in `unit`; low/high: the row's time interval carried over
  double pct = NAN;                           ///< of `ceiling`
  std::string ceiling;                        ///< schema ceiling key; "" when not priced
  std::string flag;                           ///< "": a finding; else why it is not one (unconverged, ...)
};

/// One lesson's small chart: its bars and the effect it teaches, decided as compare decides.
struct profile_lesson {
  std::string title, unit, metric;
  std::vector<profile_value> bars;
  std::string effect;       ///< "stride:32 takes 29.4x the time of stride:1 (29.3 to 29.5)"
  std::string effect_flag;  ///< "": the test calls it; else why it is no finding (unsure: ...)
};

/// One headline figure over the builds: the base build's row, and the same benchmark in each
/// other build.
struct build_row {
  std::string unit;                   ///< "ns", "GB/s"
  std::vector<profile_value> values;  ///< one per build, in build_comparison::builds' order
  std::vector<cell> ratios;           ///< build k+1 / the base build; coloured only where compare's test calls it
};

/// The builds of one GPU side by side; empty when its files are of one build.
struct build_comparison {
  std::vector<std::string> builds;  ///< those given, in the order default, ca, cg; the first is the base
  std::vector<build_row> rows;      ///< the ladder's, then the levels'
  std::string note;                 ///< how the ratios were marked (difference_marks)
};

struct gpu_profile {
  std::string title;
  std::vector<std::pair<std::string, std::string>> identity;  ///< (what, value), in reading order
  std::vector<profile_value> ladder;                          ///< ns per load, fastest level first
  std::vector<profile_value> levels;                          ///< GB/s by level, with % of ceiling
  std::vector<profile_lesson> lessons;
  std::vector<std::string> notes;  ///< inputs, and what the files lack
  build_comparison builds;         ///< several builds given: the ladder, levels and lessons are the base build's
};

/// What profile reads of each row: every counter and the evidence of an interval.
read_options profile_reads();

/// One profile per GPU of `files`, in the order they first appear. throws input_error when
/// no file has a membench row with a headline, or a file names no GPU
std::vector<gpu_profile> build_profiles(const file_refs& files);

/// The headline figures of `base` (the base build's ladder and levels) in each other build's
/// files, with the ratios compare's test marks (profile_builds.cpp).
build_comparison compare_builds(const std::vector<std::string>& builds,
                                const std::vector<std::vector<const result_file*>>& files,
                                const std::vector<const profile_value*>& base);

/// The lessons of one GPU's rows (profile_lessons.cpp).
std::vector<profile_lesson> profile_lessons(const std::vector<const result_file*>& files);

/// A profile_value of row `r` (null: missing) under its family's headline: value, interval, ceiling, flag.
profile_value value_of(const result* r, const std::string& label, const result_file* file);
/// Why `r` is not a finding ("" when it is one): error, unconverged, throttled, few samples, floor.
std::string flag_of(const result& r, const result_file& file);

/// One self-contained HTML page per GPU (inline CSS and SVG, no scripts).
std::string render_profile_html(const std::vector<gpu_profile>& gpus);
/// Markdown tables of the headline numbers; `charts[i]`, when not empty, is the SVG file
/// beside it that shows GPU i's ladder and levels.
/// `build_charts[i]`, likewise, the SVG of GPU i's build ratios (several builds given).
std::string render_profile_markdown(const std::vector<gpu_profile>& gpus, const std::vector<std::string>& charts,
                                    const std::vector<std::string>& build_charts = {});

/// The builds' ratios as a small heatmap: a cell coloured only where the test calls it.
std::string profile_builds_svg(const build_comparison& b);
/// The builds' figures as a Markdown table (values with intervals, then the ratios).
std::string profile_builds_markdown(const build_comparison& b);
/// The same as an HTML table, the heatmap after it.
std::string profile_builds_html(const build_comparison& b);

/// Horizontal bars with interval whiskers; flagged bars hatched; `with_pct`: % of ceiling.
std::string profile_bars_svg(const std::vector<profile_value>& bars, const std::string& unit, bool with_pct);
/// One GPU's ladder and levels as a standalone SVG.
std::string profile_summary_svg(const gpu_profile& g);

}  // namespace membench::report
