// A2 pitched 2D arrays (The CUDA Handbook 5.2.2 "Pitched Allocations"): rows of 4-byte
// elements, `cols` per row, stored `pitch_words` apart (pitched: the driver's padded pitch;
// packed: exactly the row width). Index math, the data the copies must produce, the row
// alignment a layout gives and the bytes formula, shared by the kernels and the host.
#pragma once

#include <array>
#include <cstdint>
#include <numeric>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::alloc {

inline constexpr std::uint32_t pitched_seed = 0x2D2D;
inline constexpr std::uint32_t pitched_poison_seed = 0x2DEAD;
inline constexpr unsigned pitched_block = 256;
inline constexpr std::uint64_t pitched_elem_bytes = 4;

/// Row widths in bytes: 251, 1001 and 4097 four-byte elements (odd counts: packed rows start
/// misaligned) and 1024 elements (4 KiB, aligned: pitched and packed should match).
inline constexpr std::array<std::uint64_t, 4> pitched_row_bytes{1004, 4004, 4096, 16388};
/// Heights: 1024 rows (1 to 16 MiB per array, L2-sized) and 65536 rows (63 MiB to 1 GiB).
inline constexpr std::array<std::uint64_t, 2> pitched_rows{1024, 65536};
/// Rows at least this tall move enough data for a DRAM figure (pct_peak).
inline constexpr std::uint64_t pitched_dram_rows = 65536;
/// The alignment a warp's coalesced 128-byte request wants at the start of a row.
inline constexpr std::uint64_t row_alignment = 128;

enum class pitched_layout { pitched, packed };
inline constexpr std::array<pitched_layout, 2> all_pitched_layouts{pitched_layout::pitched, pitched_layout::packed};
constexpr const char* to_string(pitched_layout l) { return l == pitched_layout::pitched ? "pitched" : "packed"; }

/// What moves the rows: the row-walking kernel (device to device), cudaMemcpy2DAsync device
/// to device, or cudaMemcpy2DAsync from packed rows in pinned host memory.
enum class pitched_op { kernel, memcpy_d2d, memcpy_h2d };
inline constexpr std::array<pitched_op, 3> all_pitched_ops{pitched_op::kernel, pitched_op::memcpy_d2d,
                                                           pitched_op::memcpy_h2d};
/// The `api` and `dir` name values of an op.
constexpr const char* api_token(pitched_op op) { return op == pitched_op::kernel ? "kernel" : "memcpy_2d"; }
constexpr const char* dir_token(pitched_op op) { return op == pitched_op::memcpy_h2d ? "h2d" : "d2d"; }

/// Word index of element (r, c) in an array whose rows are `pitch_words` apart.
MEMBENCH_HD std::uint64_t pitched_index(std::uint64_t r, std::uint64_t c, std::uint64_t pitch_words) {
  return r * pitch_words + c;
}

/// Element (r, c) of the source array: the same logical value in every layout.
MEMBENCH_HD std::uint32_t pitched_value(std::uint64_t r, std::uint64_t c, std::uint64_t cols) {
  return pattern_word(r * cols + c, pitched_seed);
}

/// Word i of the poisoned destination allocation before the copy (padding keeps it).
MEMBENCH_HD std::uint32_t pitched_poison(std::uint64_t i) { return pattern_word(i, pitched_poison_seed); }

/// Word i of the destination allocation after a 2D copy of `cols` elements per row: the
/// source's element in each row's first `cols` words, the poison in the padding.
MEMBENCH_HD std::uint32_t pitched_expected(std::uint64_t i, std::uint64_t pitch_words, std::uint64_t cols) {
  const std::uint64_t r = i / pitch_words, c = i % pitch_words;
  return c < cols ? pitched_value(r, c, cols) : pitched_poison(i);
}

/// Rows r in [0, rows) whose start r * pitch_bytes is not a multiple of `align`: one row
/// in every align / gcd(pitch, align) starts aligned.
constexpr std::uint64_t misaligned_rows(std::uint64_t rows, std::uint64_t pitch_bytes, std::uint64_t align) {
  const std::uint64_t period = align / std::gcd(pitch_bytes, align);
  return rows - (rows + period - 1) / period;
}

/// Bytes requested per launch: the kernel and the device-to-device copy read and write
/// every element, the host-to-device copy moves each element once. Padding is not counted.
constexpr std::uint64_t pitched_bytes(pitched_op op, std::uint64_t rows, std::uint64_t row_bytes) {
  return (op == pitched_op::memcpy_h2d ? 1 : 2) * rows * row_bytes;
}

}  // namespace membench::alloc
