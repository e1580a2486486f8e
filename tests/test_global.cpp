// Global-memory families without a GPU: element functions against their host references,
// index maps and bytes formulas of the offset, stride, pattern, bandwidth and working-set
// kernels, and the pointer-chase chains of the latency families.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

#include "kernels/common/chase.hpp"
#include "kernels/common/pattern.hpp"
#include "kernels/common/types.hpp"
#include "kernels/global/bandwidth.hpp"
#include "kernels/global/offset.hpp"
#include "kernels/global/pattern.hpp"
#include "kernels/global/stride.hpp"
#include "kernels/global/working_set.hpp"

namespace membench::global {
namespace {

template <class T>
std::vector<T> pattern_array(std::size_t n, std::uint32_t seed) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = pattern_value<T>(i, seed);
  return v;
}

TEST(Pattern, ValuesAreNonTrivialAndSumsExact) {
  std::set<float> distinct;
  for (std::uint64_t i = 0; i < 4096; ++i) {
    const float a = pattern_value<float>(i, 1), b = pattern_value<float>(i, 2);
    EXPECT_GE(a, 1.0f);
    EXPECT_NE(a, poison_value<float>());
    EXPECT_EQ(static_cast<double>(a + b), static_cast<double>(a) + static_cast<double>(b));
    distinct.insert(a);
  }
  EXPECT_GT(distinct.size(), 3000u);
}

template <class T>
void check_offset(std::size_t n, std::size_t offset) {
  const auto a = pattern_array<T>(n, offset_seed_a), b = pattern_array<T>(n, offset_seed_b);
  std::vector<T> rc(n, poison_value<T>()), wc(n, poison_value<T>());
  for (std::size_t i = 0; i < n; ++i) {
    read_offset_element(i, n, offset, a.data(), b.data(), rc.data());
    write_offset_element(i, n, offset, a.data(), b.data(), wc.data());
  }
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(rc[i], read_offset_expected<T>(i, n, offset)) << "read i=" << i << " offset=" << offset;
    ASSERT_EQ(wc[i], write_offset_expected<T>(i, n, offset)) << "write i=" << i << " offset=" << offset;
  }
}

TEST(Offset, ElementsMatchReference) {
  for (std::size_t offset : {0, 1, 2, 4, 8, 16, 32, 64, 128, 999, 1000, 5000}) {
    check_offset<float>(1000, offset);
    check_offset<double>(1000, offset);
  }
}

TEST(Offset, Bytes) {
  EXPECT_EQ(offset_bytes(1024, 0, 4), 1024u * 12);
  EXPECT_EQ(offset_bytes(1024, 32, 8), 992u * 24);
  EXPECT_EQ(offset_bytes(16, 16, 4), 0u);
  EXPECT_EQ(offset_bytes(16, 99, 4), 0u);
}

TEST(Stride, ElementsMatchReference) {
  for (std::uint64_t stride : {1, 2, 3, 7, 8, 33, 64}) {
    const std::size_t n_in = 64 * 64, n_out = n_in / stride;
    const auto in = pattern_array<float>(n_in, stride_seed);
    std::vector<float> out(n_out, poison_value<float>());
    for (std::uint64_t i = 0; i < n_out; ++i) read_stride_element(i, stride, in.data(), out.data());
    for (std::uint64_t i = 0; i < n_out; ++i) ASSERT_EQ(out[i], read_stride_expected<float>(i, stride)) << stride;
  }
}

TEST(Stride, SectorsPerWarp) {
  EXPECT_EQ(stride_warp_sectors(1, 4), 4u);   // 128 contiguous bytes
  EXPECT_EQ(stride_warp_sectors(2, 4), 8u);
  EXPECT_EQ(stride_warp_sectors(3, 4), 12u);
  EXPECT_EQ(stride_warp_sectors(8, 4), 32u);  // one f32 per sector
  EXPECT_EQ(stride_warp_sectors(64, 4), 32u);
  EXPECT_EQ(stride_warp_sectors(1, 8), 8u);
  EXPECT_EQ(stride_warp_sectors(4, 8), 32u);
  EXPECT_DOUBLE_EQ(stride_load_efficiency(1, 4), 1.0);
  EXPECT_DOUBLE_EQ(stride_load_efficiency(2, 4), 0.5);
  EXPECT_DOUBLE_EQ(stride_load_efficiency(8, 4), 0.125);
  EXPECT_DOUBLE_EQ(stride_load_efficiency(64, 8), 0.25);
  EXPECT_EQ(stride_bytes(100, 4), 800u);
}

