// P1 peer-to-peer (The CUDA Handbook 5.2.7; 9.2): which devices a row uses, the directions
// and sizes, the data each buffer holds, and the bytes formulas.
#pragma once

#include <array>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::peer {

inline constexpr std::uint32_t peer_seed_d0 = 0xD0D0;  ///< the source buffer on d0
inline constexpr std::uint32_t peer_seed_d1 = 0xD1D1;  ///< the source buffer on d1
inline constexpr std::uint32_t peer_poison_seed = 0xBADD;
inline constexpr unsigned peer_block = 256;

/// Latency-bound, mid-size and sustained (the 1 GiB the suite uses for DRAM figures).
inline constexpr std::array<std::uint64_t, 3> peer_sizes{std::uint64_t{1} << 20, std::uint64_t{64} << 20,
                                                         std::uint64_t{1} << 30};

/// Copy direction between the session's device d0 and its peer d1 (the `dir` name key).
enum class peer_dir { d0_d1, d1_d0, bidir };
inline constexpr std::array<peer_dir, 3> all_peer_dirs{peer_dir::d0_d1, peer_dir::d1_d0, peer_dir::bidir};
constexpr const char* to_string(peer_dir d) {
  switch (d) {
    case peer_dir::d0_d1: return "d0_d1";
    case peer_dir::d1_d0: return "d1_d0";
    case peer_dir::bidir: return "bidir";
  }
  return "?";
}

/// Whether the pair has peer access enabled (the `access` name key): on, or off (the driver
/// stages copies through host memory).
constexpr const char* access_token(bool on) { return on ? "on" : "off"; }

/// The peer of the session's device d0 among `count` devices: the next one, wrapping.
constexpr int peer_device(int d0, int count) { return count <= 0 ? -1 : (d0 + 1) % count; }

/// Bytes moved per launch: one buffer, or one in each direction at once.
constexpr std::uint64_t peer_copy_bytes(peer_dir d, std::uint64_t bytes) { return d == peer_dir::bidir ? 2 * bytes : bytes; }

/// Bytes the read kernel requests: the peer's buffer, plus one 4-byte partial per block.
constexpr std::uint64_t peer_read_bytes(std::uint64_t bytes, std::uint64_t blocks) { return bytes + 4 * blocks; }

/// Device memory one row of `bytes` needs on each device: a source and a destination.
constexpr std::uint64_t peer_device_bytes(std::uint64_t bytes) { return 2 * bytes; }

/// Word i of the source buffer on device d0 (`on_d1` false) or d1: different on the two, so a
/// copy in the wrong direction shows.
MEMBENCH_HD std::uint32_t peer_word(bool on_d1, std::uint64_t i) {
  return pattern_word(i, on_d1 ? peer_seed_d1 : peer_seed_d0);
}

}  // namespace membench::peer
