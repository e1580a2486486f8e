// H1 and A4: host-device copies. No kernel; the data and the bytes formula.
#pragma once

#include <cstdint>

namespace membench::host {

inline constexpr std::uint32_t copy_seed = 51;
/// What a destination holds before a verified copy: any seed but the source's.
inline constexpr std::uint32_t copy_poison_seed = 52;

/// Bytes one copy moves over the link.
constexpr std::uint64_t copy_bytes(std::uint64_t bytes) { return bytes; }

}  // namespace membench::host
