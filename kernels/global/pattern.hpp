// G4 access patterns for the cache-mode comparison: scattered gathers (no reuse, one
// sector per element) and block-local reuse (every element read 4 times by its block).
#pragma once

#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::global {

inline constexpr std::uint32_t pattern_seed = 51;

/// A permutation of [0, n) for n a power of two: odd multipliers are invertible mod 2^k,
/// and this one sends neighbouring i far apart.
MEMBENCH_HD std::uint64_t scatter_index(std::uint64_t i, std::uint64_t n) { return (i * 0x9E3779B1ull) & (n - 1); }

template <class T>
MEMBENCH_HD void read_scatter_element(std::uint64_t i, std::uint64_t n, const T* in, T* out) {
  out[i] = in[scatter_index(i, n)];
}

template <class T>
MEMBENCH_HD T read_scatter_expected(std::uint64_t i, std::uint64_t n) {
  return pattern_value<T>(scatter_index(i, n), pattern_seed);
}

/// Reuse: a block of reuse_block threads owns a window of reuse_window elements and
/// each thread sums reuse_reads of them, coalesced, so every element is read
/// reuse_block * reuse_reads / reuse_window = 4 times by the same block.
inline constexpr unsigned reuse_block = 256;
inline constexpr unsigned reuse_window = 1024;
inline constexpr unsigned reuse_reads = 16;
inline constexpr unsigned reuse_step = 64;

MEMBENCH_HD std::uint64_t reuse_index(std::uint64_t block, unsigned tid, unsigned r) {
  return block * reuse_window + ((tid + r * reuse_step) & (reuse_window - 1));
}

template <class T>
MEMBENCH_HD void read_reuse_element(std::uint64_t block, unsigned tid, const T* in, T* out) {
  T acc = 0;
  for (unsigned r = 0; r < reuse_reads; ++r) acc += in[reuse_index(block, tid, r)];
  out[block * reuse_block + tid] = acc;
}

template <class T>
MEMBENCH_HD T read_reuse_expected(std::uint64_t o) {
  const std::uint64_t block = o / reuse_block;
  const auto tid = static_cast<unsigned>(o % reuse_block);
  T acc = 0;
  for (unsigned r = 0; r < reuse_reads; ++r) acc += pattern_value<T>(reuse_index(block, tid, r), pattern_seed);
  return acc;
}

/// Bytes requested per launch (loads as issued, not as served by a cache).
constexpr std::uint64_t scatter_bytes(std::uint64_t n, std::uint64_t elem_bytes) { return 2 * n * elem_bytes; }
constexpr std::uint64_t reuse_bytes(std::uint64_t n_out, std::uint64_t elem_bytes) {
  return n_out * (reuse_reads + 1) * elem_bytes;
}

}  // namespace membench::global
