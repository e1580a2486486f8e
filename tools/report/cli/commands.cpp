#include "cli/commands.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/cli_options.hpp"
#include "common/schema.hpp"
#include "core/dates.hpp"
#include "core/escape.hpp"
#include "core/input_text.hpp"
#include "render/test_report.hpp"

namespace membench::report {
namespace {

namespace o = options;

// The options every view over files shares, in the tables' order.
void bind_view(option_binder& b, std::vector<std::string>& files, const option_spec& files_spec, common_options& opt,
               output_options& out) {
  b(files_spec, files)(o::value, opt.value)(o::filter, opt.filter);
  b(o::format, out.format)(o::output, out.output)(o::color, out.colour);
}

// compare's test, shared with history.
void bind_test(option_binder& b, compare_options& c) {
  b(o::threshold, c.threshold_pct)(o::margin, c.margin_pct)(o::resolution, c.resolution_us);
  b(o::clock_tolerance, c.clock_tolerance_pct)(o::run_spread, c.run_spread_pct);
  b(o::run_spread_copy, c.run_spread_copy_pct)(o::run_spread_host, c.run_spread_host_pct);
  b(o::run_spread_us, c.run_spread_us);
  b(o::calibration_runs, c.calibration_runs)(o::confidence, c.confidence_pct)(o::seed, c.seed);
  b(o::correction, c.family);
}

CLI::App* add_compare(CLI::App& app, compare_args& a) {
  option_binder b(app, "compare");
  b(o::compare_files, a.files)(o::base_files, a.base)(o::next_files, a.next);
  bind_test(b, a.opt);
  b(o::unsure, a.unsure)(o::allow_missing, a.opt.allow_missing)(o::pairs, a.pairs)(o::filter, a.opt.filter);
  b(o::show_all, a.opt.show_all)(o::compare_format, a.out.format)(o::output, a.out.output)(o::color, a.out.colour);
  return b.done();
}

CLI::App* add_p2p(CLI::App& app, p2p_args& a) {
  option_binder b(app, "p2p");
  b(o::p2p_files, a.files)(o::p2p_value, a.opt.value)(o::filter, a.opt.filter);
  b(o::p2p_format, a.out.format)(o::output, a.out.output)(o::color, a.out.colour);
  return b.done();
}

CLI::App* add_history(CLI::App& app, history_args& a) {
  option_binder b(app, "history");
  bind_view(b, a.files, o::history_files, a.opt, a.out);
  bind_test(b, a.opt.test);
  b(o::export_format, a.export_format);
  CLI::App* cmd = b.done();
  a.cmd = cmd;
  return cmd;
}

// An export writes the newest run's times for a tracking service: history's test (change
// marks), its format and colour do not apply, nor --value to gab's times.
void check_export_options(const history_args& a) {
  if (a.cmd == nullptr) return;
  std::vector<std::string> moot = given_options(
      *a.cmd, {&o::threshold, &o::margin, &o::resolution, &o::clock_tolerance, &o::run_spread, &o::run_spread_copy,
               &o::run_spread_host, &o::run_spread_us, &o::calibration_runs, &o::confidence, &o::seed, &o::correction,
               &o::format, &o::color});
  if (a.export_format == "gab" && !given_options(*a.cmd, {&o::value}).empty()) moot.push_back("--value");
  if (!moot.empty())
    throw input_error(fmt::format("history --export={}: {} would not apply to the export; leave {} out",
                                  a.export_format, fmt::join(moot, ", "), moot.size() == 1 ? "it" : "them"));
}

}  // namespace

std::vector<command_set::registered> command_set::add_to(CLI::App& app, command_runner step) {
  std::vector<registered> out;
  option_binder table(app, "table");
  bind_view(table, table_.files, o::table_files, table_.opt, table_.out);
  table(o::rows, table_.opt.rows)(o::cols, table_.opt.cols);
  out.push_back({table.done(), [this](session& s) { return run_table(table_, s); }});
  option_binder builds(app, "builds");
  bind_view(builds, builds_.files, o::builds_files, builds_.opt, builds_.out);
  out.push_back({builds.done(), [this](session& s) { return run_builds(builds_, s); }});
  option_binder gpus(app, "gpus");
  bind_view(gpus, gpus_.files, o::gpus_files, gpus_.opt, gpus_.out);
  gpus(o::gpus_build, gpus_.opt.build);
  out.push_back({gpus.done(), [this](session& s) { return run_gpus(gpus_, s); }});
  out.push_back({add_p2p(app, p2p_), [this](session& s) { return run_p2p(p2p_, s); }});
  out.push_back({add_compare(app, compare_), [this](session& s) { return run_compare(compare_, s); }});
  out.push_back({add_history(app, history_), [this](session& s) { return run_history(history_, s); }});
  out.push_back({add_fleet(app, fleet_), [this](session& s) { return run_fleet(fleet_, s); }});
  option_binder profile(app, "profile");
  profile(o::profile_files, profile_.files)(o::profile_format, profile_.format)(o::output, profile_.output);
  out.push_back({profile.done(), [this](session& s) { return run_profile(profile_, s); }});
  option_binder clock(app, "clock");
  clock(o::clock_files, clock_.files)(o::clock_format, clock_.out.format)(o::output, clock_.out.output)(o::color, clock_.out.colour);
  out.push_back({clock.done(), [this](session& s) { return run_clock(clock_, s); }});
  option_binder rows(app, "rows");
  rows(o::rows_files, rows_.files)(o::filter, rows_.filter)(o::output, rows_.output);
  out.push_back({rows.done(), [this](session& s) { return run_rows(rows_, s); }});
  option_binder views(app, "views");
  views(o::views_dir, views_.dir)(o::views_file, views_.views_file)(o::views_check, views_.check)(o::views_only, views_.only);
  out.push_back({views.done(), [this, step](session& s) {
                   // A step that runs views would run the same steps again, without end.
                   if (s.in_views) throw input_error("views: a step of a view cannot run views");
                   return run_views(views_, step);
                 }});
  option_binder schema(app, "schema");
  out.push_back({schema(o::schema_table, schema_.table).done(), [this](session& s) { return run_schema(schema_, s); }});
  option_binder opts(app, "options");
  opts(o::options_command, options_.command)(o::options_format, options_.format);
  out.push_back({opts.done(), [this](session& s) { return run_options(options_, s); }});
  return out;
}

int run_table(const table_args& a, session& s) {
  table_options opt = a.opt;
  opt.charts = a.out.format == "html";
  const document d = view_table(s.load(a.files, reads_for(opt)), opt);
  s.release();
  return emit(d, a.out, s);
}

int run_builds(const builds_args& a, session& s) {
  read_options what = reads_for(a.opt, true);  // evidence and the work done: the marks' test
  what.counters.emplace_back(membench::schema::counter("bytes").key);
  const document d = view_builds(s.load(a.files, what), a.opt);
  s.release();
  return emit(d, a.out, s);
}

int run_gpus(const gpus_args& a, session& s) {
  const document d = view_gpus(s.load(a.files, gpus_reads(a.opt)), a.opt);
  s.release();
  return emit(d, a.out, s);
}

int run_p2p(const p2p_args& a, session& s) {
  const file_refs files = s.load(a.files, p2p_reads(a.opt));
  if (a.out.format == "json") return write_text(p2p_json(files, a.opt), a.out.output, s);
  return emit(view_p2p(files, a.opt), a.out, s);
}

int run_history(const history_args& a, session& s) {
  if (!a.export_format.empty()) check_export_options(a);
  const file_refs files = s.load(a.files, reads_for(a.opt, true));
  history_options opt = a.opt;
  opt.charts = a.out.format == "html";
  if (a.export_format.empty()) {
    const document d = view_history(files, opt);
    s.release();
    return emit(d, a.out, s);
  }
  const std::vector<const result_file*> order = history_order(files);
  // The newest run is the one exported: a run without a date cannot be placed among them.
  for (const result_file* f : order) {
    if (order.size() > 1 && std::isnan(date_seconds(f->context_value("date"))))
      throw input_error(fmt::format("history --export: {} has no date its context states ('{}'): which run is the "
                                    "newest is not known", f->path, f->context_value("date")));
  }
  const result_file& newest = *order.back();
  return write_text(a.export_format == "bmf" ? export_bmf(newest, a.opt) : export_gab(newest, a.opt), a.out.output, s);
}

int run_rows(const rows_args& a, session& s) {
  read_options every;
  every.evidence = true;
  return write_text(rows_json(s.load(a.files, every), a.filter), a.output, s);
}

int run_schema(const schema_args& a, session& s) {
  std::string text;
  for (const std::string_view name : membench::schema::table_names()) {
    if (!a.table.empty() && name != a.table) continue;
    text += a.table.empty() ? fmt::format("### {}\n\n{}\n", name, membench::schema::markdown_table(name))
                            : membench::schema::markdown_table(name);
  }
  if (text.empty()) {
    std::string names;
    for (const std::string_view n : membench::schema::table_names()) names += fmt::format(" {}", n);
    throw input_error(fmt::format("schema: no table '{}' (tables:{})", a.table, names));
  }
  return write_text(text, "", s);
}

namespace {

// Which files are BASE and which NEW: BASE NEW, or --base ... with NEW files as arguments
// or --new. throws input_error
void sort_sides(compare_args& a) {
  if (a.base.empty() && a.next.empty()) {
    if (a.files.size() != 2) throw input_error("compare takes BASE NEW, or --base FILE... with NEW files");
    a.base = {a.files[0]};
    a.next = {a.files[1]};
    return;
  }
  std::vector<std::string>& rest = a.base.empty() ? a.base : a.next;
  rest.insert(rest.end(), a.files.begin(), a.files.end());
  if (a.base.empty() || a.next.empty()) throw input_error("compare needs BASE and NEW files");
}

// One side's files, each run once: a copy, or one file by two paths (`dir/./x.json`), would
// count as a second run and narrow the side's spread. Says on standard error what it dropped.
std::vector<const result_file*> distinct_runs(std::vector<const result_file*> files, std::vector<std::string>& notes) {
  std::map<std::string, const result_file*> first;
  std::vector<const result_file*> out;
  for (const result_file* f : files) {
    const auto [it, fresh] = first.try_emplace(f->run_identity(), f);
    if (fresh) {
      out.push_back(f);
    } else {
      notes.push_back(fmt::format("{}: the same run as {} (its rows' times): counted once", f->path,
                                  it->second->path));
    }
  }
  return out;
}

// compare's exit code, and on standard error why.
int compare_exit(const compare_outcome& c, const compare_options& opt) {
  // Nothing compared is no verdict, whatever --allow-missing let through.
  if (c.slower + c.faster + c.same + c.unsure == 0) {
    std::fprintf(stderr, "membench-report: no benchmark compared (each missing, errored or skipped on a side)\n");
    return exit_unusable;
  }
  if (c.unusable > 0) {
    std::fprintf(stderr, "membench-report: %d benchmark(s) missing or errored: unusable for a verdict\n", c.unusable);
    return exit_unusable;
  }
  if (c.slower > 0 || (opt.unsure_fails && c.unsure > 0)) {
    if (c.slower > 0)
      std::fprintf(stderr, "membench-report: %d benchmark(s) slower by at least %g %%, beyond the noise\n", c.slower,
                   opt.threshold_pct);
    if (opt.unsure_fails && c.unsure > 0)
      std::fprintf(stderr, "membench-report: %d benchmark(s) unsure (--unsure=fail)\n", c.unsure);
    return exit_regression;
  }
  if (c.unsure > 0) std::fprintf(stderr, "membench-report: %d benchmark(s) unsure (listed)\n", c.unsure);
  return exit_ok;
}

// compare --pairs: the pairs of the file (or standard input), every file they name read once.
compare_outcome compare_given_pairs(const compare_args& a, session& s) {
  if (!a.files.empty() || !a.base.empty() || !a.next.empty())
    throw input_error("compare --pairs takes no BASE or NEW files: the pairs name theirs");
  if (!a.opt.filter.empty())
    throw input_error("compare --pairs names its rows: --filter would not apply to them; leave it out");
  // The pairs file is an input: -o never replaces it.
  if (a.pairs != "-") s.inputs.push_back(s.locate(a.pairs));
  const std::string text = read_input_text(a.pairs == "-" ? "-" : s.locate(a.pairs), a.pairs);
  const std::vector<row_pair> pairs = parse_row_pairs(text, a.pairs);
  std::vector<std::string> paths;
  for (const row_pair& p : pairs) {
    for (const std::string* f : {&p.base.file, &p.next.file}) {
      if (std::find(paths.begin(), paths.end(), *f) == paths.end()) paths.push_back(*f);
    }
  }
  return view_compare_pairs(pairs, s.load(paths, compare_reads()), a.opt);
}

}  // namespace

int run_compare(compare_args a, session& s) {
  a.opt.unsure_fails = a.unsure == "fail";
  a.opt.as_json = a.out.format == "json" || a.out.format == "junit" || a.out.format == "ctrf";
  a.opt.machine_format = a.opt.as_json && a.out.format != "json" ? a.out.format : "";
  // The machine formats hold every benchmark: --all, which a wrapper may pass whatever the
  // format, changes nothing there, and that is said rather than passed over.
  if (a.opt.as_json && a.opt.show_all)
    std::fprintf(stderr, "membench-report: --all: --format %s holds every benchmark already\n", a.out.format.c_str());
  a.opt.started_ms = now_ms();
  compare_outcome c;
  if (!a.pairs.empty()) {
    c = compare_given_pairs(a, s);
  } else {
    sort_sides(a);
    std::vector<std::string> both = a.base;
    both.insert(both.end(), a.next.begin(), a.next.end());
    const file_refs files = s.load(both, compare_reads());  // both sides at once
    const auto split = files.pointers().begin() + static_cast<std::ptrdiff_t>(a.base.size());
    std::vector<std::string> notes;
    c = view_compare(distinct_runs({files.pointers().begin(), split}, notes),
                     distinct_runs({split, files.pointers().end()}, notes), a.opt);
    for (const std::string& n : notes) {
      std::fprintf(stderr, "membench-report: %s\n", terminal_text(n).c_str());
      c.doc.notes.push_back(n);
    }
  }
  s.release();
  const int rc = a.opt.as_json ? write_text(c.json, a.out.output, s) : emit(c.doc, a.out, s);
  return rc != exit_ok ? rc : compare_exit(c, a.opt);
}

int run_options(const options_args& a, session& s) {
  if (a.format == "md")
    return write_text(a.command.empty() ? options_document() : options_markdown(command_named(a.command)), "", s);
  output_options csv;
  csv.format = "csv";
  return emit(options_table(a.command), csv, s);
}

}  // namespace membench::report
