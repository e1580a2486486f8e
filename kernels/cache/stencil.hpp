// C4 1D stencil of radius 4 (Professional CUDA C 5.5.1): out[i] = sum_{j=1..4} c_j *
// (in[i + 4 + j] - in[i + 4 - j]) over an input padded by the radius on both sides. The
// point function is shared by the kernel (which reads a shared-memory tile) and the host
// reference; explicit fmaf keeps both bit for bit equal.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::cache {

/// Where the kernel reads the coefficients: the constant bank, __ldg, or plain global loads.
enum class stencil_source { constant, ldg, global };

inline constexpr std::uint32_t stencil_seed = 101;
inline constexpr unsigned stencil_radius = 4;
inline constexpr unsigned stencil_block = 256;
/// The lesson's finite-difference coefficients a1..a4 (a0 = 0 is not applied).
MEMBENCH_HD constexpr float stencil_coefficient(unsigned j) {
  switch (j) {
    case 1: return 0.8f;
    case 2: return -0.2f;
    case 3: return 0.03809f;
    default: return -0.00357f;
  }
}

/// c_j from the host table (the reference's coefficient source).
struct stencil_host_coef {
  MEMBENCH_HD float operator()(unsigned j) const { return stencil_coefficient(j); }
};

/// One output point. `s` points at the centre (in[i + radius]); coef(j) returns c_j, j = 1..radius.
template <class Coef>
MEMBENCH_HD float stencil_point(const float* s, Coef&& coef) {
  float tmp = 0.0f;
  for (unsigned j = 1; j <= stencil_radius; ++j) tmp = fmaf(coef(j), s[j] - s[-static_cast<int>(j)], tmp);
  return tmp;
}

/// Input element k (0 <= k < n + 2 * radius).
MEMBENCH_HD float stencil_input(std::uint64_t k) { return pattern_value<float>(k, stencil_seed); }

/// out[i] from the pattern input.
inline float stencil_expected(std::uint64_t i) {
  std::array<float, 2 * stencil_radius + 1> window{};
  for (unsigned k = 0; k < window.size(); ++k) window[k] = stencil_input(i + k);
  return stencil_point(window.data() + stencil_radius, stencil_host_coef{});
}

/// Bytes per launch as requested: each block reads its tile plus both halos, every
/// point is written once (n a multiple of stencil_block); coefficients are not counted.
constexpr std::uint64_t stencil_bytes(std::uint64_t n) {
  return (n + n / stencil_block * 2 * stencil_radius) * 4 + n * 4;
}

}  // namespace membench::cache
