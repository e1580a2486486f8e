// A4: static __device__ arrays and the symbol copy API.
#pragma once

#include <cstdint>

namespace membench::host {

/// Capacity of the static array the symbol rows copy into (its largest size).
inline constexpr std::uint64_t symbol_capacity_bytes = std::uint64_t{16} << 20;

}  // namespace membench::host
