// membench entry point: Google Benchmark flags plus membench's own, device selection,
// build verification, JSON context, faults, signals and exit codes (see cli.hpp).
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "harness/build_probe.hpp"
#include "harness/check.hpp"
#include "harness/cli.hpp"
#include "harness/device_info.hpp"
#include "harness/interrupt.hpp"
#include "harness/metrics.hpp"
#include "harness/registry.hpp"
#include "harness/rerun.hpp"
#include "harness/runner.hpp"

namespace {

membench::build_info this_build() {
  return {membench::build_cache_mode(), MEMBENCH_CUDA_ARCHITECTURES, MEMBENCH_BUILD_TYPE, membench::git_commit(),
          MEMBENCH_BENCHMARK_VERSION, MEMBENCH_COMPILER};
}

void print_help() {
  const membench::timing_options d;
  std::printf(
      "membench (%s build): CUDA memory-hierarchy benchmarks on Google Benchmark\n\n"
      "membench options:\n"
      "  --device=N               CUDA device to run on (default 0)\n"
      "  --timing=METHOD          blocking (default): the stream is held while the launch is queued,\n"
      "                           the event pair's own cost is subtracted; events: plain events around\n"
      "                           the launch; single: one warm-up and one launch, for ncu and nsys\n"
      "  --max-noise=PCT          stop sampling a row when stddev/mean of its samples is <= PCT (%g)\n"
      "  --min-samples=N          ... and it has at least N samples (%d)\n"
      "  --min-time=S             ... and S seconds of sampled GPU time (%g)\n"
      "  --max-time=S             wall-clock budget per row; the row then says converged=0 (%g)\n"
      "  --throttle-threshold=PCT discard samples with the SM clock under PCT %% of its maximum (%g)\n"
      "  --fault-demo             add global/fault/* rows that fault on purpose\n"
      "  --metrics                after each kernel row is timed, profile its launch with CUPTI's range\n"
      "                           profiler (separate replay passes, never timed) and add the metrics as\n"
      "                           counters: load/store efficiency, global-load sectors and requests\n"
      "                           (and sectors_per_request), L1 and L2 hit rates, DRAM throughput\n"
      "  --metric-list=M1,M2,...  profile these metrics instead (implies --metrics)\n\n"
      "Google Benchmark runs each benchmark once; membench samples inside it, so\n"
      "--benchmark_min_time is not accepted (use the options above).\n"
      "Exit codes: 0 ok, 1 a benchmark failed, 2 usage, 3 no CUDA device, 4 invalid --device,\n"
      "5 kernels not compiled the way this build claims, 128+N stopped by signal N.\n\n"
      "Google Benchmark options:\n",
      membench::build_cache_mode(), d.rule.max_noise_pct, d.rule.min_samples, d.rule.min_time_s, d.rule.max_time_s,
      d.throttle_threshold_pct);
  benchmark::PrintDefaultHelp();
}

// Runs the benchmarks a poisoned context left undone in a fresh process, merging its JSON;
// or, where that cannot work, says which did not run and how to run them.
int continue_after_fault(const std::vector<std::string>& user_args) {
  const std::vector<std::string>& names = membench::session_not_run();
  const std::string& culprit = membench::session_poisoned_by();
  const char* depth_env = std::getenv("MEMBENCH_FRESH_DEPTH");
  const int depth = depth_env != nullptr ? std::atoi(depth_env) : 0;
  std::optional<std::string> obstacle = membench::fresh_process_obstacle(user_args);
  if (!obstacle && depth >= membench::max_fresh_depth)
    obstacle = fmt::format("{} fresh processes deep already", depth);
  if (obstacle) {
    std::fprintf(stderr, "membench: %zu benchmark(s) not run after %s (no fresh process: %s); to run them:\n  %s '%s'\n",
                 names.size(), culprit.c_str(), obstacle->c_str(), user_args[0].c_str(),
                 ("--benchmark_filter=" + membench::exact_filter(names)).c_str());
    return membench::exit_benchmark_failed;
  }
  // The lost context would only hold device memory (or, in exclusive compute mode, the
  // device itself) while the child runs.
  MEMBENCH_CUDA_LOG(cudaDeviceReset());
  setenv("MEMBENCH_FRESH_DEPTH", std::to_string(depth + 1).c_str(), 1);
  const std::string main_out = membench::output_path(user_args);
  const std::string part_out = main_out.empty() ? std::string() : main_out + ".fresh.json";
  std::fprintf(stderr, "membench: running the %zu benchmark(s) left after %s in a fresh process\n", names.size(),
               culprit.c_str());
  const int rc = membench::run_fresh_process(membench::rerun_args(user_args, names, part_out));
  if (!part_out.empty()) {
    try {
      membench::merge_rerun(main_out, part_out, names, culprit);
      std::remove(part_out.c_str());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "membench: could not merge the fresh process's results: %s (left in %s)\n", e.what(),
                   part_out.c_str());
      return membench::exit_benchmark_failed;
    }
  }
  return rc;
}

