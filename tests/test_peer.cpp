// Peer families (P1 peer/copy, peer/sm, peer/latency, peer/all_to_one, peer/one_to_all)
// without a GPU: the rows a host of N GPUs gets per tier, their names, the bytes formulas and
// the GPUs' patterns.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "common/naming.hpp"
#include "kernels/peer/p2p.hpp"
#include "peer/rows.hpp"

namespace membench {
namespace {

using peer::copy_dir;
using peer::sm_dir;

const char* const families[] = {"peer/all_to_one", "peer/copy", "peer/latency", "peer/one_to_all", "peer/sm"};

std::vector<peer_pair> all_pairs(int n) {
  std::vector<peer_pair> out;
  for (int s = 0; s < n; ++s) {
    for (int d = 0; d < n; ++d) {
      if (s != d) out.push_back({s, d});
    }
  }
  return out;
}

// Rows of every peer family in `tier` (a row of a smaller tier is in every larger one).
std::size_t rows_in(const std::vector<peer_pair>& pairs, suite_tier tier) {
  std::size_t n = 0;
  for (const char* f : families) {
    for (const auto& r : peer::peer_rows(f, pairs)) n += static_cast<int>(r.tier) <= static_cast<int>(tier) ? 1u : 0u;
  }
  return n;
}

TEST(Peer, RowsPerTierForTwoAndFourGpus) {
  // Per ordered pair: quick 5 (push, pull, bidir on at 64M; the 64M read; the 1M chase),
  // default 22, full 32; aggregates need two partners: 4 per GPU in the default tier, 6 in full.
  EXPECT_EQ(rows_in(all_pairs(2), suite_tier::quick), 10u);
  EXPECT_EQ(rows_in(all_pairs(2), suite_tier::standard), 44u);
  EXPECT_EQ(rows_in(all_pairs(2), suite_tier::full), 64u);
  EXPECT_EQ(rows_in(all_pairs(4), suite_tier::quick), 60u);
  EXPECT_EQ(rows_in(all_pairs(4), suite_tier::standard), 280u);
  EXPECT_EQ(rows_in(all_pairs(4), suite_tier::full), 408u);
  EXPECT_EQ(rows_in({}, suite_tier::full), 0u) << "one GPU: no peer row";
}

TEST(Peer, QuickRowsOfAPair) {
  std::set<std::string> quick;
  for (const char* f : families) {
    for (const auto& r : peer::peer_rows(f, {{1, 0}})) {
      if (r.tier == suite_tier::quick) quick.insert(bench_name{"peer", std::string(f).substr(5), r.params}.str());
    }
  }
  EXPECT_EQ(quick, (std::set<std::string>{
                       "peer/copy/access:on/dir:push/src:1/dst:0/bytes:64M",
                       "peer/copy/access:on/dir:pull/src:1/dst:0/bytes:64M",
                       "peer/copy/access:on/dir:bidir/src:1/dst:0/bytes:64M",
                       "peer/sm/op:read/dir:uni/src:1/dst:0/bytes:64M",
                       "peer/latency/src:1/dst:0/bytes:1M",
                   }));
}

TEST(Peer, AggregatesTakeThePartnersThePairsName) {
  // 0 -> 1, 2 -> 1, 3 -> 1 and 0 -> 2: GPU 1 has three sources, GPU 0 two destinations.
  const std::vector<peer_pair> pairs{{0, 1}, {0, 2}, {2, 1}, {3, 1}};
  const auto to_one = peer::peer_rows("peer/all_to_one", pairs);
  ASSERT_EQ(to_one.size(), 3u) << "one per size, GPU 1 only";
  EXPECT_EQ(to_one[0].hub, 1);
  EXPECT_EQ(to_one[0].others, (std::vector<int>{0, 2, 3}));
  const auto from_one = peer::peer_rows("peer/one_to_all", pairs);
  ASSERT_EQ(from_one.size(), 3u);
  EXPECT_EQ(from_one[0].hub, 0);
  EXPECT_EQ(from_one[0].others, (std::vector<int>{1, 2}));
  EXPECT_EQ((bench_name{"peer", "all_to_one", to_one[1].params}.str()), "peer/all_to_one/access:on/dst:1/bytes:64M");
  EXPECT_EQ((bench_name{"peer", "one_to_all", from_one[2].params}.str()), "peer/one_to_all/access:on/src:0/bytes:1G");
}

TEST(Peer, SizesOutermostThenPairs) {
  const auto rows = peer::peer_rows("peer/latency", all_pairs(2));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ((bench_name{"peer", "latency", rows[0].params}.str()), "peer/latency/src:0/dst:1/bytes:1M");
  EXPECT_EQ((bench_name{"peer", "latency", rows[1].params}.str()), "peer/latency/src:1/dst:0/bytes:1M");
  EXPECT_EQ((bench_name{"peer", "latency", rows[2].params}.str()), "peer/latency/src:0/dst:1/bytes:1G");
}

TEST(Peer, NamesRoundTrip) {
  std::set<std::string> names;
  for (const char* f : families) {
    const std::string family(f);
    for (const auto& r : peer::peer_rows(f, all_pairs(3))) {
      const bench_name name{"peer", family.substr(5), r.params};
      const std::string text = name.str();
      EXPECT_TRUE(names.insert(text).second) << "twice: " << text;
      EXPECT_EQ(parse_name(text + "/manual_time"), name) << text;
    }
  }
  EXPECT_TRUE(names.count("peer/copy/access:off/dir:bidir/src:2/dst:0/bytes:1M"));
  EXPECT_TRUE(names.count("peer/sm/op:write/dir:bidir/src:0/dst:1/bytes:1G"));
}

TEST(Peer, BytesAndPatterns) {
  EXPECT_EQ(peer::peer_copy_bytes(copy_dir::push, 1u << 20), 1u << 20);
  EXPECT_EQ(peer::peer_copy_bytes(copy_dir::pull, 1u << 20), 1u << 20);
  EXPECT_EQ(peer::peer_copy_bytes(copy_dir::bidir, std::uint64_t{1} << 30), std::uint64_t{2} << 30);
  EXPECT_EQ(peer::peer_read_bytes(1u << 20, 264), (1u << 20) + 1056u);
  EXPECT_EQ(peer::peer_write_bytes(1u << 20), 1u << 20);
  EXPECT_EQ(peer::peer_aggregate_bytes(64u << 20, 3), 3u * (64u << 20));
  EXPECT_EQ(peer::peer_device_bytes(std::uint64_t{1} << 30), std::uint64_t{2} << 30);
  EXPECT_EQ(peer::peer_device_bytes(std::uint64_t{1} << 30, 3), std::uint64_t{4} << 30);
  // Every GPU's source differs from every other's, and the writes from the sources.
  for (int a = 0; a < 8; ++a) {
    for (int b = a + 1; b < 8; ++b) {
      std::size_t same = 0;
      for (std::uint64_t i = 0; i < 4096; ++i) same += peer::peer_word(a, i) == peer::peer_word(b, i);
      EXPECT_EQ(same, 0u) << a << " and " << b << ": a copy from the wrong GPU would pass";
      EXPECT_NE(peer::peer_write_word(a, 7), peer::peer_write_word(b, 7));
    }
  }
  EXPECT_EQ(peer::peer_seed(0), 0xD0D0u);
  EXPECT_EQ(peer::peer_seed(1), 0xD1D1u);
}

}  // namespace
}  // namespace membench