TEST(Scatter, IsAPermutationThatScatters) {
  for (std::uint64_t n : {64u, 1024u, 1u << 16}) {
    std::vector<bool> seen(n, false);
    for (std::uint64_t i = 0; i < n; ++i) {
      const auto j = scatter_index(i, n);
      ASSERT_LT(j, n);
      ASSERT_FALSE(seen[j]);
      seen[j] = true;
    }
  }
  // Neighbouring threads land in different 32-byte sectors of an f32 array.
  std::set<std::uint64_t> sectors;
  for (std::uint64_t i = 0; i < 32; ++i) sectors.insert(scatter_index(i, 1u << 20) / 8);
  EXPECT_EQ(sectors.size(), 32u);
}

TEST(Scatter, ElementsMatchReference) {
  const std::uint64_t n = 4096;
  const auto in = pattern_array<float>(n, pattern_seed);
  std::vector<float> out(n, poison_value<float>());
  for (std::uint64_t i = 0; i < n; ++i) read_scatter_element(i, n, in.data(), out.data());
  for (std::uint64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], read_scatter_expected<float>(i, n));
}

TEST(Reuse, EveryWindowElementIsReadFourTimesByItsBlock) {
  std::vector<int> reads(2 * reuse_window, 0);
  for (std::uint64_t block = 0; block < 2; ++block)
    for (unsigned t = 0; t < reuse_block; ++t)
      for (unsigned r = 0; r < reuse_reads; ++r) ++reads[reuse_index(block, t, r)];
  for (int c : reads) ASSERT_EQ(c, 4);
}

TEST(Reuse, ElementsMatchReference) {
  const std::uint64_t blocks = 3;
  const auto in = pattern_array<float>(blocks * reuse_window, pattern_seed);
  std::vector<float> out(blocks * reuse_block, poison_value<float>());
  for (std::uint64_t b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < reuse_block; ++t) read_reuse_element(b, t, in.data(), out.data());
  for (std::uint64_t o = 0; o < out.size(); ++o) ASSERT_EQ(out[o], read_reuse_expected<float>(o));
  EXPECT_EQ(reuse_bytes(256, 4), 256u * 17 * 4);
}

template <class T>
std::uint32_t fold_buffer(const std::vector<std::uint32_t>& words) {
  std::vector<T> elems(words.size() * 4 / sizeof(T));
  std::memcpy(elems.data(), words.data(), words.size() * 4);
  std::uint32_t acc = 0;
  for (std::size_t i = 0; i < elems.size(); ++i) acc += fold_element(elems[i], i);
  return acc;
}

TEST(Bandwidth, ReadChecksumIsTheSameForEveryWidth) {
  std::vector<std::uint32_t> words(1024);
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < words.size(); ++i) sum += words[i] = pattern_word(i, bandwidth_seed);
  EXPECT_EQ(fold_buffer<std::uint8_t>(words), sum);
  EXPECT_EQ(fold_buffer<std::uint16_t>(words), sum);
  EXPECT_EQ(fold_buffer<std::uint32_t>(words), sum);
  EXPECT_EQ(fold_buffer<std::uint64_t>(words), sum);
  EXPECT_EQ(fold_buffer<word16>(words), sum);
}

TEST(Bandwidth, TilesCoverEveryElementOnce) {
  for (unsigned unroll : {1u, 2u, 4u, 8u}) {
    const unsigned block = 128;
    const std::uint64_t tiles = 5, n = tiles * block * unroll;
    std::vector<int> hits(n, 0);
    for (std::uint64_t t = 0; t < tiles; ++t)
      for (unsigned tid = 0; tid < block; ++tid)
        for (unsigned k = 0; k < unroll; ++k) ++hits[tile_element(t, block, unroll, tid, k)];
    for (int h : hits) ASSERT_EQ(h, 1);
    // Coalesced: for a fixed k, consecutive threads touch consecutive elements.
    EXPECT_EQ(tile_element(2, block, unroll, 7, 0) + 1, tile_element(2, block, unroll, 8, 0));
  }
}

TEST(Bandwidth, WrittenValuesDependOnTheIndex) {
  EXPECT_NE(write_element<std::uint32_t>(0), write_element<std::uint32_t>(1));
  EXPECT_NE(write_element<std::uint64_t>(5), write_element<std::uint64_t>(6));
  EXPECT_FALSE(write_element<word16>(1) == write_element<word16>(2));
  std::set<std::uint8_t> bytes;
  for (std::uint64_t i = 0; i < 256; ++i) bytes.insert(write_element<std::uint8_t>(i));
  EXPECT_GT(bytes.size(), 200u);
}

