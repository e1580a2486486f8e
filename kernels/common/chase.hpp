// Pointer-chase chains: the layout, the random cycle and its host walk, shared by the
// latency families of global memory, shared memory and the constant cache.
//
// A chain of `nodes` nodes over a span: node i sits at byte chase_node_offset(i, spacing)
// and holds where its successor sits. The successors form one random cycle through every
// node (Sattolo's algorithm), so each load's address is the previous load's value, the
// order defeats prefetching, and a walk visits every node before it repeats one.
#pragma once

#include <cstdint>
#include <vector>

#include "hd.hpp"

namespace membench {

inline constexpr std::uint64_t chase_line_bytes = 128;  ///< the smallest spacing: one node per cache line
inline constexpr std::uint32_t chase_seed = 0x5eed1234u;

/// Byte offset of node i. With a spacing larger than a line (page strides), node i also
/// moves i lines into its own stretch, so that the nodes do not all fall in the same cache
/// set while each still sits in its own page.
MEMBENCH_HD std::uint64_t chase_node_offset(std::uint64_t i, std::uint64_t spacing) {
  return i * spacing + (spacing > chase_line_bytes ? (i * chase_line_bytes) % spacing : 0);
}

/// Nodes of a chain over `span_bytes` with `spacing` between nodes (at least one).
constexpr std::uint64_t chase_nodes(std::uint64_t span_bytes, std::uint64_t spacing) {
  return span_bytes / spacing > 0 ? span_bytes / spacing : 1;
}

/// succ[i]: the node after node i, one random cycle through all `nodes` (Sattolo), from a
/// small deterministic generator so that host and tests agree for a seed.
inline std::vector<std::uint32_t> chase_successors(std::uint32_t nodes, std::uint32_t seed = chase_seed) {
  std::vector<std::uint32_t> order(nodes);
  for (std::uint32_t i = 0; i < nodes; ++i) order[i] = i;
  std::uint64_t state = 0x9e3779b97f4a7c15ULL ^ seed;
  auto next = [&state] {  // splitmix64
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  for (std::uint32_t i = nodes; i > 1; --i) {  // Sattolo: j < i - 1 gives a single cycle
    const auto j = static_cast<std::uint32_t>(next() % (i - 1));
    const std::uint32_t t = order[i - 1];
    order[i - 1] = order[j];
    order[j] = t;
  }
  std::vector<std::uint32_t> succ(nodes);
  for (std::uint32_t k = 0; k < nodes; ++k) succ[order[k]] = order[(k + 1) % nodes];
  return succ;
}

/// The node reached from `start` after `steps` dependent loads.
inline std::uint32_t chase_walk(const std::vector<std::uint32_t>& succ, std::uint32_t start, std::uint64_t steps) {
  std::uint32_t j = start;
  for (std::uint64_t k = 0; k < steps; ++k) j = succ[j];
  return j;
}

/// What node i holds: the address of its successor, `base` plus the successor's offset.
MEMBENCH_HD std::uint64_t chase_link(std::uint64_t base, const std::uint32_t* succ, std::uint64_t i,
                                     std::uint64_t spacing) {
  return base + chase_node_offset(succ[i], spacing);
}

/// Timed dependent loads per launch: enough that the two clock reads and the launch are a
/// small part, few enough that a DRAM-latency launch stays in milliseconds.
inline constexpr std::uint32_t chase_timed_steps = 8192;

/// Chains longer than this are timed in launches of chase_timed_steps (a set larger than
/// every cache misses the same everywhere along its chain); see chase_steps_per_launch.
inline constexpr std::uint64_t chase_whole_cycle_nodes = std::uint64_t{1} << 20;

/// Timed steps per launch for a chain of `nodes`: chase_timed_steps, or whole cycles for a
/// chain longer than that up to chase_whole_cycle_nodes. Where a set just overflows a
/// cache, the latency depends on the position along the chain (an H100's 24 MiB chain read
/// 1335 us and 1465 us per 8192 steps, alternating every half cycle): each launch must then
/// time every node, or its samples follow the position rather than scatter about one value.
constexpr std::uint64_t chase_steps_per_launch(std::uint64_t nodes) {
  if (nodes <= chase_timed_steps || nodes > chase_whole_cycle_nodes) return chase_timed_steps;
  return nodes % 8 == 0 ? nodes : 8 * nodes;  // the kernels unroll by 8
}

/// How many times the usual sampling budget a chain's row gets. A launch that times whole
/// cycles of a chain at a cache's edge takes 10-100 ms and scatters by up to 6 % from launch
/// to launch (the cache's state moves between full passes): at the usual budget it keeps
/// about 15 samples, too few to place the median within 0.5 %; sixteen times that keeps
/// about 100-250. Rows that converge stop early, so only such rows spend it.
constexpr double chase_budget_scale(std::uint64_t nodes) { return chase_steps_per_launch(nodes) > chase_timed_steps ? 16 : 1; }

/// Steps of the untimed pass that brings a chain into the caches before its row is timed:
/// the whole cycle when it is short enough to matter (a chain larger than every cache
/// misses in steady state however it was primed), else none.
constexpr std::uint64_t chase_prime_steps(std::uint64_t nodes) { return nodes <= chase_whole_cycle_nodes ? nodes : 0; }

/// Untimed steps at the start of every launch: the whole cycle when an L1 could hold it (the
/// L1 starts empty at each launch; the L2 and TLBs keep their contents), else none.
constexpr std::uint64_t chase_launch_warm_steps(std::uint64_t nodes) { return nodes <= 4096 ? (nodes + 7) / 8 * 8 : 0; }

/// Steps of one walk of a cycle of `nodes` nodes, rounded up to the kernels' unroll (8): the
/// untimed walk of a chain that each launch builds or walks from node 0 itself.
constexpr std::uint64_t chase_cycle_steps(std::uint64_t nodes) { return (nodes + 7) / 8 * 8; }

/// Bytes a launch loads: one pointer-sized word per step.
constexpr std::uint64_t chase_bytes(std::uint64_t steps, std::uint64_t word_bytes) { return steps * word_bytes; }

}  // namespace membench
