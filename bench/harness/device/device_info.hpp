// What the JSON context says about the device and the build.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace membench {

struct device_info {
  int index = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::uint64_t l2_bytes = 0;
  std::uint64_t global_mem_bytes = 0;
  std::uint64_t smem_per_sm_bytes = 0;
  std::uint64_t smem_per_block_optin_bytes = 0;  ///< the most one block may ask for
  int mem_bus_bits = 0;
  int mem_clock_khz = 0;
  int sm_clock_khz = 0;
  bool ecc = false;
  std::string pci_bus_id;
  std::string uuid;  ///< "GPU-...", from the runtime (the same string NVML and nvidia-smi give)
  int driver_version = 0;   ///< e.g. 13000
  int runtime_version = 0;  ///< e.g. 13000

  int arch() const { return cc_major * 10 + cc_minor; }
  /// Theoretical DRAM bandwidth in GB/s (decimal); 0 when the device does not report it.
  double peak_dram_gbps() const;
};

/// Double data rate: two transfers per memory clock over the full bus width.
double theoretical_dram_gbps(int mem_clock_khz, int bus_bits);

/// 13000 -> "13.0", 12040 -> "12.4"
std::string format_cuda_version(int v);

struct build_info {
  std::string cache_mode;  ///< default, ca or cg
  std::string cuda_architectures;
  std::string build_type;
  std::string git_commit;
  std::string benchmark_version;
  std::string compiler;
};

/// Key/value pairs for benchmark::AddCustomContext. `device` empty: the context says so.
std::vector<std::pair<std::string, std::string>> context_entries(const std::optional<device_info>& device,
                                                                  const std::string& no_device_reason,
                                                                  const build_info& build);

/// Reads the properties of `index`. throws cuda_error
device_info query_device(int index);

}  // namespace membench
