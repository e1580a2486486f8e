// profile's page as self-contained HTML (inline CSS and SVG, no scripts) and as Markdown
// tables. A row that is no finding is named so next to its number.
#include <fmt/format.h>

#include "core/escape.hpp"
#include "core/html_text.hpp"
#include "profile/profile.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

using html::escape;
using html::out_it;

constexpr std::string_view page_style = R"(<style>
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1f2328;background:#fff;margin:24px auto;padding:0 24px;max-width:1500px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:24px 0 8px;padding-bottom:4px;border-bottom:1px solid #d0d7de}
section.gpu{break-after:page}
table.id{border-collapse:collapse;font-size:13px}table.id th{text-align:left;color:#59636e;font-weight:400;padding:1px 12px 1px 0}
.lessons{display:grid;grid-template-columns:repeat(auto-fill,minmax(560px,1fr));gap:16px}
figure{margin:0}figure.lesson{border:1px solid #d0d7de;border-radius:6px;padding:8px}
figcaption{font-weight:600}svg{max-width:100%;height:auto;display:block}
p.effect{margin:4px 0;font-variant-numeric:tabular-nums}.unsure{color:#9a6700}
ul.notes{color:#59636e}
table.builds{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums}table.builds th,table.builds td{padding:2px 10px;border-bottom:1px solid #eaeef2;text-align:right}table.builds th:first-child{text-align:left}table.builds tbody th{font-weight:400}
p.note{color:#59636e;font-size:13px}
</style>
)";

std::string interval_text(const profile_value& v) {
  if (std::isnan(v.low) || std::isnan(v.high)) return "-";
  return fmt::format("{} to {}", format_value(v.low), format_value(v.high));
}

void html_identity(std::string& out, const gpu_profile& g) {
  out += "<table class=\"id\"><tbody>\n";
  for (const auto& [what, value] : g.identity)
    fmt::format_to(out_it(out), "<tr><th>{}</th><td>{}</td></tr>\n", escape(what), escape(value));
  out += "</tbody></table>\n";
}

void html_lesson(std::string& out, const profile_lesson& l) {
  fmt::format_to(out_it(out), "<figure class=\"lesson\"><figcaption>{}</figcaption>\n", escape(l.title));
  if (!l.effect.empty()) fmt::format_to(out_it(out), "<p class=\"effect{}\">{}</p>\n", l.effect_flag.empty() ? "" : " unsure", escape(l.effect));
  if (!l.effect_flag.empty())
    fmt::format_to(out_it(out), "<p class=\"effect unsure\">not a finding: {}</p>\n", escape(l.effect_flag));
  if (!l.bars.empty()) out += profile_bars_svg(l.bars, l.unit, false);
  out += "</figure>\n";
}

void html_gpu(std::string& out, const gpu_profile& g) {
  fmt::format_to(out_it(out), "<section class=\"gpu\">\n<h1>{}</h1>\n", escape(g.title));
  html_identity(out, g);
  if (!g.builds.builds.empty()) {
    fmt::format_to(out_it(out), "<h2>The builds side by side: each figure per build (its interval in brackets), the "
                   "ratios to {} shaded only where compare's test calls the difference</h2>\n", escape(g.builds.builds.front()));
    out += profile_builds_html(g.builds);
    fmt::format_to(out_it(out), "<p class=\"note\">{}; outlined: unsure. The charts below "
                   "are the {} build's.</p>\n", escape(g.builds.note), escape(g.builds.builds.front()));
  }
  out += "<h2>Latency ladder: one dependent load (ns; whiskers: the row's interval)</h2>\n<figure>";
  out += profile_bars_svg(g.ladder, "ns", false);
  out += "</figure>\n<h2>Bandwidth by level, against each level's ceiling (grey)</h2>\n<figure>";
  out += profile_bars_svg(g.levels, "GB/s", true);
  out += "</figure>\n<h2>The lessons' effects (decided as compare decides)</h2>\n<div class=\"lessons\">\n";
  for (const profile_lesson& l : g.lessons) html_lesson(out, l);
  out += "</div>\n<h2>Notes</h2>\n<ul class=\"notes\">\n";
  for (const std::string& n : g.notes) fmt::format_to(out_it(out), "<li>{}</li>\n", escape(n));
  out += "<li>hatched grey, in brown: no finding (error, unconverged, throttled, few samples, at the timing floor, "
         "not measured); an effect is stated only where compare's test calls it</li>\n</ul>\n</section>\n";
}

std::string md_value(const profile_value& v) {
  if (std::isnan(v.value)) return "-";
  const std::string n = format_value(v.value);
  return v.flag.empty() ? n : fmt::format("_{}_", n);
}

void md_values(std::string& out, const std::vector<profile_value>& vs, const std::string& unit, bool with_pct) {
  fmt::format_to(out_it(out), "| level | {} | interval |{} not a finding because | row |\n|---|---:|---|{}---|---|\n", unit,
                 with_pct ? " % of ceiling |" : "", with_pct ? "---:|" : "");
  for (const profile_value& v : vs) {
    const std::string pct = std::isnan(v.pct) ? "-" : fmt::format("{:.1f} % of {}", v.pct, markdown_text(v.ceiling));
    fmt::format_to(out_it(out), "| {} | {} | {} |{} {} | {} |\n", markdown_text(v.label), md_value(v), interval_text(v),
                   with_pct ? fmt::format(" {} |", pct) : std::string(), markdown_text(v.flag),
                   v.row.empty() ? std::string("-") : markdown_code(v.row));
  }
}

// The builds side by side, after the identity: values, ratios, how they were marked.
void md_builds(std::string& out, const build_comparison& b, const std::string& chart) {
  out += "\n## The builds side by side\n\n";
  if (!chart.empty()) fmt::format_to(out_it(out), "![build ratios]({})\n\n", markdown_link_target(chart));
  out += profile_builds_markdown(b);
  fmt::format_to(out_it(out), "\nEach figure is the {0} build's row and the same benchmark in the other builds; ratios "
                 "{1}. The tables below are the {0} build's.\n", markdown_text(b.builds.front()), markdown_text(b.note));
}

}  // namespace

std::string render_profile_html(const std::vector<gpu_profile>& gpus) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  fmt::format_to(out_it(out), "<title>{}</title>\n", escape(gpus.size() == 1 ? gpus.front().title : "membench memory profiles"));
  out += page_style;
  out += "</head>\n<body>\n";
  for (const gpu_profile& g : gpus) html_gpu(out, g);
  out += "</body>\n</html>\n";
  return out;
}

std::string render_profile_markdown(const std::vector<gpu_profile>& gpus, const std::vector<std::string>& charts,
                                    const std::vector<std::string>& build_charts) {
  std::string out;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const gpu_profile& g = gpus[i];
    fmt::format_to(out_it(out), "# {}\n\n", markdown_text(g.title));
    if (i < charts.size() && !charts[i].empty())
      fmt::format_to(out_it(out), "![{}]({})\n\n", markdown_text(g.title), markdown_link_target(charts[i]));
    out += "| | |\n|---|---|\n";
    for (const auto& [what, value] : g.identity)
      fmt::format_to(out_it(out), "| {} | {} |\n", markdown_text(what), markdown_text(value));
    if (!g.builds.builds.empty()) md_builds(out, g.builds, i < build_charts.size() ? build_charts[i] : std::string());
    out += "\n## Latency ladder: one dependent load\n\n";
    md_values(out, g.ladder, "ns", false);
    out += "\n## Bandwidth by level\n\n";
    md_values(out, g.levels, "GB/s", true);
    out += "\n## The lessons' effects (decided as compare decides)\n\n";
    for (const profile_lesson& l : g.lessons) {
      fmt::format_to(out_it(out), "- **{}**: {}{}\n", markdown_text(l.title),
                     markdown_text(l.effect.empty() ? "-" : l.effect),
                     l.effect_flag.empty() ? "" : fmt::format(" — _not a finding: {}_", markdown_text(l.effect_flag)));
    }
    out += "\nItalic numbers are no finding (the column says why).\n\n";
    for (const std::string& n : g.notes) fmt::format_to(out_it(out), "- {}\n", markdown_text(n));
    out += "\n";
  }
  return out;
}

}  // namespace membench::report
