// L2 bandwidth: a resident grid reads one global set of 16-byte elements with ld.global.cg
// (L2 only in every build). Thread t's load j reads element (t + j * step) mod n, step = the
// grid's thread count mod n: each load round of the grid reads the next `threads` elements
// of the set, wrapping, so every pass spreads over the whole set and every block starts at a
// different offset; each warp reads 512 contiguous bytes. The host part: the shape, the
// element map, the reference sums and the bytes formula.
#pragma once

#include <cstdint>
#include <vector>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"
#include "../common/types.hpp"
#include "../shared/bandwidth.hpp"

namespace membench::cache {

inline constexpr unsigned l2_bw_block = 512;
inline constexpr std::uint32_t l2_bw_seed = 0xB22;
/// Loads per launch, in bytes: ~0.9 ms at 9.5 TB/s, so that the launch's fixed cost (~2 us on
/// an H200; 1 GiB launches read 2-6 % low, 21 % at 48 MiB) stays near 0.2 %.
inline constexpr std::uint64_t l2_bw_target_bytes = std::uint64_t{8} << 30;
/// Loads per thread come in groups of this many (the kernel's unrolled, independent loads).
inline constexpr std::uint32_t l2_bw_unroll = 8;

struct l2_bw_shape {
  std::uint32_t n;      ///< 16-byte elements in the set
  std::uint32_t step;   ///< the grid's thread count mod n
  std::uint32_t loads;  ///< loads per thread, a multiple of l2_bw_unroll
};

/// The shape for a set of `set_bytes` read by `threads` threads: about l2_bw_target_bytes of
/// loads per launch, at least one group of loads per thread.
constexpr l2_bw_shape make_l2_bw_shape(std::uint64_t set_bytes, std::uint64_t threads) {
  const std::uint64_t n = set_bytes / 16;
  const std::uint64_t per_thread = (l2_bw_target_bytes / 16 + threads - 1) / threads;
  const std::uint64_t loads = (per_thread + l2_bw_unroll - 1) / l2_bw_unroll * l2_bw_unroll;
  return {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(threads % n), static_cast<std::uint32_t>(loads)};
}

/// The element thread t reads at its load j (the kernel steps there by adding `step`).
MEMBENCH_HD std::uint32_t l2_bw_element(const l2_bw_shape& s, std::uint64_t t, std::uint64_t j) {
  return static_cast<std::uint32_t>((t + j * s.step) % s.n);
}

/// Element e of the set: four words of the pattern, never all zero in aggregate.
MEMBENCH_HD word16 l2_bw_value(std::uint64_t e) {
  return {pattern_word(4 * e, l2_bw_seed), pattern_word(4 * e + 1, l2_bw_seed), pattern_word(4 * e + 2, l2_bw_seed),
          pattern_word(4 * e + 3, l2_bw_seed)};
}

/// prefix[i] = the sum (mod 2^32) of the folded elements before i: a block's sum is a few
/// range sums, not a walk over every load.
inline std::vector<std::uint32_t> l2_bw_prefix(std::uint32_t n) {
  std::vector<std::uint32_t> prefix(std::size_t{n} + 1);
  prefix[0] = 0;
  for (std::uint32_t e = 0; e < n; ++e) prefix[e + 1] = prefix[e] + shared::bw_fold(l2_bw_value(e));
  return prefix;
}

/// The sum of block b (of `block` threads, block <= n): at load j its threads read the
/// `block` elements from (b * block + j * step) mod n on, wrapping at n.
inline std::uint32_t l2_bw_block_expected(const std::vector<std::uint32_t>& prefix, const l2_bw_shape& s,
                                          std::uint32_t block, std::uint64_t b) {
  std::uint32_t sum = 0;
  for (std::uint64_t j = 0; j < s.loads; ++j) {
    const std::uint32_t start = l2_bw_element(s, b * block, j);
    const std::uint64_t end = std::uint64_t{start} + block;
    if (end <= s.n) {
      sum += prefix[end] - prefix[start];
    } else {
      sum += prefix[s.n] - prefix[start] + prefix[end - s.n];
    }
  }
  return sum;
}

/// Bytes per launch: every thread's loads of 16 bytes, and one 4-byte sum per block.
constexpr std::uint64_t l2_bw_bytes(const l2_bw_shape& s, std::uint64_t blocks, std::uint64_t block) {
  return blocks * (block * s.loads * 16 + 4);
}

}  // namespace membench::cache
