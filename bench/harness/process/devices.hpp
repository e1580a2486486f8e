// `membench --devices=all|0,2,3`: one membench process per GPU, all at once, each with its
// own JSON named by the GPU's index and UUID; their output on one stream, each line marked
// with its GPU; then (with `--host-link=alone`) the host-bound rows one GPU at a time, each
// GPU's merged into its JSON (a copy beside another GPU's copy shares the host's memory and
// root ports, an allocation the driver); then, alone, one process for the peer rows among those GPUs (they would
// contend with each other and with the per-GPU processes), its JSON `.peers`; one exit code.
// The parsing and naming here are plain host logic, tested without a GPU; run_on_devices
// and run_peer_process start the processes.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "harness/options/peers.hpp"  // device_request, parse_devices

namespace membench {

/// The indices to run on, of `count` devices present; else what is wrong (an index that is
/// not there, naming the devices that are).
std::variant<std::vector<int>, std::string> resolve_devices(const device_request& request, int count);

/// Each process's JSON: `out` with `.gpu<index>-<uuid>` before its extension
/// (`r/membench.json` -> `r/membench.gpu1-GPU-....json`).
std::string device_output_path(const std::string& out, int index, const std::string& uuid);

/// The JSON of a GPU's host-link process: `out` with `.gpu<index>-<uuid>.host` before its
/// extension (`r/membench.json` -> `r/membench.gpu1-GPU-....host.json`), merged into the
/// GPU's own file and removed.
std::string host_link_output_path(const std::string& out, int index, const std::string& uuid);

/// A process's arguments: `args` (argv[0] first) without --devices, --device,
/// --benchmark_out, --progress, --peers, --peers-only and --host-link, then its device, no
/// peer rows (`--peers=none`), `--host-link=<host_link>`, its output (when `out` is not
/// empty) and `progress`.
std::vector<std::string> device_args(const std::vector<std::string>& args, int index, const std::string& out,
                                     std::string_view progress, std::string_view host_link);

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
/// The variable's value when it is no whole number of GPUs from 1: what is wrong, else null
/// (checked before anything runs: the count goes into every row's context).
std::optional<std::string> check_concurrent_devices();

/// Starts one process per index with `--host-link=<host_link>`, each restricted to its CPU
/// list (`cpus[i]`, cpu_affinity.hpp; "" leaves it unrestricted), forwards their output line
/// by line marked `[gpuN]`, and waits; a signal to membench goes on to every one of them.
/// Each writes device_output_path. Returns combined_exit_code. throws std::runtime_error
/// when a process cannot start.
int run_on_devices(const std::vector<std::string>& args, const std::vector<int>& indices,
                   const std::vector<std::string>& uuids, const std::vector<std::string>& cpus,
                   std::string_view progress, std::string_view host_link);

/// After run_on_devices: the host-bound rows of each GPU in turn, alone (`--host-link=only`,
/// the GPU's own CPUs, `cpus[i]`), each GPU's JSON merged into its file in the order of
/// `order` (merge_host_link_rows; renamed to it when the GPU has no other file). Stops at a
/// signal. Returns combined_exit_code; a JSON that could not be merged is said on stderr and
/// exits exit_usage (2).
int run_host_link_alone(const std::vector<std::string>& args, const std::vector<int>& indices,
                        const std::vector<std::string>& uuids, const std::vector<std::string>& cpus,
                        std::string_view progress, const std::vector<std::string>& order);

/// Starts the peer process with `args` (peer_process_args) alone, its output marked `[peers]`,
/// and waits; returns its exit code. throws std::runtime_error when it cannot start.
int run_peer_process(const std::vector<std::string>& args);

}  // namespace membench
