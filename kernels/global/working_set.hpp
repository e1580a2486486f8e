// G5 working-set sweep: a resident grid reads a working set of 16-byte elements in passes
// until at least working_set_target bytes were loaded per launch. Power-of-two sets wrap
// with a mask (any size against the grid); other sizes must cover the grid (n >= threads)
// and wrap by one subtraction.
#pragma once

#include <algorithm>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"
#include "../common/types.hpp"

namespace membench::global {

inline constexpr std::uint32_t working_set_seed = 41;
/// Bytes loaded per launch at least: keeps launches long against launch overhead.
inline constexpr std::uint64_t working_set_target = std::uint64_t{1} << 30;
/// Rotate map: each pass shifts by this many blocks, so a block reads data another SM
/// read last pass (37 shares no factor with common SM counts).
inline constexpr std::uint64_t working_set_rotation_blocks = 37;

struct working_set_shape {
  std::uint64_t n = 0;        ///< elements (word16)
  std::uint64_t threads = 0;  ///< threads in the grid
  std::uint64_t span = 0;     ///< max(n, threads): index positions one pass covers
  std::uint64_t inner = 0;    ///< loads per thread per pass
  std::uint64_t passes = 0;
  std::uint64_t shift = 0;  ///< elements the map moves per pass (0 = fixed), below n unless n is a power of two
};

constexpr bool is_pow2(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

/// Shape for a working set of `bytes` (a multiple of 16) read by `threads` threads.
/// bytes <= 2 GiB and threads < 2^31 keep working_set_cursor's 32-bit positions exact.
/// A size that is not a power of two needs n >= threads (working_set_shape_ok).
constexpr working_set_shape make_working_set_shape(std::uint64_t bytes, std::uint64_t threads, unsigned block,
                                                   bool rotate) {
  working_set_shape s;
  s.n = bytes / sizeof(word16);
  s.threads = threads;
  s.span = std::max(s.n, threads);
  s.inner = (s.span + threads - 1) / threads;
  const std::uint64_t per_pass = s.span * sizeof(word16);
  s.passes = std::max<std::uint64_t>(1, (working_set_target + per_pass - 1) / per_pass);
  s.shift = rotate ? working_set_rotation_blocks * block : 0;
  if (!is_pow2(s.n) && s.n != 0) s.shift %= s.n;  // the pass offset stays below n
  return s;
}

/// Whether the kernel can walk the shape: a power of two, or at least one element per thread.
constexpr bool working_set_shape_ok(const working_set_shape& s) { return s.n != 0 && (is_pow2(s.n) || s.n >= s.threads); }

/// Element read by position e (< span) in pass p.
MEMBENCH_HD std::uint64_t working_set_index(const working_set_shape& s, std::uint64_t e, std::uint64_t p) {
  return (e + p * s.shift) % s.n;
}

/// One thread's loads in launch order as one flat sequence (passes x its loads per pass),
/// so the kernel's loop unrolls across passes without a branch around each load. A nested
/// loop kept one load in flight per thread when a pass is one load (working sets up to
/// threads x 16 bytes): those rows measured the loop at about 10 TB/s, not the L1.
/// Index arithmetic is 32-bit (half the instructions of 64-bit): positions stay below
/// span <= 2^27. Pow2: the pass offset may wrap mod 2^32 because n divides 2^32, and a mask
/// takes the index mod n. Otherwise the offset is kept below n and e < n, so one
/// subtraction does (a modulo per load would cost more than the load on L1-resident sets).
template <bool Pow2>
struct working_set_cursor {
  std::uint32_t start = 0;     ///< thread index: position of the first load of every pass
  std::uint32_t threads = 0;   ///< stride between a thread's loads within a pass
  std::uint32_t mask = 0;      ///< n - 1
  std::uint32_t n = 0;
  std::uint32_t shift = 0;     ///< positions the map moves per pass
  std::uint32_t per_pass = 0;  ///< this thread's loads per pass: positions t + j * threads < span
  std::uint32_t e = 0;         ///< position within the pass
  std::uint32_t base = 0;      ///< pass x shift, mod 2^32
  std::uint32_t j = 0;         ///< load within the pass

  /// t < s.threads <= s.span, so every thread loads at least once per pass.
  MEMBENCH_HD working_set_cursor(const working_set_shape& s, std::uint64_t t)
      : start(static_cast<std::uint32_t>(t)),
        threads(static_cast<std::uint32_t>(s.threads)),
        mask(static_cast<std::uint32_t>(s.n - 1)),
        n(static_cast<std::uint32_t>(s.n)),
        shift(static_cast<std::uint32_t>(s.shift)),
        per_pass(static_cast<std::uint32_t>((s.span - t + s.threads - 1) / s.threads)),
        e(static_cast<std::uint32_t>(t)) {}
  MEMBENCH_HD std::uint64_t loads(const working_set_shape& s) const { return s.passes * per_pass; }
  /// Equals working_set_index(s, e, pass).
  MEMBENCH_HD std::uint32_t index() const {
    if constexpr (Pow2) {
      return (e + base) & mask;
    } else {
      const std::uint32_t i = e + base;
      return i >= n ? i - n : i;
    }
  }
  MEMBENCH_HD void next() {
    e += threads;
    if (++j == per_pass) {
      j = 0;
      e = start;
      base += shift;
      if constexpr (!Pow2) base = base >= n ? base - n : base;
    }
  }
};

MEMBENCH_HD word16 working_set_value(std::uint64_t idx) {
  return word16{pattern_word(4 * idx, working_set_seed), pattern_word(4 * idx + 1, working_set_seed),
                pattern_word(4 * idx + 2, working_set_seed), pattern_word(4 * idx + 3, working_set_seed)};
}

MEMBENCH_HD std::uint32_t working_set_fold(const word16& v) { return v.x + v.y + v.z + v.w; }

/// What thread `t` adds up over a launch (mod 2^32), from the pattern.
inline std::uint32_t working_set_thread_expected(const working_set_shape& s, std::uint64_t t) {
  std::uint32_t acc = 0;
  for (std::uint64_t p = 0; p < s.passes; ++p) {
    for (std::uint64_t j = 0; j < s.inner; ++j) {
      const std::uint64_t e = t + j * s.threads;
      if (e < s.span) acc += working_set_fold(working_set_value(working_set_index(s, e, p)));
    }
  }
  return acc;
}

/// Bytes loaded per launch plus the 4-byte partial per block.
constexpr std::uint64_t working_set_bytes(const working_set_shape& s, std::uint64_t blocks) {
  return s.passes * s.span * sizeof(word16) + 4 * blocks;
}

}  // namespace membench::global
