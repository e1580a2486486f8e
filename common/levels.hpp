// The levels of the memory hierarchy, in one place: each level's key, the name every output
// gives it, and the rows that measure it. membench's check tier (--suite=check) is exactly
// these rows, and they are in every larger tier; fleet --by=level judges a GPU per level on
// them; the profile page names its figures by the same titles. A row is named as membench
// names it without `/manual_time`, and a peer row without its `src:` and `dst:` keys (the
// level row of every pair of GPUs).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace membench::levels {

/// What a level row's time stands for.
enum class measure : unsigned char { latency, bandwidth, clock };
const char* to_string(measure m) noexcept;  ///< "latency", "bandwidth", "clock"

struct level {
  std::string_view key;    ///< `l2_far`: the token in names, files and metrics
  std::string_view title;  ///< `L2 far`: what tables, pages and drain reasons say
  bool host_link;          ///< its rows cross the host link: one GPU of a host at a time
};

struct level_row {
  std::string_view level;  ///< a key of level_table
  measure what;
  std::string_view row;
};

inline constexpr level level_table[] = {
    {"l1", "L1", false},
    {"shared", "shared", false},
    {"l2_near", "L2 near", false},
    {"l2_far", "L2 far", false},
    {"dram", "DRAM", false},
    {"constant", "constant cache", false},
    {"dsm", "DSM (another SM)", false},
    {"sm_clock", "SM clock under load", false},
    {"pcie_h2d", "PCIe h2d (pinned)", true},
    {"pcie_d2h", "PCIe d2h (pinned)", true},
    {"peer", "peer", false},
};

// Why these rows: each is its family's headline at a size that sits in the level on every
// Hopper part (L2 near below a quarter of a 50 MiB L2, far from 32 MiB up, DRAM at 1 GiB),
// converges in under a second, and checks its output like every row.
inline constexpr level_row row_table[] = {
    {"l1", measure::latency, "global/latency/load:plain/spacing:128/bytes:16K"},
    {"l1", measure::bandwidth, "cache/l1_bandwidth/width:16/bytes:64K"},
    {"shared", measure::latency, "shared/latency/bytes:16K"},
    {"shared", measure::bandwidth, "shared/bandwidth/width:16"},
    {"l2_near", measure::latency, "global/latency/load:plain/spacing:128/bytes:4M"},
    {"l2_near", measure::bandwidth, "cache/l2_bandwidth/bytes:8M"},
    {"l2_far", measure::latency, "global/latency/load:plain/spacing:128/bytes:32M"},
    {"l2_far", measure::bandwidth, "cache/l2_bandwidth/bytes:32M"},
    {"dram", measure::latency, "global/latency/load:plain/spacing:128/bytes:1G"},
    {"dram", measure::bandwidth, "global/read/width:16/unroll:8/block:512/style:gridstride/l2:cold/bytes:1G"},
    {"dram", measure::bandwidth, "global/write/width:16/unroll:8/block:512/style:gridstride/l2:cold/bytes:1G"},
    {"dram", measure::bandwidth, "global/copy/width:16/unroll:8/block:512/style:gridstride/l2:cold/bytes:1G"},
    {"constant", measure::latency, "cache/constant_latency/bytes:1K"},
    {"constant", measure::bandwidth, "cache/constant/pattern:uniform/load:constant/bytes:1K"},
    {"dsm", measure::latency, "cluster/dsm_latency/cluster:2/target:remote"},
    {"dsm", measure::bandwidth, "cluster/dsm_bandwidth/cluster:2"},
    {"sm_clock", measure::clock, "compute/matmul/variant:regtile/n:1024"},
    {"pcie_h2d", measure::bandwidth, "host/copy/dir:h2d/host:pinned/api:memcpy_async/bytes:16M"},
    {"pcie_d2h", measure::bandwidth, "host/copy/dir:d2h/host:pinned/api:memcpy_async/bytes:16M"},
    {"peer", measure::bandwidth, "peer/copy/access:on/dir:push/bytes:64M"},
    {"peer", measure::latency, "peer/latency/bytes:1M"},
};

std::span<const level> all() noexcept;
std::span<const level_row> rows() noexcept;
/// A level by its key; null when no level has it.
const level* find(std::string_view key) noexcept;
/// A benchmark's name as the level table writes it: no `/manual_time` (or other Google
/// Benchmark suffix after the last key:value token), no `src:` or `dst:` token.
std::string row_shape(std::string_view name);
/// The level row a benchmark is, by row_shape; null for a row of no level.
const level_row* row_of(std::string_view name);

}  // namespace membench::levels
