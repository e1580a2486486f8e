// `membench --devices=all|0,2,3`: one membench process per GPU, all at once, each with its
// own JSON named by the GPU's index and UUID; their output on one stream, each line marked
// with its GPU; then, alone, one process for the peer rows among those GPUs (they would
// contend with each other and with the per-GPU processes), its JSON `.peers`; one exit code.
// The parsing and naming here are plain host logic, tested without a GPU; run_on_devices
// and run_peer_process start the processes.
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

/// A process's arguments: `args` (argv[0] first) without --devices, --device,
/// --benchmark_out, --progress, --peers and --peers-only, then its device, no peer rows
/// (`--peers=none`), its output (when `out` is not empty) and `progress`.
std::vector<std::string> device_args(const std::vector<std::string>& args, int index, const std::string& out,
                                     std::string_view progress);

/// The peer process's JSON: `out` with `.peers` before its extension (`r/membench.json` ->
/// `r/membench.peers.json`).
std::string peers_output_path(const std::string& out);

/// The peer process's arguments: `args` without the options device_args drops, then the
/// session's device `index`, `--peers=<pairs>` (each pair named), `--peers-only`, its output
/// (when `out` is not empty) and `progress`.
std::vector<std::string> peer_process_args(const std::vector<std::string>& args, int index, const std::string& pairs,
                                           const std::string& out, std::string_view progress);

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

/// Starts the peer process with `args` (peer_process_args) alone, its output marked `[peers]`,
/// and waits; returns its exit code. throws std::runtime_error when it cannot start.
int run_peer_process(const std::vector<std::string>& args);

}  // namespace membench
