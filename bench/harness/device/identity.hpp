// Who a GPU is: the facts that tie a result to one physical board across reboots, nodes
// and jobs (UUID, serial, VBIOS, links, ECC and row-remapping state, settings), and the
// scheduler's job around the process. Plain host code: NVML fills gpu_identity
// (nvml.hpp), these functions turn it into JSON context entries and are tested without a GPU.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace membench {

using context_list = std::vector<std::pair<std::string, std::string>>;

/// NVLink as NVML reports it: links up of those present, and the per-link rate.
struct nvlink_links {
  int up = 0, present = 0;
  unsigned version_code = 0;  ///< nvmlDeviceGetNvLinkVersion of the first link up, as NVML returns it
  double link_gbps = 0;       ///< one direction of one link (NVML's common speed, MB/s / 1000)
  double peak_gbps() const { return up * link_gbps; }
};

struct ecc_counts {
  std::uint64_t corrected = 0, uncorrected = 0;
};

struct remapped_rows {
  unsigned corrected = 0, uncorrected = 0;
  bool pending = false, failed = false;
};

/// What NVML says of the board; every field absent where NVML does not answer.
struct gpu_identity {
  std::string serial, board_part, vbios;
  std::optional<bool> persistence, ecc_pending;
  std::optional<ecc_counts> ecc_volatile, ecc_aggregate;
  std::optional<remapped_rows> rows;
  std::optional<unsigned> mig_mode;
  std::optional<unsigned> app_sm_mhz, app_mem_mhz;
  std::optional<nvlink_links> nvlink;
};

/// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi -L prints the 16 bytes.
std::string format_gpu_uuid(const std::array<unsigned char, 16>& bytes);

/// "18 x 26.6 GB/s (478.1 GB/s per direction)", or "none" when no link is up.
std::string describe_nvlink(const nvlink_links& links);

/// The context entries of an identity (keys from the schema); absent facts are left out.
context_list identity_context(const gpu_identity& id);

/// The scheduler's job identity (Slurm's job, array task and node; a Kubernetes indexed
/// Job's completion index) from `getenv`; empty outside a job.
context_list scheduler_context(const std::function<const char*(const char*)>& getenv);

/// This machine's host name, or "unknown".
std::string host_name();

/// The host's boot id (Linux's /proc/sys/kernel/random/boot_id, or the file at `path`): one
/// value a boot, the same for every GPU of the host; it tells apart hosts named alike (every
/// VM called `vm`). "unknown" when unreadable.
std::string host_boot_id(const std::string& path = "/proc/sys/kernel/random/boot_id");

/// The host CPU's model name (the first `model name` of /proc/cpuinfo, or the file at
/// `path`), or "unknown".
std::string host_cpu_model(const std::string& path = "/proc/cpuinfo");

}  // namespace membench
