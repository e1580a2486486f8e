// S1 shared-memory bank conflicts: the address map the kernel and the host share, the
// bank model (which bank each lane hits, how many wavefronts a warp access takes), the
// tile contents, the reference and the bytes formula.
#pragma once

#include <array>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::shared {

inline constexpr std::uint32_t bank_seed = 61;
inline constexpr unsigned bank_count = 32;        ///< banks of 4 bytes each
inline constexpr unsigned bank_phase_bytes = 128;  ///< bytes one wavefront delivers (32 banks x 4)
inline constexpr unsigned warp_lanes = 32;
inline constexpr unsigned bank_block = 256;
inline constexpr unsigned bank_warps = bank_block / warp_lanes;
/// Loads per inner iteration, at element offsets 0..bank_unroll-1: a uniform shift keeps
/// the bank map and lets each load use an immediate offset (one LDS per access).
inline constexpr unsigned bank_unroll = 8;
/// Outer iterations: bank_reps * bank_unroll = 1024 loads per thread.
inline constexpr unsigned bank_reps = 128;
/// Tile elements per block: lane offsets up to 31 * 33 plus the warp and unroll shifts.
inline constexpr unsigned bank_tile_elems = 34 * 32;

enum class bank_pattern { strided, tile, padded, broadcast };

constexpr const char* to_string(bank_pattern p) {
  switch (p) {
    case bank_pattern::strided: return "strided";
    case bank_pattern::tile: return "tile";
    case bank_pattern::padded: return "padded";
    case bank_pattern::broadcast: return "broadcast";
  }
  return "?";
}

/// Elements between neighbouring lanes: tile = column of W[32][32], padded = column of
/// W[32][33], broadcast = every lane the same element.
constexpr unsigned lane_stride(bank_pattern p, unsigned stride) {
  switch (p) {
    case bank_pattern::strided: return stride;
    case bank_pattern::tile: return 32;
    case bank_pattern::padded: return 33;
    case bank_pattern::broadcast: return 0;
  }
  return 0;
}

/// Tile element that lane `lane` of warp `warp` (in its block) reads at unrolled step j:
/// row `lane` of a tile whose rows are `lane_stride` elements apart, column warp + j.
MEMBENCH_HD unsigned bank_element(unsigned lane_stride, unsigned lane, unsigned warp, unsigned j) {
  return lane * lane_stride + warp + j;
}

/// Tile contents: 32- or 64-bit words from the pattern, never zero in practice.
template <class W>
MEMBENCH_HD W bank_value(unsigned i) {
  if constexpr (sizeof(W) == 4) {
    return pattern_word(i, bank_seed);
  } else {
    return (static_cast<W>(pattern_word(2 * std::uint64_t{i}, bank_seed)) << 32) |
           pattern_word(2 * std::uint64_t{i} + 1, bank_seed);
  }
}

/// What thread `tid` of a block writes (mod 2^bits): the sum of its reps * unroll loads.
template <class W>
MEMBENCH_HD W bank_expected(unsigned lane_stride, unsigned tid, unsigned reps) {
  const unsigned lane = tid % warp_lanes, warp = tid / warp_lanes;
  W once = 0;
  for (unsigned j = 0; j < bank_unroll; ++j) once += bank_value<W>(bank_element(lane_stride, lane, warp, j));
  return static_cast<W>(once * static_cast<W>(reps));
}

/// The 4-byte bank holding byte address `byte_addr`.
constexpr unsigned bank_of(std::uint64_t byte_addr) { return static_cast<unsigned>(byte_addr / 4 % bank_count); }

/// Wavefronts (passes through the 32 banks) one warp-wide access of `width`-byte words
/// takes. The warp is served in phases of 128 bytes (32 lanes of 4-byte words, 16 lanes of
/// 8-byte words, 8 of 16-byte words); within a phase lanes reading the same 32-bit word
/// share it (broadcast) and each bank delivers one distinct 32-bit word per pass.
constexpr unsigned warp_wavefronts(const std::array<std::uint64_t, warp_lanes>& byte_addr, unsigned width) {
  const unsigned words_per_access = width / 4;
  const unsigned lanes_per_phase = bank_phase_bytes / width;
  unsigned total = 0;
  for (unsigned first = 0; first < warp_lanes; first += lanes_per_phase) {
    // Distinct 32-bit word addresses per bank in this phase.
    std::array<std::array<std::uint64_t, bank_phase_bytes / 4>, bank_count> words{};
    std::array<unsigned, bank_count> distinct{};
    for (unsigned lane = first; lane < first + lanes_per_phase; ++lane) {
      for (unsigned w = 0; w < words_per_access; ++w) {
        const std::uint64_t word = byte_addr[lane] / 4 + w;
        const unsigned bank = static_cast<unsigned>(word % bank_count);
        bool seen = false;
        for (unsigned k = 0; k < distinct[bank]; ++k) seen = seen || words[bank][k] == word;
        if (!seen) words[bank][distinct[bank]++] = word;
      }
    }
    unsigned passes = 1;
    for (unsigned d : distinct) passes = d > passes ? d : passes;
    total += passes;
  }
  return total;
}

/// Byte addresses of a warp's access at step j (relative to the tile).
constexpr std::array<std::uint64_t, warp_lanes> bank_warp_addresses(unsigned lane_stride, unsigned warp, unsigned j,
                                                                    unsigned width) {
  std::array<std::uint64_t, warp_lanes> a{};
  for (unsigned lane = 0; lane < warp_lanes; ++lane) a[lane] = std::uint64_t{width} * bank_element(lane_stride, lane, warp, j);
  return a;
}

/// Wavefronts of a conflict-free access of `width`-byte words: one per 128 bytes.
constexpr unsigned ideal_wavefronts(unsigned width) { return warp_lanes * width / bank_phase_bytes; }

/// Conflict degree of the pattern: wavefronts per access over the conflict-free count
/// (1 = conflict free, N = N-way conflict).
constexpr double bank_conflict_degree(unsigned lane_stride, unsigned width) {
  return static_cast<double>(warp_wavefronts(bank_warp_addresses(lane_stride, 0, 0, width), width)) /
         ideal_wavefronts(width);
}

/// Bytes per launch: the shared-memory loads as requested (every lane, broadcast or not)
/// plus the one word each thread writes out.
constexpr std::uint64_t bank_bytes(std::uint64_t threads, unsigned width, unsigned reps) {
  return threads * width * (std::uint64_t{reps} * bank_unroll + 1);
}

}  // namespace membench::shared
