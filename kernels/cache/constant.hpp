// C3 constant memory vs __ldg vs plain global loads of a small table: each thread sums
// constant_loads table elements at an index that is the same for every lane of a warp
// (uniform) or different for every lane (per_lane). The index map, reference, bytes formula.
#pragma once

#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::cache {

inline constexpr std::uint32_t constant_seed = 91;
inline constexpr unsigned constant_block = 256;
/// Loads per thread (independent, unrolled); sums of up to 2^7 pattern values are exact.
inline constexpr unsigned constant_loads = 64;
inline constexpr std::uint64_t constant_threads = std::uint64_t{1} << 20;
/// The whole 64 KiB constant bank a kernel can address, in floats.
inline constexpr unsigned constant_table_max = 16384;

/// Table index of thread t's k-th load; `n` (elements) a power of two. Uniform: keyed by the
/// warp, so all 32 lanes read one address; per_lane: keyed by the thread, and an odd
/// multiplier sends the 32 lanes of a warp to 32 different elements (n >= 32).
template <bool PerLane>
MEMBENCH_HD unsigned constant_index(std::uint64_t t, unsigned k, unsigned n) {
  const std::uint64_t key = PerLane ? t : t / 32;
  return static_cast<unsigned>((key * 0x9E3779B1ull + std::uint64_t{k} * 97) & (n - 1));
}

MEMBENCH_HD float constant_value(unsigned i) { return pattern_value<float>(i, constant_seed); }

/// out[t] for a table of n elements.
template <bool PerLane>
MEMBENCH_HD float constant_expected(std::uint64_t t, unsigned n) {
  float acc = 0;
  for (unsigned k = 0; k < constant_loads; ++k) acc += constant_value(constant_index<PerLane>(t, k, n));
  return acc;
}

/// Bytes per launch as requested by the threads: constant_loads floats read and one
/// written per thread (a uniform load serves 32 lanes from one address).
constexpr std::uint64_t constant_bytes(std::uint64_t threads) { return threads * (constant_loads + 1) * 4; }

}  // namespace membench::cache
