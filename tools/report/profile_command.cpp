// profile's command: the page, and for Markdown written to a file each GPU's chart beside it.
#include <filesystem>

#include <fmt/format.h>

#include "commands.hpp"
#include "profile.hpp"

namespace membench::report {

int run_profile(const profile_args& a, session& s) {
  const std::vector<gpu_profile> gpus = build_profiles(s.load(a.files, profile_reads()));
  s.release();
  if (a.format == "html") return write_text(render_profile_html(gpus), a.output, s);
  // Markdown cannot hold an SVG inline where most viewers show it: each chart goes into a
  // file beside the page (FILE.gpuN.svg), linked by its name. On standard output, none.
  std::vector<std::string> charts(gpus.size()), build_charts(gpus.size());
  if (!a.output.empty()) {
    const std::filesystem::path page(a.output);
    const auto beside = [&](const std::string& svg, const std::string& name, std::string& link) {
      link = name;
      return write_text(svg, (page.parent_path() / name).string(), s);
    };
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      const std::string stem = fmt::format("{}.gpu{}", page.stem().string(), i);
      if (const int rc = beside(profile_summary_svg(gpus[i]), stem + ".svg", charts[i]); rc != exit_ok) return rc;
      if (gpus[i].builds.builds.empty()) continue;
      if (const int rc = beside(profile_builds_svg(gpus[i].builds), stem + ".builds.svg", build_charts[i]); rc != exit_ok)
        return rc;
    }
  }
  return write_text(render_profile_markdown(gpus, charts, build_charts), a.output, s);
}

}  // namespace membench::report
