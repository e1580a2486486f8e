#include "list_devices.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "harness/core/check.hpp"
#include "harness/device/nvml.hpp"
#include "harness/device/pcie.hpp"

namespace membench {

std::string format_device_list(const std::vector<listed_device>& devices, int selected) {
  std::string out = fmt::format("{:<3} {:<6} {:<28} {:<14} {:>9} {:>4} {:>8} {:>8} {:>7} {:>9}  {:<34} {}\n", "", "index",
                                "name", "bus id", "memory", "SMs", "SM MHz", "mem MHz", "L2", "peak GB/s", "PCIe link",
                                "NVLink");
  for (const auto& d : devices) {
    const device_info& i = d.info;
    out += fmt::format("{:<3} {:<6} {:<28} {:<14} {:>6.1f}GiB {:>4} {:>8} {:>8} {:>4}MiB {:>9.0f}  {:<34} {}\n",
                       i.index == selected ? "*" : "", i.index, i.name, i.pci_bus_id,
                       static_cast<double>(i.global_mem_bytes) / (1 << 30), i.sm_count, i.sm_clock_khz / 1000,
                       i.mem_clock_khz / 1000, i.l2_bytes >> 20, i.peak_dram_gbps(), d.link, d.nvlink);
    out += fmt::format("{:<3} {:<6} {}\n", "", "", i.uuid);
  }
  out += fmt::format("* the device a run uses (--device={}); CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER=PCI_BUS_ID "
                     "change the indices\n",
                     selected);
  return out;
}

std::vector<listed_device> list_devices() {
  int count = 0;
  MEMBENCH_CUDA_CHECK(cudaGetDeviceCount(&count));
  std::vector<listed_device> out;
  for (int d = 0; d < count; ++d) {
    listed_device l{query_device(d), "unknown"};
    std::string why;
    if (auto nvml = nvml_device::open(l.info.pci_bus_id, why)) {
      if (auto p = nvml->pcie()) {
        if (auto link = pcie_link_of(p->max_generation, p->max_width))
          l.link = fmt::format("{}, now gen{} x{}", link->str(), p->current_generation, p->current_width);
      }
      if (auto n = nvml->nvlink()) l.nvlink = describe_nvlink(*n);
    } else {
      l.nvlink = "unknown (no NVML)";
      if (auto p = read_pcie_link(l.info.pci_bus_id)) l.link = p->str();
    }
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace membench
