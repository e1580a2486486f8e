// membench entry point: options -> session -> registration -> run -> JSON, then the exit
// code. Google Benchmark's flags first, membench's own after (options/cli.hpp).
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "common/output_file.hpp"
#include "common/schema.hpp"
#include "common/version.hpp"
#include "harness/core/check.hpp"
#include "harness/device/build_check.hpp"
#include "harness/device/build_probe.hpp"
#include "harness/device/device_info.hpp"
#include "harness/device/list_devices.hpp"
#include "harness/device/nvml.hpp"
#include "harness/family/family.hpp"
#include "harness/options/cli.hpp"
#include "harness/options/peers.hpp"
#include "harness/process/cpu_affinity.hpp"
#include "harness/process/devices.hpp"
#include "harness/process/interrupt.hpp"
#include "harness/process/driver.hpp"
#include "harness/process/json_out.hpp"
#include "harness/process/results_file.hpp"
#include "harness/process/rerun.hpp"
#include "harness/session/session.hpp"

namespace {

using namespace membench;

build_info this_build() {
  return {build_cache_mode(), MEMBENCH_CUDA_ARCHITECTURES, MEMBENCH_BUILD_TYPE, git_commit(), MEMBENCH_BENCHMARK_VERSION,
          MEMBENCH_COMPILER};
}

int stdout_written(const char* what);

// Google Benchmark exits 0 once this returns: a help that could not be written exits 2 here.
void print_help() {
  std::fputs(help_text(build_cache_mode()).c_str(), stdout);
  benchmark::PrintDefaultHelp();
  if (const int rc = stdout_written("the help"); rc != exit_ok) std::exit(rc);
}

// Runs the benchmarks a poisoned context left undone in a fresh process, merging its JSON
// into `results` (the file's text to be); or, where that cannot work, says which did not run
// and how to run them.
int continue_after_fault(const session& s, const std::vector<std::string>& user_args, const output_request& out,
                         std::string& results) {
  const std::vector<std::string>& names = s.not_run();
  const std::string& culprit = s.poisoned_by();
  const char* depth_env = std::getenv("MEMBENCH_FRESH_DEPTH");
  const int depth = depth_env != nullptr ? std::atoi(depth_env) : 0;
  std::optional<std::string> obstacle = fresh_process_obstacle(user_args);
  if (!obstacle && depth >= max_fresh_depth) obstacle = fmt::format("{} fresh processes deep already", depth);
  if (obstacle) {
    std::fprintf(stderr, "membench: %zu benchmark(s) not run after %s (no fresh process: %s); to run them:\n  %s '%s'\n",
                 names.size(), culprit.c_str(), obstacle->c_str(), user_args[0].c_str(),
                 ("--benchmark_filter=" + exact_filter(names)).c_str());
    return exit_benchmark_failed;
  }
  // The lost context would only hold device memory (or, in exclusive compute mode, the
  // device itself) while the child runs.
  MEMBENCH_CUDA_LOG(cudaDeviceReset());
  setenv("MEMBENCH_FRESH_DEPTH", std::to_string(depth + 1).c_str(), 1);
  // Not *.json: a file left after a failed merge is not taken for a run by the report tool.
  const std::string part_out = out.path.empty() ? std::string() : out.path + ".fresh.part";
  std::fprintf(stderr, "membench: running the %zu benchmark(s) left after %s in a fresh process\n", names.size(),
               culprit.c_str());
  const int rc = run_fresh_process(rerun_args(user_args, names, part_out));
  if (!part_out.empty()) {
    try {
      results = merged_rerun(results, out.path, part_out, names, culprit);
      std::remove(part_out.c_str());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "membench: could not merge the fresh process's results: %s (left in %s)\n", e.what(),
                   part_out.c_str());
      return exit_benchmark_failed;
    }
  }
  return rc;
}

// The pairs --peers names among the GPUs this process may use, counted without CUDA
// (registration never touches a GPU); a pair of a device that is not there skips when it runs.
std::vector<peer_pair> registered_peers(const run_options& opt, int visible) {
  const auto spec = std::get<peer_spec>(parse_peers(opt.peers));  // parse_options refused a bad one
  return std::get<std::vector<peer_pair>>(resolve_peers(spec, first_devices(visible), false));
}

// What the options select: the rows of their tier, the peer rows for the pairs of the GPUs
// this process may use; says so when there are none.
case_selection selection_of(const run_options& opt, bool list_only) {
  const int visible = visible_gpu_count(std::getenv("CUDA_VISIBLE_DEVICES"), driver_gpu_count());
  const std::vector<peer_pair> pairs = registered_peers(opt, visible);
  if (pairs.empty() && opt.peers != "none" && !list_only)
    std::fprintf(stderr, "membench: no peer rows: %d GPU(s) visible to this process (CUDA_VISIBLE_DEVICES, else "
                         "/proc/driver/nvidia/gpus) and --peers=%s; they need two\n",
                 visible, opt.peers.c_str());
  return {opt.suite, opt.fault_demo, pairs, opt.peers_only, opt.host_link};
}

