// The link between two GPUs and its ceiling, for the peer rows' link_gb_per_s: the NVLinks
// that reach the other GPU (directly, or through an NVSwitch, which reaches every GPU of the
// fabric) times their rate, else PCIe. NVML fills link_endpoint (nvml.hpp); the math here is
// plain host code, tested without a GPU. Where NVML cannot tell, there is no ceiling: never a
// wrong one.
#pragma once

#include <compare>
#include <optional>
#include <string_view>
#include <vector>

namespace membench {

/// A PCI function's address without the function: what NVML says an NVLink's far end is.
struct pci_address {
  unsigned domain = 0, bus = 0, device = 0;
  auto operator<=>(const pci_address&) const = default;
};

/// "0000:17:00.0" or "00000000:17:00.0" (hexadecimal, any case); null for anything else.
std::optional<pci_address> parse_pci_address(std::string_view bus_id);

/// What is at the far end of an NVLink (nvmlDeviceGetNvLinkRemoteDeviceType).
enum class far_end_kind {
  gpu,       ///< another GPU: `pci` says which
  nvswitch,  ///< a switch: reaches every GPU of the fabric
  other,     ///< another kind of device, or NVML does not say
};

struct nvlink_far_end {
  far_end_kind kind = far_end_kind::other;
  pci_address pci;
};

/// One GPU as the ceilings see it.
struct link_endpoint {
  pci_address pci;
  std::vector<nvlink_far_end> nvlinks;  ///< one per NVLink up
  double nvlink_gbps = 0;               ///< one direction of one link (0: NVML does not say)
  double pcie_gbps = 0;                 ///< one direction of its PCIe link (0: unknown)
};

struct link_ceiling {
  double gb_per_s = 0;  ///< one direction
  int nvlinks = 0;      ///< NVLinks counted; 0: the path is PCIe
};

/// The NVLinks of `from` that reach `to`: to its PCI address, or to an NVSwitch.
int nvlinks_reaching(const link_endpoint& from, const link_endpoint& to);

/// One direction between two GPUs with peer access: when each has NVLinks reaching the other,
/// the fewer of the two counts times the slower rate; else, when no link of either goes to a
/// device NVML cannot name, the slower PCIe link. Null when NVML cannot tell.
std::optional<link_ceiling> pair_ceiling(const link_endpoint& a, const link_endpoint& b);

/// One direction of a copy staged through host memory (peer access off): the slower PCIe link.
std::optional<link_ceiling> staged_ceiling(const link_endpoint& a, const link_endpoint& b);

/// Into `hub` from every one of `others` at once (or out of it to them, the same links): the
/// NVLink part is the hub's links that reach those peers times its rate, at most the sum of
/// their pair ceilings; the PCIe part the hub's PCIe link, at most the sum of those peers'.
/// Null when a pair's ceiling is unknown.
std::optional<link_ceiling> aggregate_ceiling(const link_endpoint& hub, const std::vector<link_endpoint>& others);

}  // namespace membench
