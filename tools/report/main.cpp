// membench-report: comparison tables, CI verdicts, histories, cross-build and cross-GPU
// views over Google Benchmark JSON (membench's or any program's). Exit codes: 0 ok (no
// regression), 1 regression (compare; history never fails on a change; views --check: a
// view differs), 2 unusable input or usage.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/schema.hpp"
#include "model.hpp"
#include "render.hpp"
#include "view_sets.hpp"
#include "views.hpp"

namespace {

using namespace membench::report;

enum exit_code : int { exit_ok = 0, exit_regression = 1, exit_unusable = 2 };

// Where one command runs: on its own, or as a step of `views` (paths relative to a result
// folder, output collected, files read once for all steps).
struct session {
  std::string dir;                  // relative paths resolve here; "" = as given
  std::string* capture = nullptr;   // the output goes here instead of stdout or -o
  std::map<std::string, result_file> cache;  // views: every file read whole, once

  std::string locate(const std::string& path) const {
    return dir.empty() || path.empty() || path.front() == '/' ? path : dir + "/" + path;
  }
  // Reads files at once, each on every core (one file's serial steps overlap another's
  // parsing); in views, from the cache.
  std::vector<result_file> load(const std::vector<std::string>& paths, const read_options& what) {
    std::vector<result_file> files;
    if (dir.empty()) {
      std::vector<std::future<result_file>> pending;
      for (const auto& p : paths) pending.push_back(std::async(std::launch::async, [p, &what] { return load_results(p, what); }));
      for (auto& f : pending) files.push_back(f.get());  // rethrows the first input_error
      return files;
    }
    for (const auto& p : paths) {
      auto it = cache.find(p);
      if (it == cache.end()) {
        it = cache.emplace(p, load_results(locate(p))).first;
        it->second.path = p;  // shown as the views file names it
      }
      files.push_back(it->second);
    }
    return files;
  }
};

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

int write_text(const std::string& text, const std::string& output, session& s) {
  if (s.capture != nullptr && output.empty()) {
    *s.capture += text;
    return exit_ok;
  }
  if (output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return exit_ok;
  }
  std::ofstream out(s.locate(output), std::ios::binary);
  out << text;
  if (!out) {
    std::fprintf(stderr, "membench-report: cannot write %s\n", output.c_str());
    return exit_unusable;
  }
  return exit_ok;
}

int emit(const document& d, const output_options& o, session& s) {
  const format f = o.format == "md" ? format::markdown : o.format == "csv" ? format::csv
                   : o.format == "html" ? format::html : format::terminal;
  const bool tty = s.capture == nullptr && o.output.empty() && isatty(STDOUT_FILENO) != 0 &&
                   std::getenv("NO_COLOR") == nullptr;
  const bool colour = o.colour == "always" || (o.colour == "auto" && tty);
  return write_text(render(d, f, colour), o.output, s);
}

// The arguments every view over several files shares.
CLI::App* add_view(CLI::App& app, const char* name, const char* what, const char* files_help,
                   std::vector<std::string>& paths, common_options& opt, output_options& out) {
  CLI::App* cmd = app.add_subcommand(name, what);
  cmd->add_option("files", paths, files_help)->required();
  cmd->add_option("--value", opt.value,
                  "time or a counter (gb_per_s, pct_peak, noise_pct, ...); default gb_per_s where rows have it, else time");
  cmd->add_option("--filter", opt.filter, "regular expression searched in benchmark names");
  add_output(cmd, out);
  return cmd;
}

// compare's test, shared with history.
void add_test_options(CLI::App* cmd, compare_options& c) {
  cmd->add_option("--threshold", c.threshold_pct, "percent change in time that counts (default 5)")
      ->check(CLI::Range(0.0, 1000.0));
  cmd->add_option("--margin", c.margin_pct,
                  "percent the interval of a change must clear to call it slower or faster (default 0: it must "
                  "exclude no change)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--resolution", c.resolution_us,
                  "smallest change in microseconds that can count (default 0.5, what the timing resolves for kernels "
                  "of a few us)")
      ->check(CLI::Range(0.0, 1e9));
  cmd->add_option("--clock-tolerance", c.clock_tolerance_pct,
                  "percent the sides' SM clocks may differ before a verdict is unsure (default 3)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--run-spread", c.run_spread_pct,
                  "assumed run-to-run spread of a kernel row's median in percent, the least a run counts for (default "
                  "0.5)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--run-spread-copy", c.run_spread_copy_pct,
                  "the same for rows that time copy engines (label work:copy; default 4)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--run-spread-host", c.run_spread_host_pct,
                  "the same for rows with host or driver work in their samples (work:host; default 15)")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--calibration-runs", c.calibration_runs,
                  "a side with at least this many runs of a benchmark measures its run-to-run spread, which then "
                  "replaces the floors above (default 8; 0: never)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--confidence", c.confidence_pct, "level of the interval of each change in percent (default 95)")
      ->check(CLI::Range(50.0, 99.9999));
  cmd->add_option("--seed", c.seed, "seeds the bootstraps (default 1)");
  cmd->add_option("--correction", c.family,
                  "bh (default): the benchmarks compared together are one family, Benjamini-Hochberg keeps the false "
                  "slower/faster calls at most 100 - confidence % of the calls (none in a comparison of unchanged code "
                  "with that chance); none: each benchmark alone at --confidence")
      ->transform(CLI::CheckedTransformer(std::map<std::string, correction>{{"bh", correction::bh}, {"none", correction::none}}));
}

