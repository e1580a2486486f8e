// `membench --devices=all|0,2,3`: one membench process per GPU, all at once, each with its
// own JSON named by the GPU's index and UUID; their output on one stream, each line marked
// with its GPU; one exit code. The parsing and naming here are plain host logic, tested
// without a GPU; run_on_devices starts the processes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace membench {

/// What --devices asked for: every device, or these indices in this order.
struct device_request {
  bool all = false;
  std::vector<int> indices;
};

/// Parses `all` or a comma-separated list of distinct indices; else what is wrong.
std::variant<device_request, std::string> parse_devices(std::string_view text);

/// The indices to run on, of `count` devices present; else what is wrong (an index that is
/// not there, naming the devices that are).
std::variant<std::vector<int>, std::string> resolve_devices(const device_request& request, int count);

/// Each process's JSON: `out` with `.gpu<index>-<uuid>` before its extension
/// (`r/membench.json` -> `r/membench.gpu1-GPU-....json`).
std::string device_output_path(const std::string& out, int index, const std::string& uuid);

/// A process's arguments: `args` (argv[0] first) without --devices, --device and
/// --benchmark_out, then its device, its output (when `out` is not empty) and `progress`.
std::vector<std::string> device_args(const std::vector<std::string>& args, int index, const std::string& out,
                                     std::string_view progress);

/// The exit code of the whole run: a signal's (128 + N) first, else the worst code.
int combined_exit_code(const std::vector<int>& codes);

/// The environment variable that tells each process how many GPUs ran at once.
inline constexpr const char* concurrent_devices_env = "MEMBENCH_CONCURRENT_DEVICES";
/// How many GPUs' processes this one runs beside, itself included (1 when alone).
int concurrent_devices() noexcept;

/// Starts one process per index, each restricted to its CPU list (`cpus[i]`, cpu_affinity.hpp;
/// "" leaves it unrestricted), forwards their output line by line marked `[gpuN]`, and
/// waits; a signal to membench goes on to every one of them. Returns combined_exit_code.
/// throws std::runtime_error when a process cannot start.
int run_on_devices(const std::vector<std::string>& args, const std::vector<int>& indices,
                   const std::vector<std::string>& uuids, const std::vector<std::string>& cpus,
                   std::string_view progress);

}  // namespace membench
