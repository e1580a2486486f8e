// Global-memory families without a GPU: element functions against their host references,
// index maps and bytes formulas of the offset, stride, pattern, bandwidth and working-set
// kernels, the pointer-chase chains of the latency families, and the L2-persistence
// family's interleaved item map.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <tuple>
#include <vector>

#include "kernels/common/chase.hpp"
#include "kernels/common/pattern.hpp"
#include "kernels/common/types.hpp"
#include "kernels/global/atomic.hpp"
#include "kernels/global/bandwidth.hpp"
#include "kernels/global/l2_persist.hpp"
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
        working_set_cursor<true> c(s, t);
        std::vector<std::uint64_t> flat;
        for (std::uint64_t k = 0; k < c.loads(s); ++k, c.next()) flat.push_back(c.index());
        EXPECT_EQ(flat, nested) << "bytes " << bytes << " rotate " << rotate << " thread " << t;
      }
    }
  }
}

// Sizes between the powers of two (where the aggregate L1 and the L2 end) wrap by a
// subtraction: the same elements as the nested loops, for sets just over the grid, a few
// times it, and one where the rotation (37 blocks) exceeds the set.
TEST(WorkingSet, SetsThatAreNotPowersOfTwoWalkTheNestedLoops) {
  for (const auto& [elements, threads, blk] : std::vector<std::tuple<std::uint64_t, std::uint64_t, unsigned>>{
           {1536 + 16, 1536, 256}, {5 * 1536 + 3 * 16, 1536, 256}, {3 * 1024, 1024, 64}, {1000, 500, 64}}) {
    for (bool rotate : {false, true}) {
      const auto s = make_working_set_shape(elements * 16, threads, blk, rotate);
      ASSERT_FALSE(is_pow2(s.n));
      ASSERT_TRUE(working_set_shape_ok(s));
      EXPECT_LT(s.shift, s.n);
      for (std::uint64_t t : {std::uint64_t{0}, std::uint64_t{1}, threads / 2, threads - 1}) {
        std::vector<std::uint64_t> nested;
        for (std::uint64_t p = 0; p < s.passes; ++p)
          for (std::uint64_t e = t; e < s.span; e += s.threads) nested.push_back((e + p * (rotate ? working_set_rotation_blocks * blk : 0)) % s.n);
        working_set_cursor<false> c(s, t);
        std::vector<std::uint64_t> flat;
        for (std::uint64_t k = 0; k < c.loads(s); ++k, c.next()) flat.push_back(c.index());
        EXPECT_EQ(flat, nested) << "elements " << elements << " rotate " << rotate << " thread " << t;
        EXPECT_EQ(working_set_thread_expected(s, t), [&] {
          std::uint32_t acc = 0;
          for (auto i : nested) acc += working_set_fold(working_set_value(i));
          return acc;
        }());
      }
    }
  }
  // Smaller than the grid and not a power of two: no walk, the row says why.
  EXPECT_FALSE(working_set_shape_ok(make_working_set_shape(1000 * 16, 1536, 256, false)));
  EXPECT_TRUE(working_set_shape_ok(make_working_set_shape(1024 * 16, 1536, 256, false)));
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
  EXPECT_EQ(chase_cycle_steps(128), 128u);
  EXPECT_EQ(chase_cycle_steps(13), 16u);
  EXPECT_EQ(chase_cycle_steps(std::uint64_t{1} << 22), std::uint64_t{1} << 22);  // no cap, unlike the launch warm-up
  EXPECT_EQ(chase_launch_warm_steps(4096), 4096u);
  EXPECT_EQ(chase_launch_warm_steps(4097), 0u);  // no L1 holds it: the L2 keeps it between launches
  EXPECT_EQ(chase_bytes(8192, 8), 65536u);
  EXPECT_EQ(chase_timed_steps % 8, 0u);  // the kernels unroll by 8
}

