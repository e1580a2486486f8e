// Host-device families (H1-H4, A4): index math, references and bytes formulas, no GPU.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "harness/core/host_memory.hpp"
#include "kernels/host/copy.hpp"
#include "kernels/host/managed.hpp"
#include "kernels/host/streams.hpp"
#include "kernels/host/zero_copy.hpp"

namespace membench::host {
namespace {

TEST(HostKinds, NamesRoundTrip) {
  std::set<std::string> seen;
  for (host_kind k : all_host_kinds) {
    EXPECT_EQ(parse_host_kind(to_string(k)), k);
    seen.insert(to_string(k));
  }
  EXPECT_EQ(seen.size(), all_host_kinds.size());
  EXPECT_FALSE(parse_host_kind("mapped").has_value());
  EXPECT_FALSE(is_page_locked(host_kind::pageable));
  EXPECT_TRUE(is_page_locked(host_kind::wc));
  EXPECT_TRUE(is_page_locked(host_kind::registered));
}

TEST(HostBuffer, PageableNeedsNoGpuAndIsTouched) {
  host_buffer b(host_kind::pageable, 3 * 4096 + 5);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % 4096, 0u);
  EXPECT_EQ(b.data()[3 * 4096 + 4], std::byte{0x5A});
  host_buffer moved(std::move(b));
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(moved.bytes(), 3u * 4096 + 5);
}

TEST(ZeroCopy, ReferenceAndBytes) {
  float a[4], b[4], c[4];
  for (std::size_t i = 0; i < 4; ++i) {
    a[i] = pattern_value<float>(i, zero_copy_seed_a);
    b[i] = pattern_value<float>(i, zero_copy_seed_b);
  }
  for (std::size_t i = 0; i < 4; ++i) sum_arrays_element(i, a, b, c);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(c[i], sum_arrays_expected<float>(i));
  EXPECT_NE(sum_arrays_expected<float>(0), sum_arrays_expected<float>(1));
  EXPECT_EQ(sum_arrays_bytes(1024, 4), 12288u);
  EXPECT_EQ(sum_arrays_host_bytes(1024, 4), 8192u);
  EXPECT_EQ(copy_bytes(4096), 4096u);
  EXPECT_EQ(managed_bytes(1 << 20), 1u << 20);
}

TEST(Streams, ChunksCoverTheArrayOnceInOrder) {
  for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{32}, std::size_t{1000}, std::size_t{1} << 25}) {
    std::size_t next = 0;
    for (std::size_t c = 0; c < 32; ++c) {
      const chunk ch = chunk_range(c, 32, n);
      EXPECT_EQ(ch.begin, std::min(next, n)) << n << " " << c;
      EXPECT_LE(ch.end, n);
      next = ch.end;
    }
    EXPECT_EQ(next, n);
  }
  EXPECT_EQ(chunk_range(3, 32, std::size_t{1} << 25).size(), std::size_t{1} << 20);
  EXPECT_EQ(chunk_stream(0, 4), 0u);
  EXPECT_EQ(chunk_stream(5, 4), 1u);
  EXPECT_EQ(chunk_stream(31, 1), 0u);
}

TEST(Streams, ReferenceShortcutMatchesTheFullChain) {
  // The host reference stops at the fixed point; the device runs every FMA.
  for (std::size_t i = 0; i < 200; ++i) {
    const float a = pattern_value<float>(i, streams_seed_a), b = pattern_value<float>(i, streams_seed_b);
    for (int fmas : {0, 1, 2, 7, 40, pipeline_high_fmas}) {
      EXPECT_EQ(pipeline_reference(a, b, fmas), pipeline_value(a, b, fmas)) << i << " " << fmas;
    }
  }
  EXPECT_EQ(pipeline_value(3.0f, 1.0f, 1), 2.5f);
  EXPECT_EQ(pipeline_expected(0, pipeline_low_fmas),
            pattern_value<float>(0, streams_seed_a) * 0.5f + pattern_value<float>(0, streams_seed_b));
}

TEST(Streams, BytesAndBound) {
  EXPECT_EQ(pipeline_bytes(std::uint64_t{1} << 25, 4), std::uint64_t{3} << 27);
  EXPECT_EQ(copy_engine_bound(4.0, 2.0, 3.0), 4.0);
  EXPECT_EQ(copy_engine_bound(1.0, 2.0, 5.0), 5.0);
}

TEST(Managed, PolicyNamesAreDistinctTokens) {
  std::set<std::string> seen;
  for (managed_policy p : all_managed_policies) seen.insert(to_string(p));
  EXPECT_EQ(seen.size(), all_managed_policies.size());
  EXPECT_TRUE(seen.count("fault"));
  EXPECT_TRUE(seen.count("resident"));
}

}  // namespace
}  // namespace membench::host
