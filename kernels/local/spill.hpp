// S3 local memory: one element function, a per-thread array updated in rounds through a
// rotated index. With the rotation known at compile time every index folds to a constant
// and the array lives in registers; with the rotation a kernel argument the array must be
// addressable, so the compiler places it in local memory. Same work, same result.
#pragma once

#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

#if defined(__CUDA_ARCH__)
#define MEMBENCH_SPILL_UNROLL _Pragma("unroll")
#else
#define MEMBENCH_SPILL_UNROLL
#endif

namespace membench::local {

inline constexpr std::uint32_t spill_seed = 71;
/// The rotation both variants apply: a template constant in one, an argument in the other.
inline constexpr unsigned spill_rotation = 3;
/// Array updates per thread per launch (rounds * elems), the same for every array size.
inline constexpr unsigned spill_updates = 2048;
inline constexpr unsigned spill_block = 256;
inline constexpr std::uint64_t spill_threads = std::uint64_t{1} << 18;

constexpr unsigned spill_rounds(unsigned elems) { return spill_updates / elems; }

/// What a thread computes from its input word: an N-element array (N a power of two)
/// seeded from `w`, `rounds` rounds of a[i] = 5 a[i] + a[(i + rot) mod N] + round, in order,
/// then a position-weighted fold. Modulo 2^32, so host and device agree bit for bit.
template <unsigned N>
MEMBENCH_HD std::uint32_t spill_element(std::uint32_t w, unsigned rot, unsigned rounds) {
  static_assert(N >= 2 && (N & (N - 1)) == 0, "N must be a power of two");
  std::uint32_t a[N];
  MEMBENCH_SPILL_UNROLL
  for (unsigned i = 0; i < N; ++i) a[i] = w ^ (0x9E3779B9u * (i + 1));
  for (unsigned r = 0; r < rounds; ++r) {
    MEMBENCH_SPILL_UNROLL
    for (unsigned i = 0; i < N; ++i) a[i] = 5u * a[i] + a[(i + rot) & (N - 1)] + r;
  }
  std::uint32_t acc = 0;
  MEMBENCH_SPILL_UNROLL
  for (unsigned i = 0; i < N; ++i) acc += a[i] * (2 * i + 1);
  return acc;
}

/// out[t] for the input word pattern_word(t, spill_seed).
template <unsigned N>
std::uint32_t spill_expected(std::uint64_t t) {
  return spill_element<N>(pattern_word(t, spill_seed), spill_rotation, spill_rounds(N));
}

/// Bytes per launch: the input and output word of every thread plus the array traffic the
/// updates would cause if the array lived in memory (two 4-byte loads and one store per
/// update), the same formula for both variants so their rates compare directly.
constexpr std::uint64_t spill_bytes(std::uint64_t threads, unsigned elems) {
  return threads * (8 + std::uint64_t{spill_rounds(elems)} * elems * 12);
}

}  // namespace membench::local
