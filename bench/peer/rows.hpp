// The rows of the peer families for a set of ordered GPU pairs (--peers): their names, their
// tiers and what each measures. Plain host code, so the rows a host of N GPUs gets are tested
// without a GPU; the family files only attach how each runs.
//
// Per ordered pair (src, dst), 1 MiB, 64 MiB and (full tier) 1 GiB:
//   peer/copy/access:on|off/dir:push|pull|bidir/src:I/dst:J/bytes:S   copy engines
//   peer/sm/op:read|write/dir:uni|bidir/src:I/dst:J/bytes:S           kernels, access on
//   peer/latency/src:I/dst:J/bytes:S                                  1 MiB and 1 GiB chains
// Per GPU with at least two partners among the pairs (with one it would be the push row):
//   peer/all_to_one/access:on/dst:J/bytes:S   every src paired with J copies to J at once
//   peer/one_to_all/access:on/src:I/bytes:S   I copies to every dst paired with it at once
// Tiers: quick has, per pair, the 64 MiB push, pull and bidir with access on, the 64 MiB
// read and the 1 MiB chase (5 rows: a 4-GPU host's 12 pairs make 60); the default tier every
// row at 1 MiB and 64 MiB and both chases; full adds 1 GiB.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/naming.hpp"
#include "harness/options/options.hpp"
#include "harness/options/peers.hpp"
#include "kernels/peer/p2p.hpp"

namespace membench::peer {

enum class row_kind { copy, sm, latency, all_to_one, one_to_all };

/// One row: its name keys, its tier, and what it measures.
struct peer_row {
  row_kind kind = row_kind::copy;
  std::vector<name_param> params;
  suite_tier tier = suite_tier::full;
  peer_pair pair;           ///< copy, sm, latency
  int hub = -1;             ///< all_to_one: its dst; one_to_all: its src
  std::vector<int> others;  ///< the aggregate's GPUs at the other end, ascending
  bool access = true;
  copy_dir copy = copy_dir::push;
  sm_op op = sm_op::read;
  sm_dir dir = sm_dir::uni;
  std::uint64_t bytes = 0;
};

inline constexpr std::uint64_t quick_bytes = peer_sizes[1];

inline constexpr suite_tier size_tier(std::uint64_t bytes, bool headline) {
  if (bytes == peer_sizes.back()) return suite_tier::full;
  return bytes == quick_bytes && headline ? suite_tier::quick : suite_tier::standard;
}

inline std::vector<name_param> pair_params(std::vector<name_param> lead, peer_pair p, std::uint64_t bytes) {
  lead.push_back({"src", std::to_string(p.src)});
  lead.push_back({"dst", std::to_string(p.dst)});
  lead.push_back({"bytes", format_size(bytes)});
  return lead;
}

/// The GPUs paired with `hub` as the other end: sources when `hub` is the dst, else destinations.
inline std::vector<int> partners(const std::vector<peer_pair>& pairs, int hub, bool hub_is_dst) {
  std::vector<int> out;
  for (const auto& p : pairs) {
    if ((hub_is_dst ? p.dst : p.src) == hub) out.push_back(hub_is_dst ? p.src : p.dst);
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline void add_copy_rows(std::vector<peer_row>& out, peer_pair p, std::uint64_t bytes) {
  for (bool access : {true, false}) {
    for (copy_dir d : all_copy_dirs) {
      peer_row r;
      r.kind = row_kind::copy;
      r.params = pair_params({{"access", access_token(access)}, {"dir", to_string(d)}}, p, bytes);
      r.tier = size_tier(bytes, access);
      r.pair = p;
      r.access = access;
      r.copy = d;
      r.bytes = bytes;
      out.push_back(std::move(r));
    }
  }
}

inline void add_sm_rows(std::vector<peer_row>& out, peer_pair p, std::uint64_t bytes) {
  for (sm_op op : all_sm_ops) {
    for (sm_dir d : all_sm_dirs) {
      peer_row r;
      r.kind = row_kind::sm;
      r.params = pair_params({{"op", to_string(op)}, {"dir", to_string(d)}}, p, bytes);
      r.tier = size_tier(bytes, op == sm_op::read && d == sm_dir::uni);
      r.pair = p;
      r.op = op;
      r.dir = d;
      r.bytes = bytes;
      out.push_back(std::move(r));
    }
  }
}

inline void add_aggregate_rows(std::vector<peer_row>& out, row_kind kind, const std::vector<peer_pair>& pairs,
                               std::uint64_t bytes) {
  const bool to_hub = kind == row_kind::all_to_one;
  for (int hub : peer_devices(pairs)) {
    std::vector<int> others = partners(pairs, hub, to_hub);
    if (others.size() < 2) continue;  // one partner: the push row already measures it
    peer_row r;
    r.kind = kind;
    r.params = {{"access", access_token(true)}, {to_hub ? "dst" : "src", std::to_string(hub)}, {"bytes", format_size(bytes)}};
    r.tier = size_tier(bytes, false);
    r.hub = hub;
    r.others = std::move(others);
    r.bytes = bytes;
    out.push_back(std::move(r));
  }
}

/// The rows of `family` ("peer/copy", ...) for `pairs` (sorted, as resolve_peers gives them),
/// sizes outermost so that the rows sharing buffers run back to back. Every tier's rows: the
/// caller keeps those of its tier.
inline std::vector<peer_row> peer_rows(std::string_view family, const std::vector<peer_pair>& pairs) {
  std::vector<peer_row> out;
  if (family == "peer/latency") {
    for (std::uint64_t bytes : peer_chase_sizes) {
      for (const auto& p : pairs) {
        peer_row r;
        r.kind = row_kind::latency;
        r.params = pair_params({}, p, bytes);
        r.tier = bytes == peer_chase_sizes.front() ? suite_tier::quick : suite_tier::standard;
        r.pair = p;
        r.bytes = bytes;
        out.push_back(std::move(r));
      }
    }
    return out;
  }
  for (std::uint64_t bytes : peer_sizes) {
    if (family == "peer/all_to_one") add_aggregate_rows(out, row_kind::all_to_one, pairs, bytes);
    if (family == "peer/one_to_all") add_aggregate_rows(out, row_kind::one_to_all, pairs, bytes);
    for (const auto& p : pairs) {
      if (family == "peer/copy") add_copy_rows(out, p, bytes);
      if (family == "peer/sm") add_sm_rows(out, p, bytes);
    }
  }
  return out;
}

}  // namespace membench::peer