TEST(Bandwidth, Bytes) {
  EXPECT_EQ(bandwidth_bytes(bw_op::read, 1000, 4, 10), 4040u);
  EXPECT_EQ(bandwidth_bytes(bw_op::write, 1000, 16, 10), 16000u);
  EXPECT_EQ(bandwidth_bytes(bw_op::copy, 1000, 2, 10), 4000u);
  EXPECT_EQ(blocks_for(1000, 256), 4u);
  EXPECT_EQ(blocks_for(1024, 256, 4), 1u);
  EXPECT_EQ(blocks_for(1025, 256, 4), 2u);
}

TEST(WorkingSet, ShapeCoversTargetTraffic) {
  const std::uint64_t threads = 132 * 2048;
  const auto big = make_working_set_shape(std::uint64_t{2} << 30, threads, 256, false);
  EXPECT_EQ(big.n, (std::uint64_t{2} << 30) / 16);
  EXPECT_EQ(big.passes, 1u);
  EXPECT_GE(big.inner * threads, big.n);
  const auto small = make_working_set_shape(16 << 10, threads, 256, true);
  EXPECT_EQ(small.span, threads);
  EXPECT_EQ(small.inner, 1u);
  EXPECT_GE(working_set_bytes(small, 1), working_set_target);
  EXPECT_EQ(small.shift, working_set_rotation_blocks * 256);
  EXPECT_TRUE(is_pow2(small.n));
}

TEST(WorkingSet, FixedMapRepeatsRotateMapMoves) {
  const auto fixed = make_working_set_shape(1 << 20, 1024, 256, false);
  const auto rot = make_working_set_shape(1 << 20, 1024, 256, true);
  for (std::uint64_t e : {0u, 5u, 1023u, 60000u}) {
    EXPECT_EQ(working_set_index(fixed, e, 0), working_set_index(fixed, e, 3));
    EXPECT_NE(working_set_index(rot, e, 0), working_set_index(rot, e, 1));
    EXPECT_LT(working_set_index(rot, e, 7), rot.n);
  }
}

TEST(WorkingSet, ThreadReferenceMatchesBruteForce) {
  const auto s = make_working_set_shape(64 << 10, 512, 256, true);  // 4096 elements, 512 threads
  for (std::uint64_t t : {0u, 1u, 511u}) {
    std::uint32_t acc = 0;
    for (std::uint64_t p = 0; p < s.passes; ++p)
      for (std::uint64_t e = t; e < s.span; e += s.threads) acc += working_set_fold(working_set_value(working_set_index(s, e, p)));
    EXPECT_EQ(working_set_thread_expected(s, t), acc);
  }
}

// The kernel's flat walk loads exactly the nested loops' elements, in pass order, for
// sets smaller than the grid, not a multiple of it, and larger; fixed and rotating maps.
TEST(WorkingSet, FlatCursorWalksTheNestedLoops) {
  for (std::uint64_t bytes : {std::uint64_t{4} << 10, std::uint64_t{16} << 10, std::uint64_t{64} << 10}) {
    for (bool rotate : {false, true}) {
      // 1536 threads: not a power of two. Blocks of 65536 make the rotating map's pass
      // offset pass 2^32 (37 * 65536 * 43690 passes), where the cursor's 32-bit offset wraps.
      const auto s = make_working_set_shape(bytes, 1536, 65536, rotate);
      if (rotate && bytes == (std::uint64_t{4} << 10)) {
        EXPECT_GT(s.passes * s.shift, std::uint64_t{1} << 32);
      }
      for (std::uint64_t t : {0u, 1u, 700u, 1535u}) {
        std::vector<std::uint64_t> nested;
        for (std::uint64_t p = 0; p < s.passes; ++p)
          for (std::uint64_t e = t; e < s.span; e += s.threads) nested.push_back(working_set_index(s, e, p));
        working_set_cursor c(s, t);
        std::vector<std::uint64_t> flat;
        for (std::uint64_t k = 0; k < c.loads(s); ++k, c.next()) flat.push_back(c.index());
        EXPECT_EQ(flat, nested) << "bytes " << bytes << " rotate " << rotate << " thread " << t;
      }
    }
  }
}

}  // namespace
}  // namespace membench::global

