// membench-report fleet: its options bound to the options table, folders expanded to their
// JSON files, the baseline read, and the exit code (1 when a GPU is an outlier).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "cli_options.hpp"
#include "commands.hpp"
#include "escape.hpp"

namespace membench::report {
namespace {

namespace o = options;
namespace fs = std::filesystem;

// The files an argument names: itself, or for a folder every .json below it (sorted, so
// that the order of the GPUs does not depend on the file system). throws input_error
std::vector<std::string> files_of(const std::string& arg, const session& s) {
  std::error_code ec;
  const fs::path where(s.locate(arg));
  if (!fs::is_directory(where, ec)) return {arg};
  std::vector<std::string> out;
  for (fs::recursive_directory_iterator it(where, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".json")
      out.push_back((fs::path(arg) / fs::relative(it->path(), where, ec)).string());
  }
  if (ec) throw input_error(fmt::format("{}: cannot list ({})", arg, ec.message()));
  if (out.empty()) throw input_error(fmt::format("{}: a folder without .json files", arg));
  std::sort(out.begin(), out.end());
  return out;
}

fleet_baseline read_baseline(const std::string& path, session& s) {
  const std::string where = s.locate(path);
  std::ifstream in(where, std::ios::binary);
  if (!in || fs::is_directory(where)) throw input_error(fmt::format("{}: cannot open", path));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  s.inputs.push_back(where);
  return parse_baseline(text, path);
}

}  // namespace

CLI::App* add_fleet(CLI::App& app, fleet_args& a) {
  option_binder b(app, "fleet");
  compare_options& t = a.opt.test;
  b(o::fleet_files, a.files)(o::fleet_threshold, t.threshold_pct)(o::outlier_share, a.opt.outlier_share_pct);
  b(o::one_row_threshold, a.opt.one_row_threshold_pct);
  b(o::confidence, t.confidence_pct)(o::resolution, t.resolution_us)(o::run_spread, t.run_spread_pct);
  b(o::run_spread_copy, t.run_spread_copy_pct)(o::run_spread_host, t.run_spread_host_pct);
  b(o::run_spread_us, t.run_spread_us)(o::fleet_calibration_runs, a.opt.calibration_runs)(o::correction, t.family);
  b(o::allow_mixed, a.opt.allow_mixed)(o::baseline_in, a.baseline)(o::baseline_out, a.baseline_out);
  b(o::baseline_format, a.opt.baseline_format)(o::filter, t.filter)(o::fleet_all, t.show_all);
  b(o::fleet_format, a.out.format)(o::output, a.out.output)(o::color, a.out.colour);
  return b.done();
}

int run_fleet(fleet_args a, session& s) {
  a.opt.test.as_json = a.out.format == "json";
  a.opt.make_baseline = !a.baseline_out.empty();
  std::vector<std::string> paths;  // a file named twice (itself and by its folder) is one run
  for (const std::string& arg : a.files) {
    for (std::string& p : files_of(arg, s)) {
      if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(std::move(p));
    }
  }
  const fleet_baseline against = a.baseline.empty() ? fleet_baseline{} : read_baseline(a.baseline, s);
  const file_refs files = s.load(paths, compare_reads());
  const fleet_outcome f = view_fleet(files, a.opt, a.baseline.empty() ? nullptr : &against);
  if (a.opt.make_baseline) {
    if (const int rc = write_text(f.baseline, a.baseline_out, s); rc != exit_ok) return rc;
  }
  const int rc = a.opt.test.as_json ? write_text(f.json, a.out.output, s) : emit(f.doc, a.out, s);
  if (rc != exit_ok) return rc;
  for (const std::string& name : f.outlier_names) std::fprintf(stderr, "membench-report: outlier: %s\n", terminal_text(name).c_str());
  if (f.unsure > 0) std::fprintf(stderr, "membench-report: %d GPU(s) unsure (listed)\n", f.unsure);
  return f.outliers > 0 ? exit_regression : exit_ok;
}

}  // namespace membench::report
