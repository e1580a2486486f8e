// B5 L2 persistence: one launch reads a hot set `passes` times and a streaming set once,
// interleaved in 32 KiB chunks, so that between two reads of a hot line a whole pass of the
// streaming set (128 MiB) goes through the L2. The host part: the shape, the item map, the
// window's parameters, the reference sums and the bytes formula.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"
#include "../common/types.hpp"

namespace membench::global {

inline constexpr unsigned l2_persist_block = 256;
/// 16-byte loads per thread per chunk: 8 independent loads in flight per thread.
inline constexpr unsigned l2_persist_loads = 8;
inline constexpr std::uint32_t l2_persist_chunk_elems = l2_persist_block * l2_persist_loads;
inline constexpr std::uint64_t l2_persist_chunk_bytes = l2_persist_chunk_elems * sizeof(word16);  // 32 KiB
/// Read once per launch; a pass's share (1 GiB / 8 = 128 MiB) is over twice the H100's and
/// the H200's L2 (50, 60 MiB), so without a window it evicts the hot set between passes.
inline constexpr std::uint64_t l2_persist_stream_bytes = std::uint64_t{1} << 30;
inline constexpr std::uint32_t l2_persist_passes = 8;
/// The largest hot set of the grid: the hot buffer's size.
inline constexpr std::uint64_t l2_persist_max_hot_bytes = std::uint64_t{64} << 20;
inline constexpr std::uint32_t l2_persist_hot_seed = 51;
inline constexpr std::uint32_t l2_persist_stream_seed = 52;

/// One launch's work in chunks; item k of the launch is chunk l2_persist_item_at(s, k).
struct l2_persist_shape {
  std::uint32_t hot_chunks = 0;     ///< h: the hot set, read once per pass
  std::uint32_t stream_chunks = 0;  ///< s: the streaming set's chunks per pass
  std::uint32_t passes = 0;
  MEMBENCH_HD std::uint32_t per_pass() const { return hot_chunks + stream_chunks; }
  MEMBENCH_HD std::uint32_t items() const { return passes * per_pass(); }
};

/// Shape for a hot set of `hot_bytes` (0: the streaming set alone) and a streaming set of
/// `stream_bytes`, split over `passes`. The device's index math is 32-bit: items and
/// per_pass * hot_chunks stay below 2^32, elements below 2^32. throws std::invalid_argument
inline l2_persist_shape make_l2_persist_shape(std::uint64_t hot_bytes, std::uint64_t stream_bytes, std::uint32_t passes) {
  if (passes == 0 || hot_bytes % l2_persist_chunk_bytes != 0 || stream_bytes % (passes * l2_persist_chunk_bytes) != 0 ||
      stream_bytes == 0)
    throw std::invalid_argument("l2_persist: the hot set (" + std::to_string(hot_bytes) + " bytes) and one pass of the "
                                "streaming set (" + std::to_string(stream_bytes) + " / " + std::to_string(passes) +
                                ") must be whole 32 KiB chunks");
  const std::uint64_t h = hot_bytes / l2_persist_chunk_bytes, s = stream_bytes / (passes * l2_persist_chunk_bytes);
  const std::uint64_t limit = std::uint64_t{1} << 32;
  if ((h + s) * std::max<std::uint64_t>(h, passes) >= limit ||
      std::max(hot_bytes, stream_bytes) / sizeof(word16) >= limit)
    throw std::invalid_argument("l2_persist: shape too large for 32-bit index math");
  return {static_cast<std::uint32_t>(h), static_cast<std::uint32_t>(s), passes};
}

/// A chunk of the hot buffer (`hot`) or of the streaming buffer.
struct l2_persist_item {
  bool hot = false;
  std::uint32_t chunk = 0;
};

/// Item k (< items) of a launch. Within a pass of n = h + s items, the h hot chunks are
/// spread evenly among the streaming ones (Bresenham): item j is hot when
/// floor((j+1)h/n) > floor(jh/n), and is then hot chunk floor(jh/n); a streaming item is
/// the next unread streaming chunk. Every pass reads each hot chunk once, in order, and
/// the next s streaming chunks.
MEMBENCH_HD l2_persist_item l2_persist_item_at(const l2_persist_shape& s, std::uint32_t k) {
  const std::uint32_t n = s.per_pass();
  const std::uint32_t pass = k / n, j = k - pass * n;
  const std::uint32_t jh = j * s.hot_chunks;
  const std::uint32_t before = jh / n;  // hot items in [0, j) of this pass
  const std::uint32_t rem = jh - before * n;
  if (rem + s.hot_chunks >= n) return {true, before};  // never with h = 0: rem < n
  return {false, pass * s.stream_chunks + (j - before)};
}

/// Element `load` of thread `t` in chunk `chunk`: each load of a block is 4 KiB contiguous.
MEMBENCH_HD std::uint32_t l2_persist_index(std::uint32_t chunk, std::uint32_t load, std::uint32_t t) {
  return chunk * l2_persist_chunk_elems + load * l2_persist_block + t;
}

MEMBENCH_HD word16 l2_persist_value(std::uint64_t idx, std::uint32_t seed) {
  return word16{pattern_word(4 * idx, seed), pattern_word(4 * idx + 1, seed), pattern_word(4 * idx + 2, seed),
                pattern_word(4 * idx + 3, seed)};
}

MEMBENCH_HD std::uint32_t l2_persist_fold(const word16& v) { return v.x + v.y + v.z + v.w; }

/// What a block adds up over one chunk of the buffer filled with `seed` (mod 2^32).
inline std::uint32_t l2_persist_chunk_sum(std::uint32_t seed, std::uint32_t chunk) {
  std::uint32_t acc = 0;
  for (std::uint32_t e = 0; e < l2_persist_chunk_elems; ++e)
    acc += l2_persist_fold(l2_persist_value(std::uint64_t{chunk} * l2_persist_chunk_elems + e, seed));
  return acc;
}

/// Host reference: block b of a `blocks`-block grid-stride launch reads items b, b + blocks,
/// ...; its checksum is the sum of those chunks' sums (`hot_sums`, `stream_sums`: per chunk,
/// from l2_persist_chunk_sum; at least h and passes * s of them).
inline std::vector<std::uint32_t> l2_persist_block_sums(const l2_persist_shape& s, std::uint32_t blocks,
                                                        const std::vector<std::uint32_t>& hot_sums,
                                                        const std::vector<std::uint32_t>& stream_sums) {
  std::vector<std::uint32_t> out(blocks, 0);
  for (std::uint32_t k = 0; k < s.items(); ++k) {
    const l2_persist_item it = l2_persist_item_at(s, k);
    out[k % blocks] += it.hot ? hot_sums.at(it.chunk) : stream_sums.at(it.chunk);
  }
  return out;
}

/// Bytes per launch: every item is one chunk (passes x (hot + one pass of the streaming
/// set) = stream + passes x hot), plus the 4-byte checksum each block writes.
constexpr std::uint64_t l2_persist_bytes(std::uint64_t hot_bytes, std::uint64_t stream_bytes, std::uint32_t passes,
                                         std::uint64_t blocks) {
  return stream_bytes + std::uint64_t{passes} * hot_bytes + 4 * blocks;
}

/// The set-aside a row asks for: the hot set, at most what the device allows.
constexpr std::uint64_t l2_persist_setaside_request(std::uint64_t hot_bytes, std::uint64_t max_setaside) {
  return std::min(hot_bytes, max_setaside);
}

/// The window's hitRatio: the share of the hot set that fits the granted set-aside, so that
/// the lines marked persisting do not evict each other (0 for no hot set).
constexpr float l2_persist_hit_ratio(std::uint64_t granted, std::uint64_t hot_bytes) {
  if (hot_bytes == 0) return 0.0f;
  return granted >= hot_bytes ? 1.0f : static_cast<float>(static_cast<double>(granted) / static_cast<double>(hot_bytes));
}

}  // namespace membench::global