TEST(Chase, ALaunchTimesWholeCyclesWherePositionCanMatter) {
  EXPECT_EQ(chase_steps_per_launch(128), chase_timed_steps);    // L1: many cycles a launch
  EXPECT_EQ(chase_steps_per_launch(8192), chase_timed_steps);
  EXPECT_EQ(chase_steps_per_launch(196608), 196608u);           // 24 MiB at 128 bytes: one cycle
  EXPECT_EQ(chase_steps_per_launch(8193), 8u * 8193u);          // whole cycles, a multiple of 8
  EXPECT_EQ(chase_steps_per_launch(chase_whole_cycle_nodes), chase_whole_cycle_nodes);
  EXPECT_EQ(chase_steps_per_launch(chase_whole_cycle_nodes + 8), chase_timed_steps);  // all misses
  for (std::uint64_t n : {std::uint64_t{9000}, std::uint64_t{65536}, std::uint64_t{100003}}) {
    EXPECT_EQ(chase_steps_per_launch(n) % n, 0u) << n;
    EXPECT_EQ(chase_steps_per_launch(n) % 8, 0u) << n;
  }
}

TEST(Chase, WholeCycleRowsGetALargerBudget) {
  EXPECT_EQ(chase_budget_scale(128), 1.0);  // many cycles a launch: its samples agree
  EXPECT_EQ(chase_budget_scale(chase_timed_steps), 1.0);
  EXPECT_EQ(chase_budget_scale(196608), 16.0);  // 24 MiB at 128 bytes: one whole cycle a launch
  EXPECT_EQ(chase_budget_scale(chase_whole_cycle_nodes), 16.0);
  EXPECT_EQ(chase_budget_scale(chase_whole_cycle_nodes + 8), 1.0);  // all misses
}

}  // namespace
}  // namespace membench

