// Host tests of the async space's element functions and formulas (B3): the staging family's
// shape, work assignment, slot maps, consumer checksum and tensor-map geometry, simulated
// on the host against its reference; the bulk-copy chase's node layout and walk.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "kernels/async/bulk_latency.hpp"
#include "kernels/async/staging.hpp"

namespace membench::async {
namespace {

constexpr std::uint64_t MiB = std::uint64_t{1} << 20, GiB = std::uint64_t{1} << 30;

TEST(Staging, ShapeAndBytesPerLaunch) {
  const staging_shape l2 = make_staging_shape(16 * MiB);
  EXPECT_EQ(l2.tiles, 1024u);
  EXPECT_EQ(l2.passes, 64u);
  EXPECT_EQ(l2.items, 65536u);
  EXPECT_EQ(staging_bytes(l2), 1 * GiB);  // 64 passes over 16 MiB
  const staging_shape hbm = make_staging_shape(1 * GiB);
  EXPECT_EQ(hbm.tiles, 65536u);
  EXPECT_EQ(hbm.passes, 1u);
  EXPECT_EQ(staging_bytes(hbm), 1 * GiB);
  // A size that does not divide the target: passes round up, bytes = passes x size.
  const staging_shape odd = make_staging_shape(48 * MiB);
  EXPECT_EQ(odd.passes, 22u);
  EXPECT_EQ(staging_bytes(odd), 22 * 48 * MiB);
  EXPECT_EQ(staging_bytes(make_staging_shape(2 * GiB)), 2 * GiB);
}

TEST(Staging, EveryPassReadsEveryTileOnce) {
  const staging_shape s = make_staging_shape(16 * MiB);
  for (std::uint64_t p = 0; p < s.passes; ++p) {
    std::vector<int> seen(s.tiles, 0);
    for (std::uint64_t e = 0; e < s.tiles; ++e) ++seen[staging_tile_of(s, p * s.tiles + e)];
    EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; })) << "pass " << p;
  }
  EXPECT_EQ(staging_tile_of(s, 5), 5u);                          // pass 0: in order
  EXPECT_EQ(staging_tile_of(s, s.tiles + 5), 5 + staging_rotation);  // pass 1: moved by the rotation
}

TEST(Staging, BlocksTakeEveryItemOnce) {
  const staging_shape s = make_staging_shape(16 * MiB);
  for (std::uint64_t grid : {1u, 228u, 256u, 264u}) {
    std::uint64_t total = 0;
    for (std::uint64_t b = 0; b < grid; ++b) total += staging_block_items(s, b, grid);
    EXPECT_EQ(total, s.items) << grid;
    // The last item of block b (b + (n - 1) grid) is in range, the next is not.
    for (std::uint64_t b : {std::uint64_t{0}, grid - 1}) {
      const std::uint64_t n = staging_block_items(s, b, grid);
      EXPECT_LT(b + (n - 1) * grid, s.items);
      EXPECT_GE(b + n * grid, s.items);
    }
  }
  const staging_shape few{2, 1, 2};
  EXPECT_EQ(staging_block_items(few, 1, 8), 1u);
  EXPECT_EQ(staging_block_items(few, 3, 8), 0u);  // more blocks than items: the rest idle
}

TEST(Staging, RotationDefeatsPerBlockReuse) {
  // Where the grid divides the tiles, a block's tiles still change from pass to pass.
  const staging_shape s = make_staging_shape(16 * MiB);
  const std::uint64_t grid = 256;
  std::set<std::uint64_t> first_pass, second_pass;
  for (std::uint64_t w = 0; w < s.items; w += grid) {
    (w < s.tiles ? first_pass : second_pass).insert(staging_tile_of(s, w));
    if (w >= 2 * s.tiles) break;
  }
  for (std::uint64_t t : second_pass) EXPECT_EQ(first_pass.count(t), 0u) << t;
}

