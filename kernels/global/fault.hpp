// The fault demonstration (opt-in, --fault-demo): a copy whose first thread also reads an
// address that faults, so the harness's fault handling can be shown on a real GPU.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::global {

inline constexpr std::uint32_t fault_seed = 31;

enum class fault_cause { illegal_address, misaligned_address };

/// An address the first thread reads: far past any allocation (illegal address) or one
/// byte into `base` for a 4-byte load (misaligned address). Both are sticky errors.
constexpr std::uintptr_t fault_address(std::uintptr_t base, fault_cause cause) {
  return cause == fault_cause::illegal_address ? base + (std::uintptr_t{1} << 44) : base + 1;
}

/// out[i] = in[i]: what the kernel would produce if it did not fault.
MEMBENCH_HD void fault_copy_element(std::size_t i, std::size_t n, const float* in, float* out) {
  if (i < n) out[i] = in[i];
}

inline float fault_expected(std::size_t i) { return pattern_value<float>(i, fault_seed); }

/// Bytes per launch: one read and one write per element.
constexpr std::uint64_t fault_bytes(std::uint64_t n) { return 2 * n * sizeof(float); }

}  // namespace membench::global