// B5 L2 persistence: the interleaved item map, the host reference and the bytes formula.
namespace membench::global {
namespace {

constexpr std::uint64_t l2p_mib = std::uint64_t{1} << 20;

// Walks a launch's items pass by pass: each pass reads every hot chunk once in order and the
// next s streaming chunks in order, with the hot items spread evenly among them.
void check_l2_persist_map(const l2_persist_shape& s) {
  const std::uint32_t n = s.per_pass();
  for (std::uint32_t pass = 0; pass < s.passes; ++pass) {
    std::uint32_t next_hot = 0, next_stream = pass * s.stream_chunks, last_hot_j = 0;
    for (std::uint32_t j = 0; j < n; ++j) {
      const l2_persist_item it = l2_persist_item_at(s, pass * n + j);
      if (it.hot) {
        ASSERT_EQ(it.chunk, next_hot++) << "pass " << pass << " item " << j;
        if (next_hot > 1) {
          EXPECT_LE(j - last_hot_j, (n + s.hot_chunks - 1) / s.hot_chunks) << j;  // evenly spread
        }
        last_hot_j = j;
      } else {
        ASSERT_EQ(it.chunk, next_stream++) << "pass " << pass << " item " << j;
      }
    }
    EXPECT_EQ(next_hot, s.hot_chunks);
    EXPECT_EQ(next_stream, (pass + 1) * s.stream_chunks);
  }
}

TEST(L2Persist, ShapeIsWholeChunks) {
  const l2_persist_shape s = make_l2_persist_shape(32 * l2p_mib, l2_persist_stream_bytes, l2_persist_passes);
  EXPECT_EQ(l2_persist_chunk_bytes, 32u * 1024);
  EXPECT_EQ(s.hot_chunks, 1024u);
  EXPECT_EQ(s.stream_chunks, 4096u);  // 128 MiB per pass
  EXPECT_EQ(s.items(), 8u * 5120);
  EXPECT_EQ(make_l2_persist_shape(0, l2_persist_stream_bytes, 8).hot_chunks, 0u);
  EXPECT_THROW(make_l2_persist_shape(1000, l2_persist_stream_bytes, 8), std::invalid_argument);
  EXPECT_THROW(make_l2_persist_shape(32 * l2p_mib, 0, 8), std::invalid_argument);
  EXPECT_THROW(make_l2_persist_shape(32 * l2p_mib, l2_persist_stream_bytes, 0), std::invalid_argument);
  EXPECT_THROW(make_l2_persist_shape(std::uint64_t{1} << 40, l2_persist_stream_bytes, 8), std::invalid_argument);
}

TEST(L2Persist, EveryPassReadsTheHotSetOnceAndTheNextStreamingChunks) {
  check_l2_persist_map({0, 5, 2});  // the streaming set alone
  check_l2_persist_map({3, 7, 3});
  check_l2_persist_map({5, 5, 2});
  check_l2_persist_map({7, 3, 2});  // more hot than streaming chunks
  check_l2_persist_map({1, 1, 1});
  for (std::uint64_t hot : {4, 8, 16, 24, 32, 48, 64}) {  // the family's grid
    check_l2_persist_map(make_l2_persist_shape(hot * l2p_mib, l2_persist_stream_bytes, l2_persist_passes));
  }
}

TEST(L2Persist, StreamingBetweenTwoReadsOfAHotLineExceedsTheL2) {
  // 128 MiB of streaming data per pass: over twice the H100's and H200's L2 (50, 60 MiB).
  EXPECT_GE(l2_persist_stream_bytes / l2_persist_passes, 2 * 60 * l2p_mib);
  const l2_persist_shape s = make_l2_persist_shape(64 * l2p_mib, l2_persist_stream_bytes, l2_persist_passes);
  std::uint32_t streamed = 0;
  bool seen = false;
  for (std::uint32_t k = 0; k < s.items(); ++k) {
    const l2_persist_item it = l2_persist_item_at(s, k);
    if (it.hot && it.chunk == 0) {
      if (seen) {
        EXPECT_EQ(streamed, s.stream_chunks);  // a whole pass of the streaming set: 128 MiB
      }
      seen = true;
      streamed = 0;
    } else if (!it.hot) {
      ++streamed;
    }
  }
  EXPECT_TRUE(seen);
}

TEST(L2Persist, BlockSumsMatchASimulatedLaunch) {
  const l2_persist_shape s{3, 5, 2};  // 16 items
  std::vector<std::uint32_t> hot_sums, stream_sums;
  for (std::uint32_t c = 0; c < s.hot_chunks; ++c) hot_sums.push_back(l2_persist_chunk_sum(l2_persist_hot_seed, c));
  for (std::uint32_t c = 0; c < s.passes * s.stream_chunks; ++c)
    stream_sums.push_back(l2_persist_chunk_sum(l2_persist_stream_seed, c));
  EXPECT_NE(hot_sums[0], stream_sums[0]);  // a kernel reading the wrong buffer fails
  for (std::uint32_t blocks : {1u, 3u, 4u, 20u}) {
    const auto expected = l2_persist_block_sums(s, blocks, hot_sums, stream_sums);
    ASSERT_EQ(expected.size(), blocks);
    for (std::uint32_t b = 0; b < blocks; ++b) {
      std::uint32_t acc = 0;  // what the kernel's threads of block b load, one by one
      for (std::uint32_t k = b; k < s.items(); k += blocks) {
        const l2_persist_item it = l2_persist_item_at(s, k);
        for (std::uint32_t t = 0; t < l2_persist_block; ++t)
          for (std::uint32_t u = 0; u < l2_persist_loads; ++u)
            acc += l2_persist_fold(l2_persist_value(l2_persist_index(it.chunk, u, t),
                                                    it.hot ? l2_persist_hot_seed : l2_persist_stream_seed));
      }
      EXPECT_EQ(acc, expected[b]) << blocks << " blocks, block " << b;
    }
  }
}

TEST(L2Persist, ThreadsCoverEachChunkOnce) {
  std::vector<int> seen(l2_persist_chunk_elems, 0);
  for (std::uint32_t t = 0; t < l2_persist_block; ++t)
    for (std::uint32_t u = 0; u < l2_persist_loads; ++u) ++seen.at(l2_persist_index(5, u, t) - 5 * l2_persist_chunk_elems);
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
  EXPECT_EQ(l2_persist_index(0, 1, 0) - l2_persist_index(0, 0, 0), l2_persist_block);  // 4 KiB per block-wide load
  EXPECT_NE(l2_persist_value(0, l2_persist_hot_seed), (word16{0, 0, 0, 0}));
}

TEST(L2Persist, BytesPerLaunch) {
  EXPECT_EQ(l2_persist_bytes(32 * l2p_mib, l2_persist_stream_bytes, 8, 1056),
            (std::uint64_t{1} << 30) + 256 * l2p_mib + 4 * 1056);
  EXPECT_EQ(l2_persist_bytes(0, l2_persist_stream_bytes, 8, 1), (std::uint64_t{1} << 30) + 4);
  for (std::uint64_t hot : {0, 4, 24, 64}) {  // every item is one chunk
    const l2_persist_shape s = make_l2_persist_shape(hot * l2p_mib, l2_persist_stream_bytes, l2_persist_passes);
    EXPECT_EQ(l2_persist_bytes(hot * l2p_mib, l2_persist_stream_bytes, l2_persist_passes, 132),
              std::uint64_t{s.items()} * l2_persist_chunk_bytes + 4 * 132);
  }
}

TEST(L2Persist, SetasideAndHitRatio) {
  const std::uint64_t h100_max = 75 * l2p_mib / 2;  // 37.5 MiB
  EXPECT_EQ(l2_persist_setaside_request(32 * l2p_mib, h100_max), 32 * l2p_mib);
  EXPECT_EQ(l2_persist_setaside_request(48 * l2p_mib, h100_max), h100_max);
  EXPECT_EQ(l2_persist_hit_ratio(32 * l2p_mib, 32 * l2p_mib), 1.0f);
  EXPECT_EQ(l2_persist_hit_ratio(40 * l2p_mib, 32 * l2p_mib), 1.0f);  // a granted set-aside rounded up
  EXPECT_FLOAT_EQ(l2_persist_hit_ratio(36 * l2p_mib, 48 * l2p_mib), 0.75f);
  EXPECT_FLOAT_EQ(l2_persist_hit_ratio(h100_max, 64 * l2p_mib), 37.5f / 64);
  EXPECT_EQ(l2_persist_hit_ratio(h100_max, 0), 0.0f);
}

TEST(Atomic, ElementsMatchReference) {
  const auto host_add = [](float* address, float value) { *address += value; };
  for (atomic_pattern p : {atomic_pattern::coalesced, atomic_pattern::uniform, atomic_pattern::scattered}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{32}, std::size_t{1000}, std::size_t{1} << 16}) {
      const std::uint64_t threads = 5000;
      std::vector<float> counters(n, 0.0f);
      for (std::uint64_t t = 0; t < threads; ++t) atomic_add_element(t, counters.data(), n, 3, p, host_add);
      const auto counts = atomic_expected_counts(p, threads, n, 3);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(counters[i], static_cast<float>(counts[i])) << "n=" << n << " i=" << i;
    }
  }
}