int run_views(const std::string& dir, const std::string& views_file, bool check, const std::vector<std::string>& only);

// One membench-report command line. `s` says where it runs.
int run_command(std::vector<std::string> args, session& s) {
  CLI::App app{"membench-report: tables, CI verdicts, histories, cross-build and cross-GPU views of Google Benchmark "
               "JSON.\nExit codes: 0 ok, 1 regression (compare) or a view that differs (views --check), 2 unusable "
               "input or usage."};
  app.require_subcommand(1);
  output_options out;
  std::vector<std::string> paths;

  table_options topt;
  auto* table_cmd = add_view(app, "table", "pivot any files on two keys of the benchmark names",
                             "Google Benchmark JSON files", paths, topt, out);
  table_cmd->add_option("--rows", topt.rows,
                        "key for the rows (a name key such as bytes, offset, arg0; or build, gpu, file, experiment); "
                        "default bytes, else the first key that varies");
  table_cmd->add_option("--cols", topt.cols, "key for the columns; default build (membench files), else file or the next key that varies");

  common_options bopt;
  auto* builds_cmd = add_view(app, "builds", "default, ca and cg builds side by side, with ratios",
                              "one JSON file per build", paths, bopt, out);

  gpus_options gopt;
  auto* gpus_cmd = add_view(app, "gpus", "several GPUs side by side, absolute and as % of each one's peak",
                            "one JSON file per GPU", paths, gopt, out);
  gpus_cmd->add_option("--build", gopt.build, "which build's files (default, ca, cg)");

  compare_options copt;
  std::vector<std::string> base_paths, new_paths;
  std::string unsure = "warn";
  auto* compare_cmd = app.add_subcommand(
      "compare", "BASE against NEW: change, interval and verdict per benchmark; exit 1 on a regression");
  compare_cmd->add_option("files", paths, "BASE NEW; with --base, the NEW files; with --new only, the BASE files");
  // One file a flag: what follows the last --base is NEW.
  compare_cmd->add_option("--base", base_paths, "a BASE file (repeat for several runs of the baseline)")
      ->allow_extra_args(false);
  compare_cmd->add_option("--new", new_paths, "a NEW file (repeat for several runs)")->allow_extra_args(false);
  add_test_options(compare_cmd, copt);
  compare_cmd->add_option("--unsure", unsure, "warn (default): unsure benchmarks are listed; fail: they fail like slower ones")
      ->check(CLI::IsMember({"warn", "fail"}));
  compare_cmd->add_flag("--allow-missing", copt.allow_missing,
                        "a benchmark missing or errored on either side is noted instead of making the input unusable");
  compare_cmd->add_option("--filter", copt.filter, "regular expression searched in benchmark names");
  compare_cmd->add_flag("--all", copt.show_all, "list unchanged benchmarks too");
  add_output(compare_cmd, out);

  history_options hopt;
  std::string export_format;
  auto* history_cmd = add_view(app, "history", "the same benchmarks over runs in time, changes marked by compare's test",
                               "one JSON file per run (ordered by their context's date and commit)", paths, hopt, out);
  add_test_options(history_cmd, hopt.test);
  history_cmd->add_option("--export", export_format,
                          "instead of the trend: the newest run as bmf (Bencher Metric Format) or gab "
                          "(github-action-benchmark customSmallerIsBetter) JSON")
      ->check(CLI::IsMember({"bmf", "gab"}));

  std::string views_dir, views_file;
  bool views_check = false;
  std::vector<std::string> views_only;
  auto* views_cmd = app.add_subcommand("views", "the standard views of a result folder, from a views file (reports/views.json)");
  views_cmd->add_option("dir", views_dir, "the result folder")->required();
  views_cmd->add_option("--views", views_file, "the views file (default: views.json in DIR or the nearest parent)");
  views_cmd->add_flag("--check", views_check, "write nothing: exit 1 when a view differs from its file");
  views_cmd->add_option("--only", views_only, "make only the view of this name (repeat for several)")
      ->allow_extra_args(false);

  std::string schema_table;
  auto* schema_cmd = app.add_subcommand("schema", "the JSON schema's tables as Markdown (the README's)");
  schema_cmd->add_option("table", schema_table, "name-keys, counters, labels, context, options or exit-codes (default: all)");

  try {
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? exit_ok : exit_unusable;
  }
  try {
    if (*table_cmd) return emit(view_table(s.load(paths, reads_for(topt)), topt), out, s);
    if (*builds_cmd) return emit(view_builds(s.load(paths, reads_for(bopt)), bopt), out, s);
    if (*gpus_cmd) return emit(view_gpus(s.load(paths, reads_for(gopt)), gopt), out, s);
    if (*history_cmd) {
      const std::vector<result_file> files = s.load(paths, reads_for(hopt, true));
      if (export_format.empty()) return emit(view_history(files, hopt), out, s);
      const result_file& newest = *history_order(files).back();
      return write_text(export_format == "bmf" ? export_bmf(newest, hopt) : export_gab(newest, hopt), out.output, s);
    }
    if (*views_cmd) return run_views(views_dir, views_file, views_check, views_only);
    if (*schema_cmd) {
      std::string text;
      for (const std::string_view name : membench::schema::table_names()) {
        if (!schema_table.empty() && name != schema_table) continue;
        text += schema_table.empty() ? fmt::format("### {}\n\n{}\n", name, membench::schema::markdown_table(name))
                                     : membench::schema::markdown_table(name);
      }
      if (text.empty()) {
        std::string names;
        for (const std::string_view n : membench::schema::table_names()) names += fmt::format(" {}", n);
        throw input_error(fmt::format("schema: no table '{}' (tables:{})", schema_table, names));
      }
      return write_text(text, "", s);
    }
    // compare: BASE NEW, or --base ... with NEW files as arguments or --new.
    if (base_paths.empty() && new_paths.empty()) {
      if (paths.size() != 2) throw input_error("compare takes BASE NEW, or --base FILE... with NEW files");
      base_paths = {paths[0]};
      new_paths = {paths[1]};
    } else {
      (base_paths.empty() ? base_paths : new_paths).insert((base_paths.empty() ? base_paths : new_paths).end(),
                                                            paths.begin(), paths.end());
      if (base_paths.empty() || new_paths.empty()) throw input_error("compare needs BASE and NEW files");
    }
    copt.unsure_fails = unsure == "fail";
    const std::vector<result_file> b = s.load(base_paths, compare_reads());
    const std::vector<result_file> n = s.load(new_paths, compare_reads());
    std::vector<const result_file*> bp, np;
    for (const auto& f : b) bp.push_back(&f);
    for (const auto& f : n) np.push_back(&f);
    const compare_outcome c = view_compare(bp, np, copt);
    if (const int rc = emit(c.doc, out, s); rc != exit_ok) return rc;
    if (c.unusable > 0) {
      std::fprintf(stderr, "membench-report: %d benchmark(s) missing or errored: unusable for a verdict\n", c.unusable);
      return exit_unusable;
    }
    if (c.slower > 0 || (copt.unsure_fails && c.unsure > 0)) {
      if (c.slower > 0)
        std::fprintf(stderr, "membench-report: %d benchmark(s) slower by at least %g %%, beyond the noise\n", c.slower,
                     copt.threshold_pct);
      if (copt.unsure_fails && c.unsure > 0)
        std::fprintf(stderr, "membench-report: %d benchmark(s) unsure (--unsure=fail)\n", c.unsure);
      return exit_regression;
    }
    if (c.unsure > 0) std::fprintf(stderr, "membench-report: %d benchmark(s) unsure (listed)\n", c.unsure);
    return exit_ok;
  } catch (const std::exception& e) {  // input_error; out of memory, a regex too complex to match, ...
    std::fprintf(stderr, "membench-report: %s\n", e.what());
    return exit_unusable;
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(fmt::format("{}: cannot open", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Makes (or with `check`, compares) every view of a folder whose inputs it has.
int run_views(const std::string& dir, const std::string& views_file, bool check, const std::vector<std::string>& only) {
  const std::string file = views_file.empty() ? find_views_file(dir) : views_file;
  if (file.empty()) throw input_error(fmt::format("{}: no views.json here or in a parent folder (--views FILE)", dir));
  const std::vector<view_spec> specs = parse_view_specs(read_file(file), file);
  session s;
  s.dir = dir;
  int made = 0, differ = 0;
  for (const view_spec& v : specs) {
    if (!only.empty() && std::find(only.begin(), only.end(), v.name) == only.end()) continue;
    std::map<std::string, std::vector<std::string>> inputs;
    std::string missing;
    for (const auto& [name, in] : v.inputs) {
      inputs[name] = resolve_input(dir, in);
      if (inputs[name].empty() && !in.optional && missing.empty()) missing = in.any_of.empty() ? name : in.any_of.front();
    }
    if (!missing.empty()) {
      std::fprintf(stderr, "views: %s: skipped (no %s)\n", v.name.c_str(), missing.c_str());
      continue;
    }
    if (!v.if_rows.empty()) {
      const std::regex rows(v.if_rows);
      bool any = false;
      for (const auto& [name, files] : inputs) {
        for (const result_file& f : s.load(files, {})) {
          any = any || std::any_of(f.results.begin(), f.results.end(),
                                   [&](const result& r) { return std::regex_search(r.name, rows); });
        }
      }
      if (!any) {
        std::fprintf(stderr, "views: %s: skipped (no benchmark matches %s)\n", v.name.c_str(), v.if_rows.c_str());
        continue;
      }
    }
    std::string text;
    s.capture = &text;
    for (const view_step& step : v.steps) {
      if (step.args.empty()) {
        text += step.text + "\n";
        continue;
      }
      const auto args = expand_step(step, inputs);
      if (!args) continue;  // an optional input this folder does not have
      const int rc = run_command(*args, s);
      if (rc != exit_ok && rc != exit_regression) {  // a regression is a finding, not a failure
        std::fprintf(stderr, "views: %s: '%s' failed\n", v.name.c_str(), fmt::format("{}", fmt::join(*args, " ")).c_str());
        return exit_unusable;
      }
    }
    s.capture = nullptr;
    ++made;
    const std::string target = s.locate(v.output);
    if (check) {
      std::string old;
      try {
        old = read_file(target);
      } catch (const input_error&) {
        old = "\x01missing";
      }
      if (old != text) {
        ++differ;
        std::fprintf(stderr, "views: %s: %s %s\n", v.name.c_str(), v.output.c_str(),
                     old == "\x01missing" ? "is missing" : "differs");
      }
      continue;
    }
    if (const int rc = write_text(text, v.output, s); rc != exit_ok) return rc;
    std::fprintf(stderr, "views: %s -> %s\n", v.name.c_str(), target.c_str());
  }
  if (check) std::fprintf(stderr, "views: %d made, %d differ\n", made, differ);
  return differ > 0 ? exit_regression : exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  session s;
  try {
    return run_command(std::vector<std::string>(argv + 1, argv + argc), s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "membench-report: %s\n", e.what());
    return exit_unusable;
  }
}