// Pointer-chase chains (kernels/common/chase.hpp), used by the latency families of global
// memory, shared memory and the constant cache.
namespace membench {
namespace {

TEST(Chase, SuccessorsFormOneCycleThroughEveryNode) {
  for (std::uint32_t nodes : {1u, 2u, 3u, 32u, 1000u, 4096u}) {
    const auto succ = chase_successors(nodes);
    std::vector<bool> seen(nodes, false);
    std::uint32_t j = 0;
    for (std::uint32_t k = 0; k < nodes; ++k) {
      ASSERT_FALSE(seen[j]) << nodes << " nodes: node " << j << " visited twice";
      seen[j] = true;
      j = succ[j];
    }
    EXPECT_EQ(j, 0u) << nodes;  // back at the start after exactly `nodes` steps
    EXPECT_EQ(chase_walk(succ, 0, nodes), 0u);
  }
}

TEST(Chase, OrderIsRandomNotSequential) {
  const auto succ = chase_successors(4096);
  int next_in_memory = 0;
  for (std::uint32_t i = 0; i < succ.size(); ++i) next_in_memory += succ[i] == i + 1;
  EXPECT_LT(next_in_memory, 20);  // a prefetcher following ascending lines would rarely be right
  EXPECT_NE(chase_successors(4096, 1), succ);
  EXPECT_EQ(chase_successors(4096), succ);  // deterministic for a seed
}

TEST(Chase, WalkFollowsTheSuccessors) {
  const std::vector<std::uint32_t> succ{2, 0, 3, 1};  // 0 -> 2 -> 3 -> 1 -> 0
  EXPECT_EQ(chase_walk(succ, 0, 0), 0u);
  EXPECT_EQ(chase_walk(succ, 0, 1), 2u);
  EXPECT_EQ(chase_walk(succ, 0, 3), 1u);
  EXPECT_EQ(chase_walk(succ, 0, 4), 0u);
  EXPECT_EQ(chase_walk(succ, 3, 6), 0u);
}

TEST(Chase, LineSpacingPutsOneNodePerLine) {
  EXPECT_EQ(chase_nodes(16 << 10, 128), 128u);
  EXPECT_EQ(chase_nodes(64, 128), 1u);
  for (std::uint64_t i = 0; i < 128; ++i) EXPECT_EQ(chase_node_offset(i, 128), i * 128);
}

TEST(Chase, PageSpacingPutsEachNodeInItsOwnPageAndItsOwnLine) {
  constexpr std::uint64_t page = 2 << 20;
  const std::uint64_t nodes = chase_nodes(std::uint64_t{8} << 30, page);
  EXPECT_EQ(nodes, 4096u);
  std::set<std::uint64_t> lines_in_page;
  for (std::uint64_t i = 0; i < nodes; ++i) {
    const std::uint64_t off = chase_node_offset(i, page);
    EXPECT_EQ(off / page, i) << i;  // page i
    EXPECT_EQ(off % 8, 0u);         // an aligned 8-byte pointer
    EXPECT_LE(off % page + 8, page);
    lines_in_page.insert(off % page / 128);
  }
  EXPECT_EQ(lines_in_page.size(), nodes);  // 4096 different line offsets: different cache sets
}

TEST(Chase, LinkIsTheSuccessorsAddress) {
  const std::vector<std::uint32_t> succ{1, 2, 0};
  EXPECT_EQ(chase_link(0x1000, succ.data(), 0, 128), 0x1000u + 128);
  EXPECT_EQ(chase_link(0x1000, succ.data(), 2, 128), 0x1000u);
  EXPECT_EQ(chase_link(0, succ.data(), 1, 2 << 20), 2 * (2u << 20) + 2 * 128);
}

TEST(Chase, PrimeAndBytes) {
  EXPECT_EQ(chase_prime_steps(100), 100u);
  EXPECT_EQ(chase_prime_steps(std::uint64_t{1} << 20), std::uint64_t{1} << 20);
  EXPECT_EQ(chase_prime_steps((std::uint64_t{1} << 20) + 1), 0u);
  EXPECT_EQ(chase_launch_warm_steps(128), 128u);
  EXPECT_EQ(chase_launch_warm_steps(13), 16u);  // the kernels unroll by 8
  EXPECT_EQ(chase_launch_warm_steps(4096), 4096u);
  EXPECT_EQ(chase_launch_warm_steps(4097), 0u);  // no L1 holds it: the L2 keeps it between launches
  EXPECT_EQ(chase_bytes(8192, 8), 65536u);
  EXPECT_EQ(chase_timed_steps % 8, 0u);  // the kernels unroll by 8
}

}  // namespace
}  // namespace membench
