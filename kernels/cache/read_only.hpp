// C2 read-only data cache: each thread sums read_only_loads elements of a table, read
// coalesced (consecutive lanes, consecutive elements) or scattered (a multiplicative
// permutation: every lane of a warp in its own 32-byte sector), through plain loads,
// `const __restrict__` pointers or __ldg. The index map, reference and bytes formula.
#pragma once

#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::cache {

inline constexpr std::uint32_t read_only_seed = 81;
inline constexpr unsigned read_only_block = 256;
/// Loads per thread (independent, unrolled); sums of up to 2^7 pattern values are exact.
inline constexpr unsigned read_only_loads = 16;
/// Threads per launch: 2^22 * 16 = 64 Mi loads (256 MiB requested) whatever the table size.
inline constexpr std::uint64_t read_only_threads = std::uint64_t{1} << 22;

/// Element e of the launch's load stream (e = t + k * threads) maps to a table index;
/// `n` is a power of two. Scattered: an odd multiplier is a permutation modulo 2^k.
template <bool Scattered>
MEMBENCH_HD std::uint64_t read_only_index(std::uint64_t e, std::uint64_t n) {
  return (Scattered ? e * 0x9E3779B1ull : e) & (n - 1);
}

/// Distance in the load stream between a thread's consecutive loads: a sixteenth of the
/// table, so the 16 loads of a thread hit 16 different elements even when the table is
/// smaller than the grid (a stride of `threads`, a multiple of n then, would repeat one).
MEMBENCH_HD std::uint64_t read_only_stride(std::uint64_t n, std::uint64_t threads) {
  return n / read_only_loads < threads ? n / read_only_loads : threads;
}

/// Position of thread t's k-th load in the load stream over a table of n elements.
MEMBENCH_HD std::uint64_t read_only_position(std::uint64_t t, unsigned k, std::uint64_t n, std::uint64_t threads) {
  return t + std::uint64_t{k} * read_only_stride(n, threads);
}

/// out[t] over the pattern table of n floats.
template <bool Scattered>
MEMBENCH_HD float read_only_expected(std::uint64_t t, std::uint64_t n, std::uint64_t threads) {
  float acc = 0;
  for (unsigned k = 0; k < read_only_loads; ++k)
    acc += pattern_value<float>(read_only_index<Scattered>(read_only_position(t, k, n, threads), n), read_only_seed);
  return acc;
}

/// Bytes per launch as requested: read_only_loads floats read and one written per thread.
constexpr std::uint64_t read_only_bytes(std::uint64_t threads) { return threads * (read_only_loads + 1) * 4; }

}  // namespace membench::cache
