// B4 distributed shared memory (thread-block clusters): why a GPU or a build cannot run
// the cluster kernels. Host-compilable; each experiment's own host part is dsm_latency.hpp or
// dsm_bandwidth.hpp, the device functions the kernels share are in dsm.cuh.
#pragma once

#include <cstdint>
#include <string>

namespace membench::cluster {

/// Why clusters cannot run on a GPU of compute capability `arch` (86 = 8.6), "" when they can.
inline std::string dsm_arch_problem(int arch) {
  if (arch >= 90) return {};
  return "needs sm_90 (thread-block clusters); this GPU is sm_" + std::to_string(arch);
}

/// Why a kernel whose loaded code is for `binary_version` cannot run its cluster code: a
/// build without sm_90 SASS runs its older PTX, whose kernels are empty.
inline std::string dsm_binary_problem(int binary_version) {
  if (binary_version >= 90) return {};
  return "this build has no sm_90 code for the cluster kernels (they run as sm_" + std::to_string(binary_version) +
         "): build for architecture 90";
}

/// Why `clusters` resident clusters of `cluster` blocks with `smem` bytes of shared memory
/// each are too few to launch one, "" when at least one fits.
inline std::string dsm_fit_problem(unsigned cluster, std::uint64_t smem, int clusters) {
  if (clusters > 0) return {};
  return "a cluster of " + std::to_string(cluster) + " blocks with " + std::to_string(smem >> 10) +
         " KiB of shared memory each does not fit on this GPU (cudaOccupancyMaxActiveClusters is 0)";
}

}  // namespace membench::cluster
