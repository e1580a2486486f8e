// G3 element functions, references and bytes formulas: read, write and copy kernels over
// element widths of 1..16 bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"
#include "../common/types.hpp"

namespace membench::global {

inline constexpr std::uint32_t bandwidth_seed = 21;
inline constexpr std::uint32_t poison_seed = 0xDEAD;

/// Element i's share of the read checksum. Narrow elements are shifted to their byte
/// position, so for every width the checksum is the sum (mod 2^32) of the buffer's words.
MEMBENCH_HD std::uint32_t fold_element(std::uint8_t v, std::uint64_t i) {
  return static_cast<std::uint32_t>(v) << (8 * (i & 3));
}
MEMBENCH_HD std::uint32_t fold_element(std::uint16_t v, std::uint64_t i) {
  return static_cast<std::uint32_t>(v) << (16 * (i & 1));
}
MEMBENCH_HD std::uint32_t fold_element(std::uint32_t v, std::uint64_t) { return v; }
MEMBENCH_HD std::uint32_t fold_element(std::uint64_t v, std::uint64_t) {
  return static_cast<std::uint32_t>(v) + static_cast<std::uint32_t>(v >> 32);
}
MEMBENCH_HD std::uint32_t fold_element(const word16& v, std::uint64_t) { return v.x + v.y + v.z + v.w; }

/// What the write kernels store at element i: one multiply-add, so the kernel stays
/// memory bound, and index dependent, so misplaced stores are caught.
template <class T>
MEMBENCH_HD T write_element(std::uint64_t i) {
  if constexpr (sizeof(T) == 16) {
    const auto b = static_cast<std::uint32_t>(i) * 0x9E3779B1u;
    return T{b + 0x7F4A7C15u, b + 0x632BE59Bu, b + 0x1B873593u, b + 0x85EBCA6Bu};
  } else if constexpr (sizeof(T) == 8) {
    return static_cast<T>(i * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull);
  } else {
    return static_cast<T>(static_cast<std::uint32_t>(i) * 0x9E3779B1u + 0x7F4A7C15u);
  }
}

/// Element k (0 <= k < unroll) of thread `tid` in tile `tile`: tiles of block*unroll
/// elements, consecutive threads on consecutive elements (coalesced for every k).
MEMBENCH_HD std::uint64_t tile_element(std::uint64_t tile, unsigned block, unsigned unroll, unsigned tid, unsigned k) {
  return tile * block * unroll + std::uint64_t{k} * block + tid;
}

enum class bw_op { read, write, copy };

/// Bytes requested per launch. A read also writes one 4-byte partial sum per block.
constexpr std::uint64_t bandwidth_bytes(bw_op op, std::uint64_t n, std::uint64_t elem_bytes, std::uint64_t blocks) {
  switch (op) {
    case bw_op::read: return n * elem_bytes + 4 * blocks;
    case bw_op::write: return n * elem_bytes;
    case bw_op::copy: return 2 * n * elem_bytes;
  }
  return 0;
}

}  // namespace membench::global
