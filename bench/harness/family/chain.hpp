// A pointer chase through a chain in global memory that goes on from launch to launch (its
// position kept on the device beside the last launch's clock ticks): global/latency and
// async/bulk_latency, which differ only in how a step loads the next node.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <cuda_runtime_api.h>

#include "harness/core/check.hpp"
#include "harness/core/resources.hpp"
#include "harness/family/latency.hpp"
#include "harness/session/context.hpp"
#include "kernels/common/chase.hpp"

namespace membench {

/// The chain's nodes, where it stands (State: {position, cycles}, position first) and its
/// successors on the host. One type per State, so that two families never share one.
template <class State>
struct global_chain {
  device_buffer<std::uint64_t> chain;
  device_buffer<State> state;
  std::vector<std::uint32_t> succ;
};

/// Lays out the chain's nodes on the stream it is given, from the successors on the device.
using chain_build_fn = std::function<void(std::uint64_t* chain, const std::uint32_t* succ, cudaStream_t)>;

/// A chain over `span` bytes, nodes `spacing` apart, laid out by `build`: for a workspace's
/// make(). throws infeasible (too large), cuda_error
template <class State>
global_chain<State> make_global_chain(bench_context& ctx, std::uint64_t span, std::uint64_t spacing,
                                      const chain_build_fn& build) {
  const std::uint64_t nodes = chase_nodes(span, spacing);
  ctx.require_device_bytes(span + nodes * sizeof(std::uint32_t));
  global_chain<State> w{device_buffer<std::uint64_t>(span / sizeof(std::uint64_t)), device_buffer<State>(1),
                        chase_successors(static_cast<std::uint32_t>(nodes))};
  device_buffer<std::uint32_t> succ(nodes);
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(succ.data(), w.succ.data(), nodes * sizeof(std::uint32_t),
                                      cudaMemcpyHostToDevice, ctx.stream()));
  build(w.chain.data(), succ.data(), ctx.stream());
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));  // before succ is freed
  return w;
}

/// Launches `warm` untimed and then `steps` timed dependent loads (multiples of 8) of a chain
/// that goes on from launch to launch (its position kept on the device).
using chase_fn = std::function<void(std::uint64_t warm, std::uint64_t steps, cudaStream_t)>;

/// The row of such a chain: each launch walks chase_launch_warm_steps(nodes) untimed and times
/// chase_steps_per_launch(nodes); the prime walks the whole cycle once (when it is short
/// enough to stay in a cache) so that the timed launches see its steady state.
inline chase_row resumed_chase_row(std::uint64_t nodes, std::uint64_t word_bytes, chase_fn chase) {
  const std::uint64_t warm = chase_launch_warm_steps(nodes);
  const std::uint64_t timed = chase_steps_per_launch(nodes);
  auto launch = [chase, warm, timed](cudaStream_t s) { chase(warm, timed, s); };
  auto prime = [chase, nodes](cudaStream_t s) {
    if (const std::uint64_t steps = chase_prime_steps(nodes); steps > 0) chase(0, chase_cycle_steps(steps), s);
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
  };
  return {nodes, timed, word_bytes, std::move(launch), std::move(prime)};
}

/// Points the chain's state at `position` and clears its clock ticks (before the check).
using chain_reset_fn = std::function<void(std::uint64_t position, cudaStream_t)>;

/// Starts the chain at node 0, walks it to its steady state, and times `row` (time_chase),
/// checking the node a launch from node 0 reaches against the host walk. throws cuda_error,
/// verification_error
template <class State>
void time_resumed_chase(bench_context& ctx, const chase_row& row, const global_chain<State>& ws, std::uint64_t spacing,
                        const chain_reset_fn& reset) {
  const auto base = reinterpret_cast<std::uint64_t>(ws.chain.data());
  const launch_fn restart = [reset, start = base + chase_node_offset(0, spacing)](cudaStream_t s) { reset(start, s); };
  restart(ctx.stream());
  row.prime(ctx.stream());
  const std::uint64_t walked = chase_walk(ws.succ, 0, chase_launch_warm_steps(row.nodes) + row.timed_steps);
  const std::uint64_t expected = base + chase_node_offset(walked, spacing);
  const auto* position = reinterpret_cast<const std::uint64_t*>(ws.state.data());
  time_chase(ctx, row, chain_position_check(ctx, position, expected, restart), ws.state.data());
}

}  // namespace membench
