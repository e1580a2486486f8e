// Allocation families (A1 allocation cost, A2 pitched 2D, A3 memset) without a GPU: names,
// grids, the row-alignment count, host simulations of the 2D copies and fills against the
// expected-word functions the verification uses, the fill patterns and the bytes formulas.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "common/naming.hpp"
#include "kernels/alloc/alloc_cost.hpp"
#include "kernels/alloc/memset.hpp"
#include "kernels/alloc/pitched.hpp"

namespace membench {
namespace {

// A name as the family files build it must print as `expected` and parse back to itself.
void expect_name(const bench_name& n, const std::string& expected) {
  EXPECT_EQ(n.str(), expected);
  EXPECT_EQ(parse_name(expected + "/manual_time"), n) << expected;
}

// ---- A1 alloc/cost, alloc/device_malloc ---------------------------------------------------

using alloc::alloc_api;
using alloc::alloc_op;

TEST(AllocCost, Names) {
  std::set<std::string> seen;
  for (alloc_api a : alloc::all_alloc_apis) seen.insert(alloc::to_string(a));
  EXPECT_EQ(seen, (std::set<std::string>{"malloc", "malloc_host", "malloc_async"}));
  EXPECT_STREQ(alloc::to_string(alloc_op::alloc), "alloc");
  EXPECT_STREQ(alloc::to_string(alloc_op::free), "free");
  expect_name(bench_name{"alloc", "cost", {{"api", "malloc_async"}, {"op", "free"}, {"alloc_bytes", format_size(4096)}}},
              "alloc/cost/api:malloc_async/op:free/alloc_bytes:4K");
  expect_name(bench_name{"alloc", "device_malloc", {{"block", "256"}, {"op", "alloc"}, {"alloc_bytes", format_size(12288)}}},
              "alloc/device_malloc/block:256/op:alloc/alloc_bytes:12K");
  expect_name(bench_name{"alloc", "device_malloc", {{"block", "32"}, {"op", "alloc"}, {"alloc_bytes", format_size(64)}}},
              "alloc/device_malloc/block:32/op:alloc/alloc_bytes:64");
}

TEST(AllocCost, SizesAreWordMultiplesAndFitThePool) {
  std::uint64_t prev = 0;
  for (std::uint64_t b : alloc::cost_sizes) {
    EXPECT_GT(b, prev);  // registered in increasing order
    EXPECT_EQ(b % 16, 0u) << b;
    EXPECT_LE(b, alloc::pool_release_threshold) << "freed memory would leave the pool";
    prev = b;
  }
  EXPECT_EQ(alloc::cost_sizes.front(), 4096u);
  EXPECT_EQ(alloc::cost_sizes.back(), std::uint64_t{1} << 30);
}

TEST(AllocCost, PoolRowsTimeManyCallsThatStayInThePool) {
  for (std::uint64_t b : alloc::cost_sizes) {
    const std::uint64_t calls = alloc::cost_calls_per_sample(alloc::alloc_api::malloc_async, b);
    EXPECT_GE(calls, 2u) << b << ": one sample is never a single pool call";
    EXPECT_LE(calls, alloc::max_pool_calls) << b;
    EXPECT_LE(calls * b, alloc::pool_release_threshold / 2) << b << ": every allocation of a sample stays in the pool";
    EXPECT_EQ(alloc::cost_calls_per_sample(alloc::alloc_api::malloc, b), 1u) << "the driver's calls: one per sample";
    EXPECT_EQ(alloc::cost_calls_per_sample(alloc::alloc_api::malloc_host, b), 1u);
  }
  EXPECT_EQ(alloc::cost_calls_per_sample(alloc::alloc_api::malloc_async, std::uint64_t{1} << 20), alloc::max_pool_calls);
  EXPECT_EQ(alloc::cost_calls_per_sample(alloc::alloc_api::malloc_async, std::uint64_t{256} << 20), 8u);
}

TEST(AllocCost, AllocationsOfASampleMustBeDistinctMemory) {
  EXPECT_TRUE(alloc::allocations_disjoint({0x3000, 0x1000, 0x2000}, 0x1000));
  EXPECT_FALSE(alloc::allocations_disjoint({0x1000, 0x1800}, 0x1000)) << "overlap";
  EXPECT_FALSE(alloc::allocations_disjoint({0x1000, 0x1000}, 16)) << "the same block twice";
  EXPECT_FALSE(alloc::allocations_disjoint({0x1000, 0}, 16)) << "a null allocation";
  EXPECT_TRUE(alloc::allocations_disjoint({}, 16));
}

TEST(DeviceMalloc, GridFitsTheHeapAndThePointerArray) {
  std::set<std::pair<unsigned, std::uint64_t>> points;
  for (const auto& pt : alloc::device_malloc_grid) {
    EXPECT_TRUE(points.insert({pt.threads, pt.alloc_bytes}).second) << "duplicate point";
    EXPECT_LE(pt.threads, alloc::device_malloc_max_threads);
    EXPECT_GE(pt.threads, 1u);
    EXPECT_EQ(pt.alloc_bytes % 16, 0u) << "the check kernels use 16-byte accesses";
    // Half the heap at most: the allocator's own overhead must not make malloc fail.
    EXPECT_LE(2 * alloc::device_malloc_bytes(alloc::device_malloc_blocks, pt.threads, pt.alloc_bytes),
              alloc::device_heap_bytes)
        << pt.threads << " x " << pt.alloc_bytes;
  }
  // The Handbook's grid: 32..512 threads of 64 B and of 12 KiB, one thread of 1 MiB.
  for (unsigned t : {32u, 64u, 128u, 256u, 512u}) {
    EXPECT_TRUE(points.count({t, 64}));
    EXPECT_TRUE(points.count({t, 12288}));
  }
  EXPECT_TRUE(points.count({1, std::uint64_t{1} << 20}));
}

TEST(DeviceMalloc, BytesAndPerCall) {
  EXPECT_EQ(alloc::device_malloc_threads(128, 256), 32768u);
  EXPECT_EQ(alloc::device_malloc_bytes(128, 256, 64), std::uint64_t{2} << 20);
  EXPECT_EQ(alloc::device_malloc_bytes(128, 1, std::uint64_t{1} << 20), std::uint64_t{128} << 20);
  EXPECT_DOUBLE_EQ(alloc::us_per_call(1e-3, 1000), 1.0);
  EXPECT_DOUBLE_EQ(alloc::us_per_call(2.5e-6, 1), 2.5);
  EXPECT_DOUBLE_EQ(alloc::us_per_call(1.0, 0), 0.0);
}

TEST(DeviceMalloc, ThreadPatternsDifferSoOverlapsShow) {
  // Two threads handed the same memory must disagree on what it holds: every word of the
  // first 64 threads' 64-byte allocations differs from every other thread's.
  constexpr std::uint64_t bytes = 64;
  std::set<std::uint32_t> words;
  std::size_t count = 0;
  for (std::uint64_t t = 0; t < 64; ++t) {
    for (std::uint64_t k = 0; k < bytes / 16; ++k) {
      for (unsigned lane = 0; lane < 4; ++lane) {
        words.insert(alloc::device_malloc_word(t, bytes, k, lane));
        ++count;
      }
    }
  }
  EXPECT_EQ(words.size(), count);
  EXPECT_NE(alloc::device_malloc_word(0, bytes, 0, 0), alloc::device_malloc_word(1, bytes, 0, 0));
  // Thread t's word k is the global 16-byte slot t * (bytes / 16) + k.
  EXPECT_EQ(alloc::device_malloc_word(1, bytes, 0, 2), alloc::device_malloc_word(0, bytes, 4, 2));
}

// ---- A2 alloc/pitched ----------------------------------------------------------------------

using alloc::pitched_op;

std::uint64_t misaligned_brute(std::uint64_t rows, std::uint64_t pitch, std::uint64_t align) {
  std::uint64_t n = 0;
  for (std::uint64_t r = 0; r < rows; ++r) n += (r * pitch) % align != 0;
  return n;
}

TEST(Pitched, MisalignedRowsMatchesCounting) {
  for (std::uint64_t pitch : {4u, 100u, 512u, 1000u, 1004u, 4004u, 4096u, 16388u, 16384u}) {
    for (std::uint64_t rows : {0u, 1u, 2u, 31u, 32u, 33u, 1000u, 1024u}) {
      EXPECT_EQ(alloc::misaligned_rows(rows, pitch, 128), misaligned_brute(rows, pitch, 128)) << pitch << " " << rows;
    }
  }
  EXPECT_EQ(alloc::misaligned_rows(1024, 4096, 128), 0u);
  // 1004 = 4 x 251: one row in 32 starts on a 128-byte boundary.
  EXPECT_EQ(alloc::misaligned_rows(32, 1004, 128), 31u);
  EXPECT_EQ(alloc::misaligned_rows(65536, 1004, 128), 65536u - 2048u);
  // 16388 = 4 x 4097: also one in 32.
  EXPECT_EQ(alloc::misaligned_rows(64, 16388, 128), 62u);
}

TEST(Pitched, GridHasOddAndAlignedWidths) {
  int odd = 0, aligned = 0;
  for (std::uint64_t w : alloc::pitched_row_bytes) {
    EXPECT_EQ(w % alloc::pitched_elem_bytes, 0u) << w;
    const std::uint64_t elems = w / alloc::pitched_elem_bytes;
    if (elems % 2 == 1) {
      ++odd;
      EXPECT_NE(w % alloc::row_alignment, 0u) << "an odd row must start packed rows off the boundary";
    }
    if (w % alloc::row_alignment == 0) ++aligned;
  }
  EXPECT_EQ(odd, 3);
  EXPECT_EQ(aligned, 1);
  EXPECT_EQ(alloc::pitched_rows.back(), alloc::pitched_dram_rows);
}

TEST(Pitched, NamesAndBytes) {
  EXPECT_STREQ(alloc::api_token(pitched_op::kernel), "kernel");
  EXPECT_STREQ(alloc::api_token(pitched_op::memcpy_d2d), "memcpy_2d");
  EXPECT_STREQ(alloc::dir_token(pitched_op::memcpy_d2d), "d2d");
  EXPECT_STREQ(alloc::dir_token(pitched_op::memcpy_h2d), "h2d");
  EXPECT_STREQ(alloc::dir_token(pitched_op::kernel), "d2d");
  expect_name(bench_name{"alloc", "pitched",
                         {{"api", "kernel"}, {"dir", "d2d"}, {"layout", "packed"}, {"row_bytes", format_size(4004)},
                          {"rows", "65536"}}},
              "alloc/pitched/api:kernel/dir:d2d/layout:packed/row_bytes:4004/rows:65536");
  expect_name(bench_name{"alloc", "pitched",
                         {{"api", "memcpy_2d"}, {"dir", "h2d"}, {"layout", "pitched"}, {"row_bytes", format_size(4096)},
                          {"rows", "1024"}}},
              "alloc/pitched/api:memcpy_2d/dir:h2d/layout:pitched/row_bytes:4K/rows:1024");
  EXPECT_EQ(alloc::pitched_bytes(pitched_op::kernel, 1024, 4004), 2u * 1024 * 4004);
  EXPECT_EQ(alloc::pitched_bytes(pitched_op::memcpy_d2d, 3, 1004), 6u * 1004);
  EXPECT_EQ(alloc::pitched_bytes(pitched_op::memcpy_h2d, 3, 1004), 3u * 1004);
  EXPECT_EQ(alloc::pitched_index(2, 5, 1024), 2053u);
}

// Host model of the row-walking kernel: `grid` blocks of `block` threads, blocks stride over
// rows, threads over columns; returns the destination after one launch over a poisoned one.
std::vector<std::uint32_t> simulate_kernel(std::uint64_t pitch_words, std::uint64_t cols, std::uint64_t rows,
                                           unsigned grid, unsigned block) {
  std::vector<std::uint32_t> in(pitch_words * rows), out(pitch_words * rows);
  for (std::uint64_t i = 0; i < in.size(); ++i) {
    in[i] = 0xFFFFFFFFu;  // padding of the source: must never arrive
    out[i] = alloc::pitched_poison(i);
  }
  for (std::uint64_t r = 0; r < rows; ++r)
    for (std::uint64_t c = 0; c < cols; ++c) in[alloc::pitched_index(r, c, pitch_words)] = alloc::pitched_value(r, c, cols);
  std::vector<int> writes(out.size(), 0);
  for (unsigned b = 0; b < grid; ++b) {
    for (unsigned t = 0; t < block; ++t) {
      for (std::uint64_t r = b; r < rows; r += grid) {
        for (std::uint64_t c = t; c < cols; c += block) {
          const std::uint64_t i = alloc::pitched_index(r, c, pitch_words);
          out[i] = in[i];
          ++writes[i];
        }
      }
    }
  }
  for (std::uint64_t i = 0; i < out.size(); ++i) EXPECT_LE(writes[i], 1) << "element " << i << " written twice";
  return out;
}

TEST(Pitched, KernelModelMatchesExpectedWordsInBothLayouts) {
  // Pitched: 251 elements per row padded to 256; packed: rows exactly 251 apart.
  for (std::uint64_t pitch_words : {std::uint64_t{256}, std::uint64_t{251}}) {
    const std::uint64_t cols = 251, rows = 37;
    const auto out = simulate_kernel(pitch_words, cols, rows, 5, 64);
    std::size_t bad = 0;
    for (std::uint64_t i = 0; i < out.size(); ++i) bad += out[i] != alloc::pitched_expected(i, pitch_words, cols);
    EXPECT_EQ(bad, 0u) << "pitch " << pitch_words;
  }
  // The check would catch a copy that writes the padding: it must hold the poison.
  const auto out = simulate_kernel(256, 251, 3, 2, 32);
  EXPECT_EQ(out[251], alloc::pitched_poison(251));
  EXPECT_NE(alloc::pitched_expected(251, 256, 251), alloc::pitched_value(0, 251, 251));
}

TEST(Pitched, HostRowsMatchTheDeviceLayoutAfterA2DCopy) {
  // cudaMemcpy2D from packed host rows (spitch = width) into a pitched array.
  const std::uint64_t cols = 7, rows = 5, pitch_words = 16;
  std::vector<std::uint32_t> host(cols * rows), dev(pitch_words * rows);
  for (std::uint64_t i = 0; i < host.size(); ++i) host[i] = alloc::pitched_value(i / cols, i % cols, cols);
  for (std::uint64_t i = 0; i < dev.size(); ++i) dev[i] = alloc::pitched_poison(i);
  for (std::uint64_t r = 0; r < rows; ++r)
    std::memcpy(&dev[r * pitch_words], &host[r * cols], cols * sizeof(std::uint32_t));
  for (std::uint64_t i = 0; i < dev.size(); ++i) EXPECT_EQ(dev[i], alloc::pitched_expected(i, pitch_words, cols)) << i;
}

// ---- A3 alloc/memset, alloc/memset_2d ------------------------------------------------------

using alloc::memset_api;

// Fills `bytes` with the value of `width` the way the APIs do (element by element,
// little-endian) and returns the 32-bit words.
std::vector<std::uint32_t> host_fill(unsigned width, std::size_t bytes) {
  std::vector<unsigned char> b(bytes);
  for (std::size_t off = 0; off < bytes; off += width) {
    switch (width) {
      case 1: b[off] = alloc::memset_value8; break;
      case 2: std::memcpy(&b[off], &alloc::memset_value16, 2); break;
      case 4: std::memcpy(&b[off], &alloc::memset_value32, 4); break;
      default: std::memcpy(&b[off], alloc::memset_value128.data(), 16); break;
    }
  }
  std::vector<std::uint32_t> w(bytes / 4);
  std::memcpy(w.data(), b.data(), bytes);
  return w;
}

TEST(Memset, WordsOfEachWidth) {
  EXPECT_EQ(alloc::memset_word(1, 0), 0xA5A5A5A5u);
  EXPECT_EQ(alloc::memset_word(2, 7), 0xA5C3A5C3u);
  EXPECT_EQ(alloc::memset_word(4, 3), 0xA5C3E1F0u);
  for (std::uint64_t i = 0; i < 8; ++i) EXPECT_EQ(alloc::memset_word(16, i), alloc::memset_value128[i % 4]) << i;
  for (unsigned width : {1u, 2u, 4u, 16u}) {
    const auto w = host_fill(width, 256);
    for (std::size_t i = 0; i < w.size(); ++i) EXPECT_EQ(w[i], alloc::memset_word(width, i)) << width << " " << i;
  }
}

TEST(Memset, ValuesAreNonZeroAndDistinctPerWidth) {
  std::set<std::uint32_t> first;
  for (unsigned width : {1u, 2u, 4u}) {
    EXPECT_NE(alloc::memset_word(width, 0), 0u);
    first.insert(alloc::memset_word(width, 0));
  }
  EXPECT_EQ(first.size(), 3u);
  std::set<std::uint32_t> lanes(alloc::memset_value128.begin(), alloc::memset_value128.end());
  EXPECT_EQ(lanes.size(), 4u);
  EXPECT_EQ(lanes.count(0u), 0u);
  // Poison never looks filled at the first words (a missed fill would pass otherwise).
  for (std::uint64_t i = 0; i < 1024; ++i) {
    for (unsigned width : {1u, 2u, 4u, 16u}) EXPECT_NE(alloc::memset_poison(i), alloc::memset_word(width, i)) << i;
  }
}

TEST(Memset, TwoDimensionalFillLeavesThePadding) {
  // A row of 4000 bytes in a 4096-byte pitch, filled element by element per width.
  const std::uint64_t pitch_words = 1024, row_words = alloc::memset_2d_row_bytes / 4, rows = 3;
  for (unsigned width : {1u, 2u, 4u, 16u}) {
    std::vector<std::uint32_t> a(pitch_words * rows);
    for (std::uint64_t i = 0; i < a.size(); ++i) a[i] = alloc::memset_poison(i);
    const auto row = host_fill(width, alloc::memset_2d_row_bytes);
    for (std::uint64_t r = 0; r < rows; ++r) std::memcpy(&a[r * pitch_words], row.data(), alloc::memset_2d_row_bytes);
    for (std::uint64_t i = 0; i < a.size(); ++i)
      ASSERT_EQ(a[i], alloc::memset_2d_expected(i, pitch_words, row_words, width)) << width << " " << i;
  }
  EXPECT_EQ(alloc::memset_2d_expected(1000, 1024, 1000, 4), alloc::memset_poison(1000));
  EXPECT_EQ(alloc::memset_2d_expected(1024, 1024, 1000, 4), alloc::memset_value32);
}

TEST(Memset, GridsAndNames) {
  EXPECT_EQ(alloc::memset_2d_row_bytes % 16, 0u) << "the 16-byte kernel and cuMemsetD2D32 need whole words";
  EXPECT_NE(alloc::memset_2d_row_bytes % 128, 0u) << "rows must end inside the padding";
  for (std::uint64_t b : alloc::memset_sizes) EXPECT_EQ(b % 16, 0u);
  std::set<std::string> seen;
  for (const auto& v : alloc::memset_variants) {
    EXPECT_TRUE(seen.insert(std::string(alloc::to_string(v.api)) + "/" + std::to_string(v.width)).second);
    switch (v.api) {
      case memset_api::memset:
      case memset_api::memset_d8: EXPECT_EQ(v.width, 1u); break;
      case memset_api::memset_d16: EXPECT_EQ(v.width, 2u); break;
      case memset_api::memset_d32: EXPECT_EQ(v.width, 4u); break;
      case memset_api::kernel: EXPECT_TRUE(v.width == 4 || v.width == 16); break;
    }
  }
  EXPECT_EQ(seen.size(), 6u);
  expect_name(bench_name{"alloc", "memset", {{"api", "memset_d16"}, {"width", "2"}, {"bytes", format_size(256u << 20)}}},
              "alloc/memset/api:memset_d16/width:2/bytes:256M");
  expect_name(bench_name{"alloc", "memset_2d",
                         {{"api", "kernel"}, {"width", "16"}, {"row_bytes", format_size(alloc::memset_2d_row_bytes)},
                          {"rows", "65536"}}},
              "alloc/memset_2d/api:kernel/width:16/row_bytes:4000/rows:65536");
  EXPECT_EQ(alloc::memset_bytes(65536, 4000), 262144000u);
  EXPECT_EQ(alloc::memset_bytes(1, 1u << 20), 1u << 20);
}

}  // namespace
}  // namespace membench
