// Deterministic, non-trivial input data, defined per index so that host references
// need no host copy of the input. Never zeros: zeros hide unwritten outputs.
#pragma once

#include <cstdint>

#include "hd.hpp"

namespace membench {

/// 64 -> 32 bit mixer (splitmix64 finaliser).
MEMBENCH_HD std::uint32_t hash32(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::uint32_t>(x ^ (x >> 31));
}

/// Word `i` of an input buffer seeded with `seed`.
MEMBENCH_HD std::uint32_t pattern_word(std::uint64_t i, std::uint32_t seed) {
  return hash32(i ^ (static_cast<std::uint64_t>(seed) << 40));
}

/// Values in [1, 32768.5] with one fractional bit: sums of up to 2^7 of them are exact
/// in float, so device and host results compare bit for bit.
template <class T>
MEMBENCH_HD T pattern_value(std::uint64_t i, std::uint32_t seed) {
  return T(1) + static_cast<T>(pattern_word(i, seed) & 0xFFFFu) * T(0.5);
}

/// Poison for outputs: not a value pattern_value can produce (it is < 1).
template <class T>
MEMBENCH_HD T poison_value() {
  return T(-0.25);
}

}  // namespace membench
