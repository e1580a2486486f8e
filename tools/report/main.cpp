// membench-report: comparison tables, CI verdicts, cross-build and cross-GPU views over
// membench's Google Benchmark JSON. Exit codes: 0 ok (no regression), 1 regression
// (compare), 2 unusable input or usage.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "model.hpp"
#include "render.hpp"
#include "views.hpp"

namespace {

using namespace membench::report;

enum exit_code : int { exit_ok = 0, exit_regression = 1, exit_unusable = 2 };

struct output_options {
  std::string format = "term";
  std::string output;
  std::string colour = "auto";
};

void add_output(CLI::App* cmd, output_options& o) {
  cmd->add_option("--format", o.format, "term, md, csv or html")->check(CLI::IsMember({"term", "md", "csv", "html"}));
  cmd->add_option("-o,--output", o.output, "write here instead of standard output");
  cmd->add_option("--color", o.colour, "auto, always or never (terminal format)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

int emit(const document& d, const output_options& o) {
  const format f = o.format == "md" ? format::markdown : o.format == "csv" ? format::csv
                   : o.format == "html" ? format::html : format::terminal;
  const bool tty = o.output.empty() && isatty(STDOUT_FILENO) != 0 && std::getenv("NO_COLOR") == nullptr;
  const bool colour = o.colour == "always" || (o.colour == "auto" && tty);
  const std::string text = render(d, f, colour);
  if (o.output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return exit_ok;
  }
  std::ofstream out(o.output, std::ios::binary);
  out << text;
  if (!out) {
    std::fprintf(stderr, "membench-report: cannot write %s\n", o.output.c_str());
    return exit_unusable;
  }
  return exit_ok;
}

// Files parse independently: one thread each (a CI compare reads two large files).
// The arguments every view over several files shares.
CLI::App* add_view(CLI::App& app, const char* name, const char* what, const char* files_help,
                   std::vector<std::string>& paths, common_options& opt, output_options& out) {
  CLI::App* cmd = app.add_subcommand(name, what);
  cmd->add_option("files", paths, files_help)->required()->check(CLI::ExistingFile);
  cmd->add_option("--value", opt.value, "time or a counter (gb_per_s, pct_peak, noise_pct, ...)");
  cmd->add_option("--filter", opt.filter, "regular expression searched in benchmark names");
  add_output(cmd, out);
  return cmd;
}

std::vector<result_file> load_all(const std::vector<std::string>& paths) {
  std::vector<std::future<result_file>> pending;
  for (const auto& p : paths) pending.push_back(std::async(std::launch::async, [p] { return load_results(p); }));
  std::vector<result_file> files;
  for (auto& f : pending) files.push_back(f.get());  // rethrows the first input_error
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"membench-report: tables, CI verdicts, cross-build and cross-GPU views of membench JSON.\n"
               "Exit codes: 0 ok, 1 regression (compare), 2 unusable input or usage."};
  app.require_subcommand(1);
  output_options out;
  std::vector<std::string> paths;

  table_options topt;
  auto* table_cmd = add_view(app, "table", "pivot any files on two keys of the benchmark names",
                             "Google Benchmark JSON files", paths, topt, out);
  table_cmd->add_option("--rows", topt.rows, "key for the rows (a name key such as bytes, offset, stride; or build, gpu, file)");
  table_cmd->add_option("--cols", topt.cols, "key for the columns");

  common_options bopt;
  auto* builds_cmd = add_view(app, "builds", "default, ca and cg builds side by side, with ratios",
                              "one JSON file per build", paths, bopt, out);

  gpus_options gopt;
  auto* gpus_cmd = add_view(app, "gpus", "several GPUs side by side, absolute and as % of each one's peak",
                            "one JSON file per GPU", paths, gopt, out);
  gpus_cmd->add_option("--build", gopt.build, "which build's files (default, ca, cg)");

  compare_options copt;
  std::string base_path, new_path;
  auto* compare_cmd = app.add_subcommand("compare", "BASE against NEW: change, noise-aware verdict, exit 1 on a regression");
  compare_cmd->add_option("base", base_path, "baseline JSON")->required()->check(CLI::ExistingFile);
  compare_cmd->add_option("new", new_path, "new JSON")->required()->check(CLI::ExistingFile);
  compare_cmd->add_option("--threshold", copt.threshold_pct, "percent change in time that counts (default 5)")
      ->check(CLI::Range(0.0, 1000.0));
  compare_cmd->add_option("--resolution", copt.resolution_us,
                          "smallest change in microseconds that can count (default 0.5, the timing's resolution for "
                          "kernels of a few us)")
      ->check(CLI::Range(0.0, 1e9));
  compare_cmd->add_option("--filter", copt.filter, "regular expression searched in benchmark names");
  compare_cmd->add_flag("--all", copt.show_all, "list unchanged benchmarks too");
  add_output(compare_cmd, out);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? exit_ok : exit_unusable;
  }
  try {
    if (*table_cmd) return emit(view_table(load_all(paths), topt), out);
    if (*builds_cmd) return emit(view_builds(load_all(paths), bopt), out);
    if (*gpus_cmd) return emit(view_gpus(load_all(paths), gopt), out);
    const std::vector<result_file> both = load_all({base_path, new_path});
    const compare_outcome c = view_compare(both[0], both[1], copt);
    if (const int rc = emit(c.doc, out); rc != exit_ok) return rc;
    if (c.unusable > 0) {
      std::fprintf(stderr, "membench-report: %d benchmark(s) missing or errored: unusable for a verdict\n", c.unusable);
      return exit_unusable;
    }
    if (c.slower > 0) {
      std::fprintf(stderr, "membench-report: %d benchmark(s) slower by more than %g %%\n", c.slower, copt.threshold_pct);
      return exit_regression;
    }
    return exit_ok;
  } catch (const input_error& e) {
    std::fprintf(stderr, "membench-report: %s\n", e.what());
    return exit_unusable;
  } catch (const std::exception& e) {  // out of memory, a regex too complex to match, ...
    std::fprintf(stderr, "membench-report: %s\n", e.what());
    return exit_unusable;
  }
}
