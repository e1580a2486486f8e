// profile's command: the page, and for Markdown written to a file each GPU's chart beside it;
// clock's: the SM clock readings the page's identity gives, a row per run.
#include <filesystem>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "clock/clock.hpp"
#include "profile/profile.hpp"

namespace membench::report {

int run_profile(const profile_args& a, session& s) {
  const std::vector<gpu_profile> gpus = build_profiles(s.load(a.files, profile_reads()));
  s.release();
  if (a.format == "html") return write_text(render_profile_html(gpus), a.output, s);
  // Markdown cannot hold an SVG inline where most viewers show it: each chart goes into a
  // file beside the page (FILE.gpuN.svg), linked by its name. On standard output, none.
  std::vector<std::string> charts(gpus.size()), build_charts(gpus.size());
  if (a.output.empty()) return write_text(render_profile_markdown(gpus, charts, build_charts), a.output, s);
  // The page and its charts as one set: a full disk leaves the old set, never a page that
  // disagrees with its charts.
  const std::filesystem::path page(a.output);
  std::vector<std::pair<std::string, std::string>> files;
  const auto beside = [&](std::string svg, const std::string& name, std::string& link) {
    link = name;
    files.emplace_back((page.parent_path() / name).string(), std::move(svg));
  };
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const std::string stem = fmt::format("{}.gpu{}", page.stem().string(), i);
    beside(profile_summary_svg(gpus[i]), stem + ".svg", charts[i]);
    if (!gpus[i].builds.builds.empty()) beside(profile_builds_svg(gpus[i].builds), stem + ".builds.svg", build_charts[i]);
  }
  files.emplace_back(a.output, render_profile_markdown(gpus, charts, build_charts));
  return write_files(files, s);
}

int run_clock(const clock_args& a, session& s) {
  const file_refs files = s.load(a.files, read_options{});
  if (a.out.format == "json") return write_text(clock_json(files), a.out.output, s);
  const document d = view_clock(files);
  s.release();
  return emit(d, a.out, s);
}

}  // namespace membench::report
