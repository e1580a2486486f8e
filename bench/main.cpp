// membench entry point: Google Benchmark flags plus membench's own, device selection,
// build verification, JSON context, and exit codes (see cli.hpp).
#include <cstdio>
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
#include "harness/registry.hpp"
#include "harness/runner.hpp"

namespace {

constexpr double default_min_time_s = 0.05;

membench::build_info this_build() {
  return {membench::build_cache_mode(), MEMBENCH_CUDA_ARCHITECTURES, MEMBENCH_BUILD_TYPE, membench::git_commit(),
          MEMBENCH_BENCHMARK_VERSION, MEMBENCH_COMPILER};
}

void print_help() {
  std::printf(
      "membench (%s build): CUDA memory-hierarchy benchmarks on Google Benchmark\n\n"
      "membench options:\n"
      "  --device=N    CUDA device to run on (default 0)\n\n"
      "Without --benchmark_min_time, membench uses %g s per benchmark (kernel time).\n"
      "Exit codes: 0 ok, 1 a benchmark failed, 2 usage, 3 no CUDA device, 4 invalid --device,\n"
      "5 kernels not compiled the way this build claims.\n\n"
      "Google Benchmark options:\n",
      membench::build_cache_mode(), default_min_time_s);
  benchmark::PrintDefaultHelp();
}

int run(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  const bool list_only = membench::wants_list_only(args);
  if (!membench::has_arg_prefix(args, "--benchmark_min_time")) {
    args.push_back(membench::min_time_arg(MEMBENCH_BENCHMARK_VERSION, default_min_time_s));
  }
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int cargc = static_cast<int>(args.size());
  benchmark::Initialize(&cargc, cargv.data(), print_help);

  // Whatever Google Benchmark did not take is ours; anything unknown is an error.
  CLI::App app{"membench"};
  app.set_help_flag();
  int device = 0;
  app.add_option("--device", device, "CUDA device index")->check(CLI::Range(0, 1 << 16));
  try {
    app.parse(cargc, cargv.data());
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "membench: %s (see --help)\n", e.what());
    return membench::exit_usage;
  }

  const auto names = membench::register_all();
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
  for (const auto& [k, v] : membench::context_entries(info, "", build)) benchmark::AddCustomContext(k, v);
  benchmark::AddCustomContext("membench_probe_cache_mode_ca", fmt::format("{}", probe.cache_mode_ca));
  benchmark::AddCustomContext("membench_probe_binary_version", fmt::format("{}", probe.binary_version));
  benchmark::AddCustomContext("membench_probe_load_cycles", fmt::format("{:.1f}", probe.load_cycles));

  membench::session_open(info);
  benchmark::RunSpecifiedBenchmarks();
  membench::session_close();
  benchmark::Shutdown();

  const auto result = membench::session_result();
  if (result.skipped > 0) std::fprintf(stderr, "membench: %d benchmark(s) skipped (see their error rows)\n", result.skipped);
  if (result.failed > 0) {
    std::fprintf(stderr, "membench: %d benchmark(s) failed\n", result.failed);
    return membench::exit_benchmark_failed;
  }
  return membench::exit_ok;
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
