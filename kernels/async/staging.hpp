// B3 staging: a persistent grid streams an array through shared memory in 16 KiB tiles,
// copied by one of four methods, and consumes every tile with the same position-weighted
// checksum. The host part: shapes, the tensor map's geometry, the reference and the bytes formula.
//
// Tiles, work and reference: tile t is bytes [t * 16 KiB, (t + 1) * 16 KiB) of the input
// for every method (the tensor map's rows are 1 KiB, so one 256 x 16 box is one tile).
// Work item w is tile staging_tile_of(w); block b takes items b, b + grid, ...; every block
// ends with the sum of its tiles' checksums (mod 2^32), which the host reference computes
// from one checksum per tile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::async {

enum class staging_method { sync, ldgsts, bulk, tensor };

constexpr const char* to_token(staging_method m) {
  switch (m) {
    case staging_method::sync: return "sync";
    case staging_method::ldgsts: return "ldgsts";
    case staging_method::bulk: return "bulk";
    case staging_method::tensor: return "tensor";
  }
  return "";
}

/// The compute capability a method's instructions need: cp.async sm_80; cp.async.bulk,
/// mbarrier transaction counts and tensor maps sm_90.
constexpr int staging_min_arch(staging_method m) {
  return m == staging_method::sync ? 0 : m == staging_method::ldgsts ? 80 : 90;
}

inline constexpr unsigned staging_block = 256;
inline constexpr std::uint32_t staging_tile_bytes = 16384;
inline constexpr std::uint32_t staging_tile_slots = staging_tile_bytes / 16;                  ///< 16-byte slots
inline constexpr std::uint32_t staging_slots_per_thread = staging_tile_slots / staging_block;  ///< 4
/// Resident blocks per SM for every method. One: the stages are then the only thing that keeps
/// bytes in flight beyond one tile (at most stages x 16 KiB per SM), so the rows read as
/// Little's law. (Two blocks per SM hide most of a stage's wait behind the other block: on an
/// H100 every method then reads HBM at 2.9-3.1 TB/s.)
inline constexpr unsigned staging_blocks_per_sm = 1;
/// A launch reads the array in passes until at least this much was read: an L2-resident
/// array takes a launch of ~100 us, not of a few us of ramp-up and tail.
inline constexpr std::uint64_t staging_target_bytes = std::uint64_t{1} << 30;
/// Each pass moves a block's items by this many tiles, so a block reads data another SM read
/// last pass: the sync method's L1 (the default build caches its loads) sees no reuse.
inline constexpr std::uint64_t staging_rotation = 37;
inline constexpr std::uint32_t staging_seed = 53;
/// Tensor map: 4-byte elements, rows of 256 of them (the widest box), boxes of 16 rows.
inline constexpr std::uint32_t staging_row_elems = 256;
inline constexpr std::uint32_t staging_box_rows = staging_tile_bytes / (staging_row_elems * 4);
/// Dynamic shared memory is aligned up to this (tensor copies need 128-byte destinations).
inline constexpr std::uint32_t staging_smem_align = 128;

/// Which (method, stages) rows exist: sync has one buffer or two with a register prefetch
/// (the pre-Ampere double buffer); the asynchronous methods 1, 2 and 4 buffers.
constexpr bool staging_case_exists(staging_method m, int stages) {
  if (m == staging_method::sync) return stages == 1 || stages == 2;
  return stages == 1 || stages == 2 || stages == 4;
}

struct staging_shape {
  std::uint64_t tiles = 0;   ///< tiles in the array
  std::uint64_t passes = 0;  ///< passes over the array per launch
  std::uint64_t items = 0;   ///< tiles read per launch: passes x tiles
};

/// `bytes`: a multiple of the tile size.
constexpr staging_shape make_staging_shape(std::uint64_t bytes) {
  staging_shape s;
  s.tiles = bytes / staging_tile_bytes;
  s.passes = std::max<std::uint64_t>(1, (staging_target_bytes + bytes - 1) / bytes);
  s.items = s.passes * s.tiles;
  return s;
}