TEST(Staging, SlotMapsArePermutations) {
  std::vector<int> produced(staging_tile_slots, 0), consumed(staging_tile_slots, 0);
  for (std::uint32_t t = 0; t < staging_block; ++t) {
    for (std::uint32_t j = 0; j < staging_slots_per_thread; ++j) {
      ++produced.at(staging_producer_slot(t, j));
      ++consumed.at(staging_consumer_slot(t, j));
      // Every tile crosses warps: a thread consumes what another warp produced.
      EXPECT_NE(staging_consumer_slot(t, j) % staging_block / 32, t / 32);
    }
  }
  EXPECT_TRUE(std::all_of(produced.begin(), produced.end(), [](int c) { return c == 1; }));
  EXPECT_TRUE(std::all_of(consumed.begin(), consumed.end(), [](int c) { return c == 1; }));
  // A warp's 16-byte reads are 32 consecutive slots: 512 contiguous bytes, no bank conflict.
  for (std::uint32_t warp = 0; warp < staging_block / 32; ++warp) {
    for (std::uint32_t lane = 1; lane < 32; ++lane) {
      EXPECT_EQ(staging_consumer_slot(warp * 32 + lane, 2), staging_consumer_slot(warp * 32, 2) + lane);
    }
  }
}

// The kernel's consumer over one tile as 16-byte slots, as a block computes it.
std::uint32_t fold_tile(const std::vector<std::uint32_t>& words) {
  std::uint32_t acc = 0;
  for (std::uint32_t t = 0; t < staging_block; ++t) {
    for (std::uint32_t j = 0; j < staging_slots_per_thread; ++j) {
      const std::uint32_t slot = staging_consumer_slot(t, j);
      acc += staging_fold(words[4 * slot], words[4 * slot + 1], words[4 * slot + 2], words[4 * slot + 3], slot);
    }
  }
  return acc;
}

std::vector<std::uint32_t> tile_words(std::uint64_t tile) {
  std::vector<std::uint32_t> w(staging_tile_bytes / 4);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = staging_word(tile * w.size() + i);
  return w;
}

TEST(Staging, ConsumerMatchesTheTileChecksum) {
  for (std::uint64_t tile : {0u, 1u, 777u, 65535u}) {
    const auto words = tile_words(tile);
    EXPECT_EQ(fold_tile(words), staging_tile_checksum(tile)) << tile;
    EXPECT_GT(std::count_if(words.begin(), words.end(), [](std::uint32_t v) { return v != 0; }), 4000);
  }
  EXPECT_NE(staging_tile_checksum(0), staging_tile_checksum(1));
}

TEST(Staging, ChecksumSeesMisplacedWords) {
  auto words = tile_words(3);
  const std::uint32_t good = fold_tile(words);
  std::swap(words[10], words[2000]);  // same words, wrong places: a box of the wrong shape
  EXPECT_NE(fold_tile(words), good);
  words = tile_words(3);
  std::swap(words[4], words[5]);  // within one 16-byte slot
  EXPECT_NE(fold_tile(words), good);
}

TEST(Staging, BlockReferencesAddUpToEveryPass) {
  // Simulated launch: the blocks' references sum to passes x (sum of the tile checksums).
  const std::uint64_t bytes = 4 * MiB;  // 256 tiles, 256 passes
  const staging_shape s = make_staging_shape(bytes);
  std::vector<std::uint32_t> sums(s.tiles);
  std::uint32_t all_tiles = 0;
  for (std::uint64_t t = 0; t < s.tiles; ++t) all_tiles += sums[t] = staging_tile_checksum(t);
  const std::uint64_t grid = 264;
  std::uint32_t blocks = 0;
  for (std::uint64_t b = 0; b < grid; ++b) blocks += staging_block_expected(s, sums, b, grid);
  EXPECT_EQ(blocks, static_cast<std::uint32_t>(s.passes * all_tiles));
  // Block 0 of 264 reads items 0, 264, ...: item 264 is pass 1, position 8, tile 8 + 37.
  std::uint32_t b0 = 0;
  for (std::uint64_t w = 0; w < s.items; w += grid) b0 += sums[staging_tile_of(s, w)];
  EXPECT_EQ(staging_block_expected(s, sums, 0, grid), b0);
  EXPECT_EQ(staging_tile_of(s, 264), 8 + staging_rotation);
}

