// GPU clocks, power, temperature and clock-event (throttle) reasons through NVML, loaded
// at run time with dlopen: no NVML development package is needed to build, and a machine
// without the library still runs (the rows then carry only the kernel-measured clock).
// Read-only: nothing here changes a clock or a setting.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "identity.hpp"
#include "links.hpp"

namespace membench {

/// NVML's clocks-event reason bits (nvmlClocksEventReason*), as documented.
namespace clock_reason {
inline constexpr std::uint64_t gpu_idle = 0x1;
inline constexpr std::uint64_t applications_clocks = 0x2;
inline constexpr std::uint64_t sw_power_cap = 0x4;
inline constexpr std::uint64_t hw_slowdown = 0x8;
inline constexpr std::uint64_t sync_boost = 0x10;
inline constexpr std::uint64_t sw_thermal = 0x20;
inline constexpr std::uint64_t hw_thermal = 0x40;
inline constexpr std::uint64_t hw_power_brake = 0x80;
inline constexpr std::uint64_t display_clocks = 0x100;
/// The reasons that lower the clock under load (power and thermal limits).
inline constexpr std::uint64_t throttling = sw_power_cap | hw_slowdown | sw_thermal | hw_thermal | hw_power_brake;
}  // namespace clock_reason

/// "sw_power_cap+hw_thermal", "none" for 0; unknown bits as hex.
std::string describe_clock_reasons(std::uint64_t reasons);

struct gpu_snapshot {
  double sm_mhz = 0, mem_mhz = 0, power_w = 0, temp_c = 0;
  std::uint64_t reasons = 0;
};

/// The PCIe link as NVML reports it: the most the device and system allow, and now (an
/// idle link may train down to save power).
struct nvml_pcie {
  int max_generation = 0, max_width = 0;
  int current_generation = 0, current_width = 0;
};

class nvml_device {
 public:
  /// The device with this PCI bus id, or null with `why_not` saying what was missing.
  static std::unique_ptr<nvml_device> open(const std::string& pci_bus_id, std::string& why_not);
  ~nvml_device();
  nvml_device(const nvml_device&) = delete;
  nvml_device& operator=(const nvml_device&) = delete;

  /// Current clocks, power, temperature and reasons; null if NVML stops answering.
  std::optional<gpu_snapshot> read() const noexcept;
  /// The clock-event reasons now (one NVML call: cheap enough between samples).
  std::optional<std::uint64_t> reasons() const noexcept;
  /// Nanoseconds the GPU has spent power- or thermal-limited since the driver loaded
  /// (NVML's violation counters); null where NVML does not keep them. A counter cannot
  /// miss an event that began and ended between two reads, as a reasons() poll can.
  std::optional<std::uint64_t> limited_ns() const noexcept;
  /// The PCIe link; null when NVML does not say.
  std::optional<nvml_pcie> pcie() const noexcept;
  /// The CPUs NVML calls local to the GPU (its NUMA node); empty where it does not say.
  std::vector<int> local_cpus() const;
  /// The board's UUID as NVML prints it; empty where NVML does not answer.
  std::string uuid() const;
  /// NVLink links present and up with their rate; null on a GPU without NVLink.
  std::optional<nvlink_links> nvlink() const;
  /// The far end of every NVLink up: NVML's remote PCI address and device type (a link's
  /// kind is `other` where NVML does not say); empty without NVLink.
  std::vector<nvlink_far_end> nvlink_far_ends() const;
  /// Serial, part number, VBIOS, settings, ECC and row-remapping state, NVLink.
  gpu_identity identity() const;
  /// Driver version, maximum SM clock, enforced power limit: for the JSON context.
  std::vector<std::pair<std::string, std::string>> context() const;

  struct api;

 private:
  nvml_device() = default;
  std::unique_ptr<api> api_;
};

}  // namespace membench
