// B6 element function, reference and bytes formula: atomic adds to global memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::global {

/// Which counter a thread adds to: its own neighbouring one (`coalesced`: a warp's 32 adds
/// go to 32 consecutive words), one per warp (`uniform`: 32 adds to one address), or a
/// hashed one (`scattered`: a warp's adds spread over the whole array).
enum class atomic_pattern { coalesced, uniform, scattered };

inline constexpr unsigned atomic_warp = 32;
inline constexpr std::uint32_t atomic_seed = 41;

/// The counter thread `t` adds to, of `counters`.
MEMBENCH_HD std::size_t atomic_target(atomic_pattern p, std::uint64_t t, std::size_t counters) {
  switch (p) {
    case atomic_pattern::coalesced: return static_cast<std::size_t>(t % counters);
    case atomic_pattern::uniform: return static_cast<std::size_t>((t / atomic_warp) % counters);
    case atomic_pattern::scattered: return pattern_word(t, atomic_seed) % counters;
  }
  return 0;
}

/// Thread `t`'s work: `adds` additions of 1 to its counter, through `add(address, value)`
/// (atomicAdd on the device, a plain += in the host test).
template <class T, class Add>
MEMBENCH_HD void atomic_add_element(std::uint64_t t, T* counters, std::size_t n, unsigned adds, atomic_pattern p,
                                    Add add) {
  T* counter = counters + atomic_target(p, t, n);
  for (unsigned k = 0; k < adds; ++k) add(counter, T(1));
}

/// Each of `n` counters after one launch of `threads` from zero: `adds` per thread that
/// targets it. The family keeps every count below 2^24, so float adds of 1 are exact in
/// any order.
inline std::vector<std::uint64_t> atomic_expected_counts(atomic_pattern p, std::uint64_t threads, std::size_t n,
                                                         unsigned adds) {
  std::vector<std::uint64_t> counts(n, 0);
  for (std::uint64_t t = 0; t < threads; ++t) counts[atomic_target(p, t, n)] += adds;
  return counts;
}

/// Bytes per launch: every add reads and writes one element (in the L2, whose atomic
/// units perform it).
constexpr std::uint64_t atomic_bytes(std::uint64_t threads, unsigned adds, std::uint64_t elem_bytes) {
  return threads * adds * 2 * elem_bytes;
}

}  // namespace membench::global
