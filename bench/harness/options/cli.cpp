#include "cli.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <re2/re2.h>
#include <fmt/format.h>

#include "common/output_file.hpp"
#include "common/schema.hpp"
#include "harness/device/metrics.hpp"
#include "harness/options/peers.hpp"

namespace membench {

std::string flag_value(const std::vector<std::string>& args, std::string_view flag) {
  std::string value;
  const std::string prefix = std::string(flag) + "=";
  for (const auto& a : args) {
    if (a.rfind(prefix, 0) == 0) value = a.substr(prefix.size());
  }
  return value;
}

std::string output_path(const std::vector<std::string>& args) { return flag_value(args, "--benchmark_out"); }

bool has_arg_prefix(const std::vector<std::string>& args, std::string_view prefix) {
  for (const auto& a : args) {
    if (std::string_view(a).substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

std::string single_iteration_arg(std::string_view version) {
  int major = 0, minor = 0;
  const char* p = version.data();
  const char* end = p + version.size();
  auto r = std::from_chars(p, end, major);
  if (r.ptr < end && *r.ptr == '.') std::from_chars(r.ptr + 1, end, minor);
  const bool suffix = major > 1 || (major == 1 && minor >= 8);
  return suffix ? "--benchmark_min_time=1x" : "--benchmark_min_time=0";
}

namespace {

// CLI11's Range lets nan through (every comparison with it is false).
const CLI::Validator finite_number{[](std::string& value) {
                                     char* end = nullptr;
                                     const double v = std::strtod(value.c_str(), &end);
                                     return std::isfinite(v) ? std::string() : std::string("not a finite number");
                                   },
                                   "FINITE"};

// --devices, and what an explicit list of GPUs leaves --peers and --peers-only: known without
// CUDA, so said as a bad option in every mode (a listing too) before anything looks for a GPU,
// not as the missing GPU or the listing that would come first. `all` is counted when it runs.
std::optional<std::string> check_gpu_choice(const run_options& o) {
  if (o.devices.empty()) return std::nullopt;
  const auto request = parse_devices(o.devices);
  if (const auto* problem = std::get_if<std::string>(&request)) return *problem;
  const device_request& chosen = std::get<device_request>(request);
  if (chosen.all) return std::nullopt;
  const auto pairs = resolve_peers(std::get<peer_spec>(parse_peers(o.peers)), chosen.indices, true);
  if (const auto* problem = std::get_if<std::string>(&pairs)) return *problem;
  if (o.peers_only && std::get<std::vector<peer_pair>>(pairs).empty())
    return fmt::format("--peers-only: --devices={} with --peers={} selects no pair of GPUs (a peer row needs two)",
                       o.devices, o.peers);
  return std::nullopt;
}

}  // namespace

parsed_options parse_options(const std::vector<std::string>& args) {
  parsed_options out;
  run_options& o = out.options;
  CLI::App app{"membench"};
  app.set_help_flag();
  std::string timing = to_string(o.method), suite = to_string(o.suite), progress = "auto",
              host_link = to_string(o.host_link);
  stopping_rule& r = o.rule;
  // One GPU or several, one list or the other: the second of each pair would be passed over.
  CLI::Option* device = app.add_option("--device", o.device)->check(CLI::Range(0, 1 << 16));
  device->excludes(app.add_option("--devices", o.devices));
  CLI::Option* list_devices = app.add_flag("--list-devices", o.list_devices);
  list_devices->excludes(app.add_flag("--list-families", o.list_families));
  app.add_option("--peers", o.peers);
  app.add_flag("--peers-only", o.peers_only);
  app.add_option("--host-link", host_link)->check(CLI::IsMember({"alone", "together", "skip", "only"}));
  app.add_option("--suite", suite)->check(CLI::IsMember({"check", "quick", "default", "full"}));
  app.add_option("--timing", timing)->check(CLI::IsMember({"blocking", "events", "single"}));
  app.add_option("--max-ci", r.max_ci_pct);
  app.add_option("--max-ci-host", r.max_ci_host_pct);
  app.add_option("--ci-level", r.ci_level_pct);
  app.add_option("--min-samples", r.min_samples);
  app.add_option("--min-time", r.min_time_s);
  app.add_option("--max-time", r.max_time_s);
  app.add_option("--max-time-host", r.max_time_host_s);
  app.add_option("--row-limit", r.row_limit_s);
  app.add_option("--clock-threshold", o.clocks.threshold_pct)->check(finite_number)->check(CLI::Range(0.0, 100.0));
  app.add_option("--batch-below", o.batch_below_us)->check(finite_number)->check(CLI::Range(0.0, 1e9));
  app.add_option("--keep-samples", o.keep_samples)->check(CLI::Range(0, 1 << 20));
  app.add_option("--progress", progress)->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_flag("--fault-demo", o.fault_demo);
  bool metrics = false;
  std::string metric_list;
  app.add_flag("--metrics", metrics);
  app.add_option("--metric-list", metric_list);
  app.add_flag("--version", o.version);
  std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
  std::reverse(rest.begin(), rest.end());  // CLI11 takes a reversed vector
  try {
    app.parse(rest);
  } catch (const CLI::ParseError& e) {
    out.error = fmt::format("{} (see --help)", e.what());
    return out;
  }
  o.method = *parse_timing_method(timing);
  o.suite = *parse_suite_tier(suite);
  o.progress = *parse_progress_mode(progress);
  o.host_link = *parse_host_link_mode(host_link);
  if (auto problem = validate(o.rule)) {
    out.error = *problem;
    return out;
  }
  if (const auto spec = parse_peers(o.peers); std::holds_alternative<std::string>(spec)) {
    out.error = std::get<std::string>(spec);
    return out;
  }
  if (auto problem = check_gpu_choice(o)) {
    out.error = *problem;
    return out;
  }
  if (metrics || !metric_list.empty()) {
    try {
      o.metrics = metric_list.empty() ? default_metrics() : parse_metric_list(metric_list);
    } catch (const std::invalid_argument& e) {
      out.error = fmt::format("--metric-list: {}", e.what());
    }
  }
  return out;
}

std::string help_text(std::string_view build_mode) {
  return fmt::format(
      "membench ({} build): CUDA memory-hierarchy benchmarks on Google Benchmark\n\n"
      "membench options:\n{}\n"
      "Google Benchmark runs each benchmark once; membench samples inside it, so\n"
      "--benchmark_min_time is not accepted (use the options above).\n\n"
      "Google Benchmark options:\n",
      build_mode, schema::options_help());
}

std::string version_text(std::string_view version, std::string_view git_commit, std::string_view benchmark_version,
                         std::string_view cuda_runtime) {
  return fmt::format("membench {} (commit {}, Google Benchmark {}, CUDA runtime {})\n", version, git_commit,
                     benchmark_version, cuda_runtime);
}

std::optional<std::string> debug_build_banner(std::string_view build_type) {
  if (build_type != "Debug") return std::nullopt;
  // Debug is -O0 host code: the harness's own work (launch loops, host timers, host-memory
  // copies) slows down and shifts every time; the kernels are unchanged (no -G).
  return std::string(
      "membench: *** DEBUG BUILD ***  The host code is unoptimised (-O0): launch overheads, host-side\n"
      "membench: timings and host-memory rows are slower than membench measures, so these numbers are\n"
      "membench: not representative and must not be compared with a Release build's (the JSON says\n"
      "membench: membench_build_type=Debug). For measurements build Release:\n"
      "membench:   cmake --preset bench && cmake --build build/bench   (or -DCMAKE_BUILD_TYPE=Release)\n");
}

namespace {

// The filter as a regular expression in POSIX egrep syntax, as Google Benchmark reads it;
// matched by RE2, in time linear in the name and without recursion. membench selects the
// rows itself and hands Google Benchmark none of the user's pattern: its std::regex recursed
// once a character (a deeply nested pattern overflowed the stack) and backtracked.
std::unique_ptr<re2::RE2> filter_regex(const std::string& spec, std::string& error) {
  re2::RE2::Options o;
  o.set_posix_syntax(true);
  o.set_log_errors(false);
  auto re = std::make_unique<re2::RE2>(spec, o);
  if (re->ok()) return re;
  error = re->error();
  return nullptr;
}

}  // namespace

std::optional<benchmark_filter> effective_filter(const std::vector<std::string>& args, const char* environment) {
  if (has_arg_prefix(args, "--benchmark_filter="))
    return benchmark_filter{flag_value(args, "--benchmark_filter"), "--benchmark_filter"};
  if (environment != nullptr) return benchmark_filter{environment, "BENCHMARK_FILTER"};
  return std::nullopt;
}

namespace {

// The filter of this process: Google Benchmark reads the same variable for its default.
std::optional<benchmark_filter> process_filter(const std::vector<std::string>& args) {
  return effective_filter(args, std::getenv("BENCHMARK_FILTER"));
}

}  // namespace

std::optional<std::string> check_filter_syntax(const std::vector<std::string>& args) {
  const auto filter = process_filter(args);
  if (!filter) return std::nullopt;
  std::string spec = filter->spec;
  if (!spec.empty() && spec.front() == '-') spec.erase(0, 1);
  if (spec.empty() || spec == "all") return std::nullopt;
  std::string error;
  if (!filter_regex(spec, error)) return fmt::format("{}='{}' is not a valid regular expression ({})", filter->origin, spec, error);
  return std::nullopt;
}

std::optional<std::string> check_filter(const std::vector<std::string>& args, const std::vector<std::string>& names,
                                        std::string_view tier) {
  const auto filter = process_filter(args);
  if (!filter) return std::nullopt;
  std::string spec = filter->spec;
  if (spec.empty() || spec == "all") return std::nullopt;
  const bool negative = spec.front() == '-';
  if (negative) spec.erase(0, 1);
  std::string error;
  const auto re = filter_regex(spec, error);
  if (!re) return fmt::format("{}='{}' is not a valid regular expression ({})", filter->origin, spec, error);
  for (const auto& n : names) {
    if (re2::RE2::PartialMatch(n + "/manual_time", *re) != negative) return std::nullopt;
  }
  return fmt::format("{}='{}{}' matches none of the {} benchmarks of the {} suite{}", filter->origin,
                     negative ? "-" : "", spec, names.size(), tier,
                     tier == "full" ? "" : " (--suite=full lists every row)");
}

std::optional<std::string> check_modes(const run_options& o, const std::vector<std::string>& user_args,
                                       bool list_only) {
  const char* listing = o.list_families ? "--list-families" : o.list_devices ? "--list-devices" : nullptr;
  // Each listing prints and exits: of two, one would be printed and the other passed over
  // unsaid (a script asking for the rows would parse the families as names).
  if (listing != nullptr && list_only)
    return fmt::format("{} and --benchmark_list_tests are two listings; ask for one", listing);
  // A listing of families or devices takes no filter of rows: one given would be passed over unsaid.
  if (listing != nullptr && has_arg_prefix(user_args, "--benchmark_filter"))
    return fmt::format("--benchmark_filter: {} lists every one; leave the filter out (see --help)", listing);
  return check_filter_syntax(user_args);
}

std::vector<std::string> selected_names(const std::vector<std::string>& args, const std::vector<std::string>& names) {
  const auto filter = process_filter(args);
  std::string spec = filter ? filter->spec : "";
  if (spec.empty() || spec == "all") return names;
  const bool negative = spec.front() == '-';
  if (negative) spec.erase(0, 1);
  std::string error;
  const auto re = filter_regex(spec, error);
  if (!re) return names;
  std::vector<std::string> selected;
  for (const auto& n : names) {
    if (re2::RE2::PartialMatch(n + "/manual_time", *re) != negative) selected.push_back(n);
  }
  return selected;
}

std::size_t selected_count(const std::vector<std::string>& args, const std::vector<std::string>& names) {
  const std::size_t selected = selected_names(args, names).size();
  const std::string reps = flag_value(args, "--benchmark_repetitions");
  const int r = reps.empty() ? 1 : std::atoi(reps.c_str());
  return selected * static_cast<std::size_t>(r > 1 ? r : 1);
}

std::optional<std::string> check_output(const std::vector<std::string>& args) {
  const std::string path = output_path(args);
  // Given and empty (an unset variable): a run would write no results and say nothing.
  if (path.empty() && has_arg_prefix(args, "--benchmark_out=")) return std::string("--benchmark_out= names no file");
  if (path.empty()) return std::nullopt;
  struct stat st {};
  const bool existed = stat(path.c_str(), &st) == 0;  // through a link: what would be written
  // The results are completed by a rename over the file, which a device or FIFO cannot take.
  if (existed && !S_ISREG(st.st_mode)) return fmt::format("--benchmark_out={}: cannot write it (not a regular file)", path);
  // The writer that ends the run, opened and dropped without its commit: it refuses what it
  // would refuse then (a link through /dev or /proc, a loop of links, a folder it cannot
  // write in) and leaves nothing behind (its file has no name until the commit).
  try {
    output_file probe(path);
  } catch (const std::exception& e) {
    return fmt::format("--benchmark_out={}: cannot write it ({})", path, e.what());
  }
  return std::nullopt;
}

}  // namespace membench
