// Which host CPUs each GPU's process may use when `--devices` runs several at once. Each
// process verifies GiB-sized outputs on as many threads as it has CPUs and times host work
// (allocations, pageable copies) on the CPU it runs on; unpinned, N processes each start a
// thread per CPU of the host and land on any socket. Each GPU gets the CPUs NVML calls local
// to it (its NUMA node), shared evenly with the other GPUs local to the same CPUs, within
// what the launcher itself may use (a Slurm or taskset binding is kept). The lists are plain
// host logic, tested without a GPU; pin_to and allowed_cpus are the two system calls.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace membench {

/// "0-3,8,10-11" as sorted, distinct CPU numbers; null when malformed or empty.
std::optional<std::vector<int>> parse_cpu_list(std::string_view text);

/// Sorted distinct CPU numbers as "0-3,8,10-11" (the kernel's cpulist form); "" for none.
std::string format_cpu_list(const std::vector<int>& cpus);

/// Each device's CPUs: its local CPUs (`local[i]`, empty when unknown) within `allowed`,
/// or all of `allowed` where that leaves none; devices with the same candidates split
/// them into contiguous, near-equal parts in the order given, each at least one CPU.
std::vector<std::vector<int>> share_cpus(const std::vector<std::vector<int>>& local, const std::vector<int>& allowed);

/// The CPUs this process may run on (sched_getaffinity); empty if the call fails.
std::vector<int> allowed_cpus();

/// Restricts this process to `cpus`; returns what failed, or null.
std::optional<std::string> pin_to(const std::vector<int>& cpus);

/// The environment variable with which the launcher gives each process its CPUs.
inline constexpr const char* device_cpus_env = "MEMBENCH_DEVICE_CPUS";

/// Applies device_cpus_env if set (before CUDA starts its threads); what failed, or null.
std::optional<std::string> pin_from_environment();

}  // namespace membench