/// Bytes read per launch (the per-block results written are not counted).
constexpr std::uint64_t staging_bytes(const staging_shape& s) { return s.items * staging_tile_bytes; }

/// Dynamic shared memory a block asks for: the stages, plus slack to align them.
constexpr std::uint32_t staging_smem_bytes(int stages) {
  return static_cast<std::uint32_t>(stages) * staging_tile_bytes + staging_smem_align;
}

/// Items block `b` of `grid` takes: b, b + grid, ... below s.items.
MEMBENCH_HD std::uint64_t staging_block_items(const staging_shape& s, std::uint64_t b, std::uint64_t grid) {
  return s.items > b ? (s.items - b + grid - 1) / grid : 0;
}

/// The tile work item `w` reads: pass w / tiles, rotated by `staging_rotation` per pass.
MEMBENCH_HD std::uint64_t staging_tile_of(const staging_shape& s, std::uint64_t w) {
  const std::uint64_t pass = w / s.tiles;
  return (w - pass * s.tiles + pass * staging_rotation) % s.tiles;
}

/// The input's 32-bit word g.
MEMBENCH_HD std::uint32_t staging_word(std::uint64_t g) { return pattern_word(g, staging_seed); }

/// The 16-byte slots a thread copies (coalesced: consecutive threads, consecutive slots).
MEMBENCH_HD std::uint32_t staging_producer_slot(std::uint32_t t, std::uint32_t j) { return t + j * staging_block; }

/// The slots a thread consumes: the next warp's, so every tile crosses threads through shared
/// memory (no bank conflicts: a warp reads 512 consecutive bytes).
MEMBENCH_HD std::uint32_t staging_consumer_slot(std::uint32_t t, std::uint32_t j) {
  return (t + 32) % staging_block + j * staging_block;
}

/// The consumer: word i of a tile (i = 4 * slot + lane of the slot) weighs 2i + 1, so a word
/// in the wrong place changes the checksum as a wrong word does.
MEMBENCH_HD std::uint32_t staging_fold(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t w,
                                       std::uint32_t slot) {
  const std::uint32_t base = 8 * slot;
  return x * (base + 1) + y * (base + 3) + z * (base + 5) + w * (base + 7);
}

/// Reference: the checksum of tile `t`, word by word.
inline std::uint32_t staging_tile_checksum(std::uint64_t t) {
  std::uint32_t acc = 0;
  const std::uint64_t first = t * (staging_tile_bytes / 4);
  for (std::uint32_t i = 0; i < staging_tile_bytes / 4; ++i) acc += staging_word(first + i) * (2 * i + 1);
  return acc;
}

/// Reference: what block `b` of `grid` ends with, from the tiles' checksums.
inline std::uint32_t staging_block_expected(const staging_shape& s, const std::vector<std::uint32_t>& tile_sums,
                                            std::uint64_t b, std::uint64_t grid) {
  std::uint32_t acc = 0;
  for (std::uint64_t w = b; w < s.items; w += grid) acc += tile_sums[staging_tile_of(s, w)];
  return acc;
}

/// The 2D view the tensor method's map describes (cuTensorMapEncodeTiled's arguments).
struct staging_tensor_geometry {
  std::uint64_t dims[2];         ///< elements per row, rows
  std::uint64_t row_stride;      ///< bytes from one row to the next
  std::uint32_t box[2];          ///< elements, rows of one copy
  std::uint32_t element_bytes;
};

constexpr staging_tensor_geometry make_staging_tensor_geometry(std::uint64_t bytes) {
  return {{staging_row_elems, bytes / (staging_row_elems * 4)}, staging_row_elems * 4, {staging_row_elems, staging_box_rows}, 4};
}

/// The row coordinate of tile t's box.
MEMBENCH_HD std::uint32_t staging_box_row(std::uint64_t t) { return static_cast<std::uint32_t>(t * staging_box_rows); }

}  // namespace membench::async
