// H2 zero-copy: sumArrays (Professional CUDA C, ch. 4) over device or mapped host memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::host {

inline constexpr std::uint32_t zero_copy_seed_a = 61;
inline constexpr std::uint32_t zero_copy_seed_b = 62;

/// sumArrays: c[i] = a[i] + b[i].
template <class T>
MEMBENCH_HD void sum_arrays_element(std::size_t i, const T* a, const T* b, T* c) {
  c[i] = a[i] + b[i];
}

template <class T>
MEMBENCH_HD T sum_arrays_expected(std::size_t i) {
  return pattern_value<T>(i, zero_copy_seed_a) + pattern_value<T>(i, zero_copy_seed_b);
}

/// Bytes the kernel moves: two reads and one write per element.
constexpr std::uint64_t sum_arrays_bytes(std::uint64_t n, std::uint64_t elem_bytes) { return 3 * n * elem_bytes; }
/// Of those, bytes read from mapped host memory (over PCIe) when a and b are mapped.
constexpr std::uint64_t sum_arrays_host_bytes(std::uint64_t n, std::uint64_t elem_bytes) { return 2 * n * elem_bytes; }

}  // namespace membench::host
