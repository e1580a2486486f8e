// G2 element function, reference and bytes formulas: strided reads.
#pragma once

#include <algorithm>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::global {

inline constexpr std::uint32_t stride_seed = 31;

/// out[i] = in[i * stride]: consecutive threads read elements `stride` apart.
template <class T>
MEMBENCH_HD void read_stride_element(std::uint64_t i, std::uint64_t stride, const T* in, T* out) {
  out[i] = in[i * stride];
}

template <class T>
MEMBENCH_HD T read_stride_expected(std::uint64_t i, std::uint64_t stride) {
  return pattern_value<T>(i * stride, stride_seed);
}

/// Useful bytes per launch: each output element read once and written once.
constexpr std::uint64_t stride_bytes(std::uint64_t n_out, std::uint64_t elem_bytes) { return 2 * n_out * elem_bytes; }

/// 32-byte sectors one warp's 32 loads touch (the warp's first element is sector aligned).
constexpr std::uint64_t stride_warp_sectors(std::uint64_t stride, std::uint64_t elem_bytes) {
  const std::uint64_t last_byte = 31 * stride * elem_bytes + elem_bytes - 1;
  return std::min<std::uint64_t>(32, last_byte / 32 + 1);
}

/// Fraction of the loaded sector bytes the kernel uses (the lessons' gld_efficiency).
constexpr double stride_load_efficiency(std::uint64_t stride, std::uint64_t elem_bytes) {
  return static_cast<double>(32 * elem_bytes) / static_cast<double>(32 * stride_warp_sectors(stride, elem_bytes));
}

}  // namespace membench::global
