// A3 memset APIs (The CUDA Handbook 5.2.5, Table 5.2): the fill values per word size, the
// 32-bit words a filled buffer must hold (1D, and 2D with untouched padding), the grids
// and the bytes formula.
#pragma once

#include <array>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::alloc {

/// Fill values: non-zero and distinct per word size, so a fill of the wrong width or a
/// missed word shows up.
inline constexpr std::uint8_t memset_value8 = 0xA5;
inline constexpr std::uint16_t memset_value16 = 0xA5C3;
inline constexpr std::uint32_t memset_value32 = 0xA5C3E1F0u;
/// The 16-byte kernel's value, four different words (a store landing in the wrong lane of
/// the 16 bytes shows up too).
inline constexpr std::array<std::uint32_t, 4> memset_value128{0xA5C3E1F0u, 0x1E2D3C4Bu, 0x5A69788Fu, 0x96A5B4C3u};
inline constexpr std::uint32_t memset_poison_seed = 0x5E75;
inline constexpr unsigned memset_block = 256;

/// Who fills (the `api` name key): cudaMemsetAsync / cudaMemset2DAsync (bytes only),
/// cuMemsetD8/D16/D32Async and cuMemsetD2D8/16/32Async (driver API), or a kernel of
/// 4- or 16-byte stores.
enum class memset_api { memset, memset_d8, memset_d16, memset_d32, kernel };
constexpr const char* to_string(memset_api a) {
  switch (a) {
    case memset_api::memset: return "memset";
    case memset_api::memset_d8: return "memset_d8";
    case memset_api::memset_d16: return "memset_d16";
    case memset_api::memset_d32: return "memset_d32";
    case memset_api::kernel: return "kernel";
  }
  return "?";
}

/// One row's filler: the API and its word size in bytes (the `width` name key).
struct memset_variant {
  memset_api api;
  unsigned width;
};
inline constexpr std::array<memset_variant, 6> memset_variants{{{memset_api::memset, 1},
                                                                {memset_api::memset_d8, 1},
                                                                {memset_api::memset_d16, 2},
                                                                {memset_api::memset_d32, 4},
                                                                {memset_api::kernel, 4},
                                                                {memset_api::kernel, 16}}};

/// 1D sizes: L2-sized (the call's overhead shows), then DRAM.
inline constexpr std::array<std::uint64_t, 3> memset_sizes{std::uint64_t{1} << 20, std::uint64_t{256} << 20,
                                                           std::uint64_t{1} << 30};
/// Sizes at least this large are DRAM figures (pct_peak).
inline constexpr std::uint64_t memset_dram_bytes = std::uint64_t{256} << 20;

/// 2D: rows of 4000 bytes (250 16-byte words, not a multiple of 128 bytes: every row ends
/// inside the pitch's padding) in a cudaMallocPitch allocation; about 1 MiB, 250 MiB, 1 GiB.
inline constexpr std::uint64_t memset_2d_row_bytes = 4000;
inline constexpr std::array<std::uint64_t, 3> memset_2d_rows{256, 65536, 262144};

/// 32-bit word i (little-endian) of a buffer filled with the value of `width` bytes.
MEMBENCH_HD std::uint32_t memset_word(unsigned width, std::uint64_t i) {
  switch (width) {
    case 1: return 0x01010101u * memset_value8;
    case 2: return 0x00010001u * memset_value16;
    case 4: return memset_value32;
    default: {
      // memset_value128 without the host array (device code cannot read it).
      const unsigned lane = static_cast<unsigned>(i % 4);
      return lane == 0 ? 0xA5C3E1F0u : lane == 1 ? 0x1E2D3C4Bu : lane == 2 ? 0x5A69788Fu : 0x96A5B4C3u;
    }
  }
}

/// Word i of the poisoned buffer before the fill.
MEMBENCH_HD std::uint32_t memset_poison(std::uint64_t i) { return pattern_word(i, memset_poison_seed); }

/// Word i of a 2D allocation with rows `pitch_words` apart after a 2D fill of `row_words`
/// words per row: the value in each row, the poison in the padding. The pitch is a
/// multiple of 16 bytes, so a row's word c has lane c % 4 of the 16-byte value.
MEMBENCH_HD std::uint32_t memset_2d_expected(std::uint64_t i, std::uint64_t pitch_words, std::uint64_t row_words,
                                             unsigned width) {
  const std::uint64_t c = i % pitch_words;
  return c < row_words ? memset_word(width, c) : memset_poison(i);
}

/// Bytes written per launch: the filled bytes (2D: rows x row_bytes, padding not counted).
constexpr std::uint64_t memset_bytes(std::uint64_t rows, std::uint64_t row_bytes) { return rows * row_bytes; }

}  // namespace membench::alloc
