// `membench --list-devices`: the GPUs this process sees, with the index --device takes.
#pragma once

#include <string>
#include <vector>

#include "harness/device/device_info.hpp"

namespace membench {

struct listed_device {
  device_info info;
  std::string link;  ///< PCIe link from NVML or sysfs, "unknown" when neither says
  std::string nvlink = "none";  ///< NVLinks up and their rate (describe_nvlink), "unknown" without NVML
};

/// One table row per device, marking `selected` (the one --device picks). Plain host logic.
std::string format_device_list(const std::vector<listed_device>& devices, int selected);

/// Every visible device (CUDA_VISIBLE_DEVICES applies). throws cuda_error
std::vector<listed_device> list_devices();

}  // namespace membench