// `peer_gpu_uuids`: who each GPU is that the selected peer rows touch; empty when none.
std::string peer_gpu_uuids(const std::vector<std::string>& selected, int count) {
  std::string out;
  for (int index : devices_named(selected)) {
    if (index < count) out += fmt::format("{}{}={}", out.empty() ? "" : ",", index, query_device(index).uuid);
  }
  return out;
}

// Replaces the results file with `results`; false (and says so) where it cannot.
bool write_results(const output_request& out, const std::string& results) {
  if (out.path.empty()) return true;
  try {
    write_output_file(out.path, results);
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "membench: the results were not written: %s\n", e.what());
    return false;
  }
}

// After the run: what only its end knows (the closing calibration, the kept samples), the
// rows a poisoned context left to a fresh process, then the file, once; the exit code.
int finish_run(session& s, const std::vector<std::string>& user_args, const output_request& out,
               const results_reporter& reporter) {
  std::string results = reporter.text();
  if (!out.path.empty() && out.json()) {
    try {
      results = annotated(results, out.path, s.closing_context(), s.kept_samples(), s.kept_batch_samples());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "membench: the results were not written: %s\n", e.what());
      return exit_usage;
    }
  }
  benchmark::Shutdown();
  const session_counts result = s.counts();
  if (result.skipped > 0) std::fprintf(stderr, "membench: %d benchmark(s) skipped (see their error rows)\n", result.skipped);
  if (const int sig = interrupted_by()) {
    std::fprintf(stderr, "membench: stopped by signal %d; the JSON holds the rows completed before it\n", sig);
    write_results(out, results);
    return exit_code_for_signal(sig);
  }
  int rc = result.failed > 0 ? exit_benchmark_failed : exit_ok;
  if (!s.not_run().empty()) {
    const int fresh = continue_after_fault(s, user_args, out, results);
    if (!write_results(out, results)) return exit_usage;
    if (const int sig = interrupted_by()) return exit_code_for_signal(sig);  // forwarded to it
    if (fresh > 128) return fresh;  // the fresh process was stopped by a signal
    if (fresh != exit_ok) rc = exit_benchmark_failed;
  } else if (!write_results(out, results)) {
    return exit_usage;
  }
  // Rows left by a poisoned context ran again in the fresh process; count only real failures here.
  const int failed = result.failed - static_cast<int>(s.not_run().size());
  if (failed > 0) std::fprintf(stderr, "membench: %d benchmark(s) failed\n", failed);
  return rc;
}