TEST(Atomic, PatternsSpreadTheAddsAsNamed) {
  const std::size_t n = 1 << 20;
  for (std::uint64_t t = 0; t < 64; ++t) {
    EXPECT_EQ(atomic_target(atomic_pattern::coalesced, t, n), t) << "consecutive lanes, consecutive words";
    EXPECT_EQ(atomic_target(atomic_pattern::uniform, t, n), t / 32) << "one address per warp";
  }
  std::set<std::size_t> warp;
  for (std::uint64_t t = 0; t < 32; ++t) warp.insert(atomic_target(atomic_pattern::scattered, t, n));
  EXPECT_GE(warp.size(), 31u) << "a scattered warp touches (almost) 32 lines";
}

// The family's grid (2^21 threads, 8 adds) on its smallest array (32 counters) keeps every
// count, hence every float sum of ones, exact.
TEST(Atomic, FamilyCountsStayExactInFloat) {
  for (atomic_pattern p : {atomic_pattern::coalesced, atomic_pattern::uniform, atomic_pattern::scattered}) {
    const auto counts = atomic_expected_counts(p, std::uint64_t{1} << 21, 32, 8);
    EXPECT_LT(*std::max_element(counts.begin(), counts.end()), std::uint64_t{1} << 24);
    std::uint64_t sum = 0;
    for (auto c : counts) sum += c;
    EXPECT_EQ(sum, (std::uint64_t{1} << 21) * 8);
  }
}

TEST(Atomic, Bytes) { EXPECT_EQ(atomic_bytes(1 << 21, 8, 4), (std::uint64_t{1} << 21) * 8 * 8); }

}  // namespace
}  // namespace membench::global