TEST(Staging, TensorBoxIsOneContiguousTile) {
  for (std::uint64_t bytes : {16 * MiB, 1 * GiB}) {
    const staging_tensor_geometry g = make_staging_tensor_geometry(bytes);
    EXPECT_EQ(g.dims[0] * g.dims[1] * g.element_bytes, bytes);
    EXPECT_EQ(g.row_stride, g.dims[0] * g.element_bytes);  // rows packed: row r follows row r - 1
    EXPECT_EQ(g.row_stride % 16, 0u);                      // cuTensorMapEncodeTiled: strides multiples of 16
    for (std::uint32_t b : g.box) {
      EXPECT_GE(b, 1u);
      EXPECT_LE(b, 256u);  // at most 256 elements per box dimension
    }
    EXPECT_EQ(g.box[0] * g.element_bytes % 16, 0u);  // the inner box is a multiple of 16 bytes
    EXPECT_EQ(g.box[0], g.dims[0]);                  // whole rows: the box is contiguous
    EXPECT_EQ(std::uint64_t{g.box[0]} * g.box[1] * g.element_bytes, staging_tile_bytes);
    // Tile t's box starts at byte t x tile bytes, like every other method's tile.
    for (std::uint64_t t : {std::uint64_t{0}, std::uint64_t{1}, bytes / staging_tile_bytes - 1}) {
      EXPECT_EQ(std::uint64_t{staging_box_row(t)} * g.row_stride, t * staging_tile_bytes);
      EXPECT_LT(staging_box_row(t) + g.box[1] - 1, g.dims[1]);
    }
  }
}

TEST(Staging, SharedMemoryAndCases) {
  EXPECT_EQ(staging_tile_bytes % 128, 0u);  // each stage keeps the 128-byte alignment TMA needs
  EXPECT_EQ(staging_smem_bytes(1), 16384u + 128u);
  EXPECT_GT(staging_smem_bytes(4), 48u * 1024);  // needs cudaFuncAttributeMaxDynamicSharedMemorySize
  // Two 4-stage blocks fit one sm_90 SM (228 KiB, 1 KiB reserved per block, 227 KiB per block).
  EXPECT_LE(staging_blocks_per_sm * (staging_smem_bytes(4) + 1024 + 256), 228u * 1024);
  int rows = 0;
  for (auto m : {staging_method::sync, staging_method::ldgsts, staging_method::bulk, staging_method::tensor}) {
    for (int s : {1, 2, 3, 4, 8}) rows += staging_case_exists(m, s) ? 1 : 0;
  }
  EXPECT_EQ(rows, 11);
  EXPECT_FALSE(staging_case_exists(staging_method::sync, 4));
  EXPECT_EQ(staging_min_arch(staging_method::sync), 0);
  EXPECT_EQ(staging_min_arch(staging_method::ldgsts), 80);
  EXPECT_EQ(staging_min_arch(staging_method::bulk), 90);
  EXPECT_EQ(staging_min_arch(staging_method::tensor), 90);
  EXPECT_STREQ(to_token(staging_method::ldgsts), "ldgsts");
}

TEST(BulkLatency, NodesAreAlignedBulkSources) {
  // A bulk copy's source must be 16-byte aligned and its size a multiple of 16.
  EXPECT_EQ(bulk_node_bytes % 16, 0u);
  for (std::uint64_t i : {0u, 1u, 12345u}) {
    EXPECT_EQ(chase_node_offset(i, chase_line_bytes) % 16, 0u);
    EXPECT_NE(bulk_node_tag(i), 0u);
  }
  EXPECT_LE(bulk_node_bytes, chase_line_bytes);  // nodes do not overlap
  EXPECT_EQ(chase_bytes(chase_timed_steps, bulk_node_bytes), 8192u * 16u);
}

TEST(BulkLatency, HostChaseThroughCopiedNodesMatchesTheWalk) {
  // The chain as the build kernel lays it out, walked as the kernel does: copy the node's 16
  // bytes, take the first word as the next address.
  const std::uint64_t span = 64 * 1024, nodes = chase_nodes(span, chase_line_bytes);
  const auto succ = chase_successors(static_cast<std::uint32_t>(nodes));
  std::vector<std::uint64_t> chain(span / 8);
  const auto base = reinterpret_cast<std::uint64_t>(chain.data());
  for (std::uint64_t i = 0; i < nodes; ++i) {
    chain[chase_node_offset(i, chase_line_bytes) / 8] = chase_link(base, succ.data(), i, chase_line_bytes);
    chain[chase_node_offset(i, chase_line_bytes) / 8 + 1] = bulk_node_tag(i);
  }
  std::uint64_t p = base + chase_node_offset(0, chase_line_bytes);
  const std::uint64_t steps = 3 * nodes + 5;
  for (std::uint64_t k = 0; k < steps; ++k) {
    std::uint64_t copied[2];
    std::memcpy(copied, reinterpret_cast<const void*>(p), bulk_node_bytes);
    p = copied[0];
  }
  EXPECT_EQ(p, base + chase_node_offset(chase_walk(succ, 0, steps), chase_line_bytes));
}

}  // namespace
}  // namespace membench::async