int run(int argc, char** argv) {
  const std::vector<std::string> user_args(argv, argv + argc);
  std::vector<std::string> args = user_args;
  const bool list_only = membench::wants_list_only(args);
  if (membench::has_arg_prefix(args, "--benchmark_min_time")) {
    std::fprintf(stderr,
                 "membench: --benchmark_min_time is replaced by membench's stopping rule: use --max-noise, "
                 "--min-samples, --min-time and --max-time (see --help)\n");
    return membench::exit_usage;
  }
  args.push_back(membench::single_iteration_arg(MEMBENCH_BENCHMARK_VERSION));
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int cargc = static_cast<int>(args.size());
  benchmark::Initialize(&cargc, cargv.data(), print_help);

  // Whatever Google Benchmark did not take is ours; anything unknown is an error.
  CLI::App app{"membench"};
  app.set_help_flag();
  int device = 0;
  std::string timing = "blocking";
  membench::timing_options opt;
  bool fault_demo = false;
  app.add_option("--device", device, "CUDA device index")->check(CLI::Range(0, 1 << 16));
  app.add_option("--timing", timing)->check(CLI::IsMember({"blocking", "events", "single"}));
  app.add_option("--max-noise", opt.rule.max_noise_pct)->check(CLI::Range(0.0, 100.0));
  app.add_option("--min-samples", opt.rule.min_samples)->check(CLI::Range(1, 1 << 24));
  app.add_option("--min-time", opt.rule.min_time_s)->check(CLI::Range(0.0, 3600.0));
  app.add_option("--max-time", opt.rule.max_time_s)->check(CLI::Range(0.0, 3600.0));
  app.add_option("--throttle-threshold", opt.throttle_threshold_pct)->check(CLI::Range(0.0, 100.0));
  app.add_flag("--fault-demo", fault_demo);
  bool metrics = false;
  std::string metric_list;
  app.add_flag("--metrics", metrics);
  app.add_option("--metric-list", metric_list);
  try {
    app.parse(cargc, cargv.data());
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "membench: %s (see --help)\n", e.what());
    return membench::exit_usage;
  }
  opt.method = *membench::parse_timing_method(timing);
  if (metrics || !metric_list.empty()) {
    try {
      opt.metrics = metric_list.empty() ? membench::default_metrics() : membench::parse_metric_list(metric_list);
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "membench: --metric-list: %s\n", e.what());
      return membench::exit_usage;
    }
  }
  if (auto problem = membench::validate(opt.rule)) {
    std::fprintf(stderr, "membench: %s\n", problem->c_str());
    return membench::exit_usage;
  }

  const auto names = membench::register_all(fault_demo);
  if (list_only) {
    benchmark::RunSpecifiedBenchmarks();
    return membench::exit_ok;
  }

  int count = 0;
  if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess || count == 0) {
    std::fprintf(stderr, "membench: no CUDA device: %s\n",
                 err != cudaSuccess ? cudaGetErrorString(err) : "the driver reports 0 devices");
    return membench::exit_no_device;
  }
  if (device >= count) {
    std::fprintf(stderr, "membench: invalid --device %d: %d CUDA device(s) present (0..%d)\n", device, count,
                 count - 1);
    return membench::exit_bad_device;
  }
  MEMBENCH_CUDA_CHECK(cudaSetDevice(device));
  const membench::device_info info = membench::query_device(device);
  const membench::build_info build = this_build();

  const membench::probe_attributes probe = membench::build_probe_attributes();
  if (auto problem = membench::check_build(build.cache_mode, build.cuda_architectures, probe)) {
    std::fprintf(stderr, "membench: build check failed: %s\n", problem->c_str());
    return membench::exit_build_mismatch;
  }
  membench::install_interrupt_handlers();
  membench::session_open(info, opt);
  for (const auto& [k, v] : membench::context_entries(info, "", build)) benchmark::AddCustomContext(k, v);
  benchmark::AddCustomContext("membench_probe_cache_mode_ca", fmt::format("{}", probe.cache_mode_ca));
  benchmark::AddCustomContext("membench_probe_binary_version", fmt::format("{}", probe.binary_version));
  benchmark::AddCustomContext("membench_probe_load_cycles", fmt::format("{:.1f}", probe.load_cycles));
  for (const auto& [k, v] : membench::session_context()) benchmark::AddCustomContext(k, v);
  benchmark::RunSpecifiedBenchmarks();
  membench::session_close();
  benchmark::Shutdown();

  const auto result = membench::session_result();
  if (result.skipped > 0) std::fprintf(stderr, "membench: %d benchmark(s) skipped (see their error rows)\n", result.skipped);
  if (const int sig = membench::interrupted_by()) {
    std::fprintf(stderr, "membench: stopped by signal %d; the JSON holds the rows completed before it\n", sig);
    return membench::exit_code_for_signal(sig);
  }
  int rc = result.failed > 0 ? membench::exit_benchmark_failed : membench::exit_ok;
  if (!membench::session_not_run().empty()) {
    const int fresh = continue_after_fault(user_args);
    if (const int sig = membench::interrupted_by()) return membench::exit_code_for_signal(sig);  // forwarded to it
    if (fresh > 128) return fresh;  // the fresh process was stopped by a signal
    if (fresh != membench::exit_ok) rc = membench::exit_benchmark_failed;
  }
  // Rows left by a poisoned context ran again in the fresh process; count only real failures here.
  const int failed = result.failed - static_cast<int>(membench::session_not_run().size());
  if (failed > 0) std::fprintf(stderr, "membench: %d benchmark(s) failed\n", failed);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "membench: %s\n", e.what());
    membench::session_close();
    return membench::exit_benchmark_failed;
  }
}
