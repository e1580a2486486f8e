// H3 managed memory: a kernel that reads every word of a managed array once and sums it,
// so the checksum proves every page arrived.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace membench::host {

inline constexpr std::uint32_t managed_seed = 71;

/// Where the pages are, and what the driver was told, when the timed work starts.
enum class managed_policy {
  fault,        ///< on the host; the kernel's page faults migrate them (first touch by the GPU)
  prefetch,     ///< on the host; timed: cudaMemPrefetchAsync to the GPU, then the kernel
  resident,     ///< already on the GPU: the kernel alone
  read_mostly,  ///< cudaMemAdviseSetReadMostly, GPU copies invalidated by a host write: faults make read-only copies
  accessed_by,  ///< preferred location host + accessed by the GPU: mapped, read over PCIe without migrating
};
inline constexpr std::array<managed_policy, 5> all_managed_policies{managed_policy::fault, managed_policy::prefetch,
                                                                    managed_policy::resident, managed_policy::read_mostly,
                                                                    managed_policy::accessed_by};
constexpr const char* to_string(managed_policy p) {
  switch (p) {
    case managed_policy::fault: return "fault";
    case managed_policy::prefetch: return "prefetch";
    case managed_policy::resident: return "resident";
    case managed_policy::read_mostly: return "read_mostly";
    case managed_policy::accessed_by: return "accessed_by";
  }
  return "?";
}

/// Bytes the timed work reads (and, where it migrates, moves): the array once.
constexpr std::uint64_t managed_bytes(std::uint64_t bytes) { return bytes; }

}  // namespace membench::host
