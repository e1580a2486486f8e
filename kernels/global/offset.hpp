// G1 element functions, references and bytes formula: readSegment / writeSegment.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::global {

inline constexpr std::uint32_t offset_seed_a = 11;
inline constexpr std::uint32_t offset_seed_b = 12;

/// readSegment: c[i] = a[i + offset] + b[i + offset] while i + offset < n.
template <class T>
MEMBENCH_HD void read_offset_element(std::size_t i, std::size_t n, std::size_t offset, const T* a, const T* b, T* c) {
  const std::size_t k = i + offset;
  if (k < n) c[i] = a[k] + b[k];
}

/// writeSegment: c[i + offset] = a[i] + b[i] while i + offset < n.
template <class T>
MEMBENCH_HD void write_offset_element(std::size_t i, std::size_t n, std::size_t offset, const T* a, const T* b, T* c) {
  const std::size_t k = i + offset;
  if (k < n) c[k] = a[i] + b[i];
}

/// c[i] after read_offset over the pattern inputs; poison where nothing is written.
template <class T>
MEMBENCH_HD T read_offset_expected(std::size_t i, std::size_t n, std::size_t offset) {
  const std::size_t k = i + offset;
  return k < n ? pattern_value<T>(k, offset_seed_a) + pattern_value<T>(k, offset_seed_b) : poison_value<T>();
}

/// c[i] after write_offset over the pattern inputs; poison where nothing is written.
template <class T>
MEMBENCH_HD T write_offset_expected(std::size_t i, std::size_t n, std::size_t offset) {
  return i >= offset && i < n ? pattern_value<T>(i - offset, offset_seed_a) + pattern_value<T>(i - offset, offset_seed_b)
                              : poison_value<T>();
}

/// Bytes requested per launch: two reads and one write per processed element.
constexpr std::uint64_t offset_bytes(std::uint64_t n, std::uint64_t offset, std::uint64_t elem_bytes) {
  return offset >= n ? 0 : (n - offset) * 3 * elem_bytes;
}

}  // namespace membench::global
