// membench-report fleet: its options bound to the options table, folders expanded to their
// JSON files, the baseline read, and the exit code (1 when a GPU is an outlier).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "core/dates.hpp"
#include "core/escape.hpp"
#include "core/input_text.hpp"
#include "render/test_report.hpp"

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
    // Every .json entry but a folder: one that is no regular file (a FIFO, a dangling link, a
    // device) is then found unreadable and said, never skipped unsaid.
    // Named as the folder holds it: fs::relative would resolve a link to its target's path,
    // and a link to a run of the folder would vanish into that run unsaid.
    if (it->path().extension() == ".json" && !it->is_directory(ec))
      out.push_back((fs::path(arg) / it->path().lexically_relative(where)).string());
  }
  if (ec) throw input_error(fmt::format("{}: cannot list ({})", arg, ec.message()));
  if (out.empty()) throw input_error(fmt::format("{}: a folder without .json files", arg));
  std::sort(out.begin(), out.end());
  return out;
}

// --model-reference auto: the reference installed beside this membench-report (bin/ and
// share/membench/reference/), none when it is not there; none: none.
std::string model_reference_path(const std::string& given) {
  if (given == "none") return "";
  if (given != "auto") return given;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path installed = exe.parent_path().parent_path() / "share" / "membench" / "reference" / "fleet.json";
  return fs::is_regular_file(installed, ec) ? installed.string() : "";
}

fleet_baseline read_baseline(const std::string& path, session& s) {
  const std::string where = s.locate(path);
  const std::string text = read_input_text(where, path);
  s.inputs.push_back(where);
  return parse_baseline(text, path);
}

}  // namespace

CLI::App* add_fleet(CLI::App& app, fleet_args& a) {
  option_binder b(app, "fleet");
  fleet_test::settings& t = a.opt.test;
  b(o::fleet_files, a.files)(o::fleet_threshold, t.all_pct)(o::family_threshold, t.family_pct);
  b(o::row_threshold, t.row_pct)(o::host_threshold, t.host_all_pct)(o::host_row_threshold, t.host_row_pct);
  b(o::fleet_level, t.alpha)(o::fail_share, a.fail_share_pct)(o::fleet_since, a.opt.since);
  b(o::allow_mixed, a.opt.allow_mixed)(o::baseline_in, a.baseline)(o::baseline_out, a.baseline_out);
  b(o::baseline_format, a.opt.baseline_format)(o::filter, a.opt.filter)(o::fleet_all, a.opt.show_all);
  b(o::fleet_by, a.opt.by)(o::fleet_model_reference, a.model_reference)(o::fleet_model_below, a.opt.model_below);
  b(o::fleet_format, a.out.format)(o::output, a.out.output)(o::color, a.out.colour);
  CLI::App* cmd = b.done();
  a.cmd = cmd;
  return cmd;
}

namespace {

// Options another makes moot: --baseline-format without --baseline-out, --model-below with
// --baseline (which judges every fleet), --all with the metrics (which hold every level
// already). One that changes what is made is said: --since with --baseline-out makes the
// baseline of the runs since then only.
void check_moot_options(const fleet_args& a) {
  const auto given = [&a](const option_spec& o) { return !given_options(*a.cmd, {&o}).empty(); };
  if (a.baseline_out.empty() && given(o::baseline_format))
    throw input_error("--baseline-format: the form of the baseline --baseline-out writes; give --baseline-out too");
  if (!a.baseline.empty() && given(o::fleet_model_below))
    throw input_error("--model-below: --baseline judges every fleet, none against the model reference; leave it out");
  if (a.out.format == "prom" && given(o::fleet_all))
    throw input_error("--all: the metrics (--format=prom) hold every GPU and level already; leave it out");
  if (!a.baseline_out.empty() && !a.opt.since.empty())
    std::fprintf(stderr, "membench-report: --baseline-out %s: made from the runs since %s only (--since)\n",
                 terminal_text(a.baseline_out).c_str(), terminal_text(a.opt.since).c_str());
}

// A reference judges at the thresholds its spread was measured at, so thresholds given with
// one cannot apply to the fleets it judges: with --baseline (which judges every fleet) they are
// refused; with a model reference (which judges its models only) that is said.
void check_options_given(const fleet_args& a, const std::string& model_path) {
  if (a.cmd == nullptr) return;
  check_moot_options(a);
  const std::vector<std::string> given = given_options(
      *a.cmd, {&o::fleet_threshold, &o::family_threshold, &o::row_threshold, &o::host_threshold, &o::host_row_threshold});
  if (given.empty()) return;
  const std::string names = fmt::format("{}", fmt::join(given, ", "));
  if (!a.baseline.empty())
    throw input_error(fmt::format("{}: --baseline judges at the thresholds it was measured at; leave {} out, or "
                                  "write a baseline at them with --baseline-out",
                                  names, given.size() == 1 ? "it" : "them"));
  if (!model_path.empty())
    std::fprintf(stderr, "membench-report: %s: a fleet judged against the model reference %s is judged at its "
                 "thresholds; --model-reference=none judges every fleet at those given\n",
                 names.c_str(), terminal_text(model_path).c_str());
}

}  // namespace