// What went to standard output reached it: a full disk or a closed pipe is said (exit 2), never
// a silent exit 0. Google Benchmark writes on std::cout, membench on stdout.
int stdout_written(const char* what) {
  std::cout.flush();
  if (std::cout && std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return exit_ok;
  std::fprintf(stderr, "membench: %s could not be written to standard output (%s)\n", what, std::strerror(errno));
  return exit_usage;
}

// One process's run on one GPU (or its listing): registration, the checks, the rows.
int run_here(const std::vector<std::string>& user_args, const run_options& opt, const output_request& out,
             bool list_only) {
  session s(opt);
  const case_selection selection = selection_of(opt, list_only);
  const std::vector<std::string> names = case_names(selection);
  if (names.empty()) {
    std::fprintf(stderr, "membench: no benchmark to %s (--peers-only and no pair of GPUs)\n", list_only ? "list" : "run");
    return list_only ? exit_ok : exit_usage;
  }
  // A listing answers a bad filter as a run does: a script that lists first learns it there.
  if (const auto problem = check_filter(user_args, names, to_string(opt.suite))) {
    std::fprintf(stderr, "membench: %s\n", problem->c_str());
    return exit_usage;
  }
  // Only the selected rows are registered, and Google Benchmark runs all it has: the filter
  // is matched here (cli.hpp), never by its std::regex.
  const std::vector<std::string> selected = selected_names(user_args, names);
  register_all(s, selection, selected);
  results_reporter reporter(*benchmark::CreateDefaultDisplayReporter(), out.format);
  if (list_only) {
    benchmark::RunSpecifiedBenchmarks(&reporter, "all");  // the results file is not touched
    return stdout_written("the listing");
  }
  int count = 0;
  if (const int rc = select_device(opt.device, count); rc != exit_ok) return rc;
  MEMBENCH_CUDA_CHECK(cudaSetDevice(opt.device));
  const device_info info = query_device(opt.device);
  const build_info build = this_build();
  const probe_attributes probe = build_probe_attributes();
  if (auto problem = check_build(build.cache_mode, build.cuda_architectures, probe)) {
    std::fprintf(stderr, "membench: build check failed: %s\n", problem->c_str());
    return exit_build_mismatch;
  }
  install_interrupt_handlers();
  s.open(info);
  for (const auto& [k, v] : context_entries(info, "", build)) benchmark::AddCustomContext(k, v);
  for (const auto& [k, v] : probe_context(probe)) benchmark::AddCustomContext(k, v);
  for (const auto& [k, v] : s.context()) benchmark::AddCustomContext(k, v);
  if (const std::string uuids = peer_gpu_uuids(selected, count); !uuids.empty())
    benchmark::AddCustomContext(std::string(schema::context_key("peer_gpu_uuids").key), uuids);
  s.expect_rows(selected_count(user_args, names), build.cache_mode);
  benchmark::RunSpecifiedBenchmarks(&reporter, "all");
  s.close();
  return finish_run(s, user_args, out, reporter);
}

int run(int argc, char** argv) {
  const std::vector<std::string> user_args = with_output_from_environment({argv, argv + argc});
  std::vector<std::string> args = user_args;
  const bool list_only = wants_list_only(args);
  if (has_arg_prefix(args, "--benchmark_min_time")) {
    std::fprintf(stderr, "membench: --benchmark_min_time is replaced by membench's stopping rule: use --max-ci, "
                         "--min-samples, --min-time and --max-time (see --help)\n");
    return exit_usage;
  }
  if (const auto problem = check_benchmark_flags(args)) {
    std::fprintf(stderr, "membench: %s (see --help)\n", problem->c_str());
    return exit_usage;
  }
  // Google Benchmark exits 1 (a failed row, to a CI) on an output it cannot open, also when listing.
  if (const auto problem = check_output(args)) {
    std::fprintf(stderr, "membench: %s\n", problem->c_str());
    return exit_usage;
  }
  const output_request out = output_request_of(user_args);
  args = without_output_flags(std::move(args));
  // NO_COLOR (no-color.org) where the colour is not asked for by flag.
  if (std::getenv("NO_COLOR") != nullptr && *std::getenv("NO_COLOR") != '\0' && !has_arg_prefix(args, "--benchmark_color"))
    args.push_back("--benchmark_color=false");
  args.push_back(single_iteration_arg(MEMBENCH_BENCHMARK_VERSION));
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int cargc = static_cast<int>(args.size());
  benchmark::Initialize(&cargc, cargv.data(), print_help);

  // Whatever Google Benchmark did not take is ours; anything unknown is an error.
  const parsed_options parsed = parse_options(std::vector<std::string>(cargv.data(), cargv.data() + cargc));
  if (parsed.error) {
    std::fprintf(stderr, "membench: %s\n", parsed.error->c_str());
    return exit_usage;
  }
  const run_options& opt = parsed.options;
  if (opt.version) {  // before any CUDA call: it works on a machine without a GPU
    const std::string cuda_runtime = format_cuda_version(CUDART_VERSION);
    std::fputs(version_text(full_version(), git_commit(), MEMBENCH_BENCHMARK_VERSION, cuda_runtime).c_str(), stdout);
    return stdout_written("the version");
  }
  // Every mode, the listings too, refuses the same bad input, before anything looks for a GPU.
  if (const auto problem = check_modes(opt, user_args, list_only)) {
    std::fprintf(stderr, "membench: %s\n", problem->c_str());
    return exit_usage;
  }
  if (const auto banner = debug_build_banner(MEMBENCH_BUILD_TYPE); banner && !list_only && !opt.list_devices) {
    std::fputs(banner->c_str(), stderr);
  }
  // Before CUDA and NVML start threads of their own: they inherit the CPUs.
  if (const auto problem = check_concurrent_devices()) {
    std::fprintf(stderr, "membench: %s\n", problem->c_str());
    return exit_usage;
  }
  if (const auto problem = pin_from_environment()) {
    std::fprintf(stderr, "membench: %s\n", problem->c_str());
    return exit_usage;
  }
  if (!opt.devices.empty() && !list_only && !opt.list_devices && !opt.list_families) return run_devices(user_args, opt);
  if (opt.list_families) {
    std::fputs(format_family_list(family_list(), query_machine_offers()).c_str(), stdout);
    return stdout_written("the list of families");
  }
  if (opt.list_devices) {
    int count = 0;
    if (const int rc = select_device(0, count); rc != exit_ok) return rc;
    std::fputs(format_device_list(list_devices(), opt.device).c_str(), stdout);
    if (const int rc = stdout_written("the list of devices"); rc != exit_ok) return rc;
    return opt.device < count ? exit_ok : exit_bad_device;
  }

  return run_here(user_args, opt, out, list_only);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "membench: %s\n", e.what());
    return exit_benchmark_failed;
  }
}
