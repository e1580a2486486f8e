// The PCIe link between host and GPU, read from sysfs: the ceiling for host-device copies
// (H1), recorded in the JSON context. Plain host code, unit-tested.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace membench {

struct pcie_link {
  double gt_per_s = 0;  ///< transfer rate per lane, GT/s
  int width = 0;        ///< lanes
  int generation = 0;   ///< 1..6, from the rate
  /// Theoretical bytes per second in each direction, decimal GB/s.
  double gbps() const;
  std::string str() const;  ///< "gen5 x16, 63.0 GB/s per direction"
};

/// PCIe generation of a per-lane rate (2.5 -> 1, ..., 64 -> 6), 0 when not a PCIe rate.
int pcie_generation(double gt_per_s);
/// Payload bits per transferred bit: 8b/10b up to gen 2, 128b/130b for gen 3-5, 242/256
/// (FLIT with FEC) for gen 6.
double pcie_encoding_efficiency(int generation);
/// The link of a generation (1..6) and width, as NVML reports them; null for others.
std::optional<pcie_link> pcie_link_of(int generation, int width);
/// "16.0 GT/s PCIe" or "8 GT/s" -> 16.0 / 8.0; null for "Unknown" or anything else.
std::optional<double> parse_link_speed(std::string_view text);

/// The current link of the device at `pci_bus_id` ("0000:17:00.0", any case) under
/// `sysfs_root`; null when sysfs does not say (virtual machines often report "Unknown").
std::optional<pcie_link> read_pcie_link(const std::string& pci_bus_id,
                                        const std::string& sysfs_root = "/sys/bus/pci/devices");

}  // namespace membench