namespace {

// YYYY-MM-DD, optionally THH:MM or THH:MM:SS: what Google Benchmark's dates begin with, so
// that comparing the texts compares the times.
bool date_like(const std::string& d) {
  static constexpr std::string_view shape = "dddd-dd-ddTdd:dd:dd";
  if (d.size() != 10 && d.size() != 16 && d.size() != 19) return false;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const bool digit = d[i] >= '0' && d[i] <= '9';
    if (shape[i] == 'd' ? !digit : d[i] != shape[i]) return false;
  }
  // A day the month has, an hour, minute and second the clock has (2026-02-30 is no date).
  const auto number = [&](std::size_t at, std::size_t n) { return std::stoi(d.substr(at, n)); };
  const int year = number(0, 4), month = number(5, 2), day = number(8, 2);
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month)) return false;
  if (d.size() >= 16 && (number(11, 2) > 23 || number(14, 2) > 59)) return false;
  return d.size() < 19 || number(17, 2) <= 59;
}

}  // namespace

int run_fleet(fleet_args a, session& s) {
  if (!a.opt.since.empty() && !date_like(a.opt.since)) {
    std::fprintf(stderr, "membench-report: --since: '%s' is not a date (YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS])\n",
                 terminal_text(a.opt.since).c_str());
    return exit_unusable;
  }
  a.opt.as_json = a.out.format == "json" || a.out.format == "junit" || a.out.format == "ctrf" || a.out.format == "prom";
  a.opt.machine_format = a.opt.as_json && a.out.format != "json" ? a.out.format : "";
  a.opt.started_ms = now_ms();
  a.opt.test.fail_share = a.fail_share_pct / 100;
  a.opt.make_baseline = !a.baseline_out.empty();
  std::vector<std::string> paths;  // a file named twice (itself and by its folder) is one run
  std::unordered_set<std::string> named, explicit_files;
  for (const std::string& arg : a.files) {
    for (std::string& p : files_of(arg, s)) {
      if (p == arg) explicit_files.insert(p);
      if (named.insert(p).second) paths.push_back(std::move(p));
    }
  }
  if (!a.baseline.empty() && a.model_reference != "auto" && a.model_reference != "none")
    throw input_error("--baseline judges every fleet against it: --model-reference would judge none; give one of them");
  const fleet_baseline against = a.baseline.empty() ? fleet_baseline{} : read_baseline(a.baseline, s);
  const std::string model_path = a.baseline.empty() ? model_reference_path(a.model_reference) : "";
  check_options_given(a, model_path);
  const fleet_baseline model = model_path.empty() ? fleet_baseline{} : read_baseline(model_path, s);
  // A file found in a folder that cannot be read (truncated, a leftover) is set aside and
  // said; one the operator named is a mistake to stop on.
  std::vector<std::pair<std::string, std::string>> failed;
  const file_refs files = s.load_readable(paths, compare_reads(), failed);
  std::vector<std::string> unreadable;
  for (const auto& [path, why] : failed) {
    if (explicit_files.count(path) != 0) throw input_error(why);
    unreadable.push_back(why);
  }
  if (a.opt.make_baseline && a.out.output.empty() && s.is_standard_output(a.baseline_out))
    throw input_error(fmt::format("fleet: --baseline-out {} is standard output, where the report goes: give -o for one "
                                  "of them", a.baseline_out));
  const fleet_outcome f = view_fleet(files, a.opt, a.baseline.empty() ? nullptr : &against, unreadable,
                                     model_path.empty() ? nullptr : &model);
  const std::string text = a.opt.as_json ? f.json : rendered(f.doc, a.out, s);
  // The report and the baseline as one set: a report that cannot be written leaves the old
  // baseline whole too.
  // On standard output the report goes first: one that cannot be written keeps the baseline.
  const int rc = !a.opt.make_baseline ? write_text(text, a.out.output, s)
                 : a.out.output.empty() ? write_text(text, "", s) == exit_ok
                                            ? write_files({{a.baseline_out, f.baseline}}, s) : exit_unusable
                                        : write_files({{a.baseline_out, f.baseline}, {a.out.output, text}}, s);
  if (rc != exit_ok) return rc;
  // At most a screenful: the outputs list every one.
  constexpr std::size_t shown = 20;
  for (std::size_t i = 0; i < f.findings.size() && i < shown; ++i)
    std::fprintf(stderr, "membench-report: %s\n", terminal_text(f.findings[i]).c_str());
  if (f.findings.size() > shown) std::fprintf(stderr, "membench-report: and %zu more (listed)\n", f.findings.size() - shown);
  return f.exit_code();
}

}  // namespace membench::report
