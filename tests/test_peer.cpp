// Peer family (P1 peer/copy, peer/read) without a GPU: the peer device choice, the bytes
// formulas, the two devices' patterns and the names.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "common/naming.hpp"
#include "kernels/peer/p2p.hpp"

namespace membench {
namespace {

using peer::peer_dir;

TEST(Peer, PeerIsTheNextDevice) {
  EXPECT_EQ(peer::peer_device(0, 2), 1);
  EXPECT_EQ(peer::peer_device(1, 2), 0);
  EXPECT_EQ(peer::peer_device(2, 8), 3);
  EXPECT_EQ(peer::peer_device(7, 8), 0);
  EXPECT_EQ(peer::peer_device(0, 0), -1);
}

TEST(Peer, BytesAndPatterns) {
  EXPECT_EQ(peer::peer_copy_bytes(peer_dir::d0_d1, 1u << 20), 1u << 20);
  EXPECT_EQ(peer::peer_copy_bytes(peer_dir::d1_d0, 1u << 20), 1u << 20);
  EXPECT_EQ(peer::peer_copy_bytes(peer_dir::bidir, std::uint64_t{1} << 30), std::uint64_t{2} << 30);
  EXPECT_EQ(peer::peer_read_bytes(1u << 20, 264), (1u << 20) + 1056u);
  EXPECT_EQ(peer::peer_device_bytes(std::uint64_t{1} << 30), std::uint64_t{2} << 30);
  std::size_t same = 0;
  for (std::uint64_t i = 0; i < 4096; ++i) same += peer::peer_word(true, i) == peer::peer_word(false, i);
  EXPECT_EQ(same, 0u) << "a copy in the wrong direction would pass";
  EXPECT_EQ(peer::peer_sizes.back(), std::uint64_t{1} << 30);
}

TEST(Peer, Names) {
  std::set<std::string> dirs;
  for (peer_dir d : peer::all_peer_dirs) dirs.insert(peer::to_string(d));
  EXPECT_EQ(dirs, (std::set<std::string>{"d0_d1", "d1_d0", "bidir"}));
  // A name as the family files build it must print as expected and parse back to itself.
  const std::pair<bench_name, std::string> names[] = {
      {{"peer", "copy", {{"access", peer::access_token(true)}, {"dir", "d0_d1"}, {"bytes", format_size(1u << 30)}}},
       "peer/copy/access:on/dir:d0_d1/bytes:1G"},
      {{"peer", "copy", {{"access", peer::access_token(false)}, {"dir", "bidir"}, {"bytes", format_size(64u << 20)}}},
       "peer/copy/access:off/dir:bidir/bytes:64M"},
      {{"peer", "read", {{"access", "on"}, {"bytes", format_size(1u << 20)}}}, "peer/read/access:on/bytes:1M"},
  };
  for (const auto& [name, expected] : names) {
    EXPECT_EQ(name.str(), expected);
    EXPECT_EQ(parse_name(expected + "/manual_time"), name) << expected;
  }
}

}  // namespace
}  // namespace membench
