// P1 peer-to-peer (The CUDA Handbook 5.2.7; 9.2): the directions, operations and sizes of
// the peer rows, the data each GPU's buffers hold, and the bytes formulas.
#pragma once

#include <array>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::peer {

inline constexpr std::uint32_t peer_poison_seed = 0xBADD;
inline constexpr unsigned peer_block = 256;

/// Latency-bound, mid-size and sustained (the 1 GiB the suite uses for DRAM figures).
inline constexpr std::array<std::uint64_t, 3> peer_sizes{std::uint64_t{1} << 20, std::uint64_t{64} << 20,
                                                         std::uint64_t{1} << 30};
/// The chase's chains (peer/latency): one the other GPU's L2 holds, one far larger than it.
inline constexpr std::array<std::uint64_t, 2> peer_chase_sizes{std::uint64_t{1} << 20, std::uint64_t{1} << 30};

/// Who issues a copy engine's copy from `src` to `dst` (the `dir` name key of peer/copy):
/// `src` (push), `dst` (pull), or both directions at once, each pushed by its source.
enum class copy_dir { push, pull, bidir };
inline constexpr std::array<copy_dir, 3> all_copy_dirs{copy_dir::push, copy_dir::pull, copy_dir::bidir};
constexpr const char* to_string(copy_dir d) {
  switch (d) {
    case copy_dir::push: return "push";
    case copy_dir::pull: return "pull";
    case copy_dir::bidir: return "bidir";
  }
  return "?";
}

/// What a kernel does to the other GPU's memory (the `op` name key of peer/sm): a kernel on
/// `dst` reads `src`'s buffer, or a kernel on `src` writes `dst`'s.
enum class sm_op { read, write };
inline constexpr std::array<sm_op, 2> all_sm_ops{sm_op::read, sm_op::write};
constexpr const char* to_string(sm_op o) { return o == sm_op::read ? "read" : "write"; }

/// One direction, or both GPUs' kernels at once (the `dir` name key of peer/sm).
enum class sm_dir { uni, bidir };
inline constexpr std::array<sm_dir, 2> all_sm_dirs{sm_dir::uni, sm_dir::bidir};
constexpr const char* to_string(sm_dir d) { return d == sm_dir::uni ? "uni" : "bidir"; }

/// Whether the pair has peer access enabled (the `access` name key): on, or off (the driver
/// stages copies through host memory).
constexpr const char* access_token(bool on) { return on ? "on" : "off"; }

/// Bytes moved per launch: one buffer, or one in each direction at once.
constexpr std::uint64_t peer_copy_bytes(copy_dir d, std::uint64_t bytes) { return d == copy_dir::bidir ? 2 * bytes : bytes; }

/// Bytes one read kernel requests: the peer's buffer, plus one 4-byte partial per block (a
/// bidir row adds both GPUs' kernels).
constexpr std::uint64_t peer_read_bytes(std::uint64_t bytes, std::uint64_t blocks) { return bytes + 4 * blocks; }

/// Bytes one write kernel stores into the other GPU's memory: the buffer.
constexpr std::uint64_t peer_write_bytes(std::uint64_t bytes) { return bytes; }

/// Bytes an aggregate moves per launch: one buffer to or from each of `peers` GPUs.
constexpr std::uint64_t peer_aggregate_bytes(std::uint64_t bytes, std::uint64_t peers) { return peers * bytes; }

/// Device memory one GPU of a row needs: a source and `destinations` destinations.
constexpr std::uint64_t peer_device_bytes(std::uint64_t bytes, std::uint64_t destinations = 1) {
  return (1 + destinations) * bytes;
}

/// The seed of device `device`'s source buffer: a different pattern on every GPU, so that a
/// copy from the wrong GPU (or in the wrong direction) shows.
MEMBENCH_HD constexpr std::uint32_t peer_seed(int device) { return 0xD0D0u + 0x0101u * static_cast<std::uint32_t>(device); }

/// Word i of device `device`'s source buffer.
MEMBENCH_HD std::uint32_t peer_word(int device, std::uint64_t i) { return pattern_word(i, peer_seed(device)); }

/// Word i that a write kernel on `device` stores into the other GPU's memory: one multiply,
/// so that the kernel stays bound by the link, not by its arithmetic.
MEMBENCH_HD std::uint32_t peer_write_word(int device, std::uint64_t i) {
  return static_cast<std::uint32_t>(i) * 0x9E3779B1u ^ peer_seed(device);
}

}  // namespace membench::peer
