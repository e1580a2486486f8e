// P1: latency across the link, for every ordered pair --peers chose. One thread on dst chases
// pointers through a chain in src's memory (peer access on): a random cycle of nodes one cache
// line apart, so each load's address is the previous load's value and no prefetcher can guess
// it (the chase of global/latency, kernels/global/latency.cuh, with the chain on the other GPU).
// Measured: clock64 around the timed loads on dst (cycles_per_load), and that at dst's measured
// SM clock (ns_per_load). The chain goes on from launch to launch and is walked once before
// the row is timed (harness/family/chain.hpp), so each row is the steady state of its chain.
// Expected: 1 MiB stays in src's L2 (the link's round trip and src's L2); 1 GiB misses it
// (src's DRAM and TLB misses on top): each a few times a local load's latency.
// Bytes per launch: chase_bytes (8 bytes per timed load; the row time is a latency, not a
// rate). Counters: the link's ceiling (link_gb_per_s, link_nvlinks: which path the loads
// take), no pct_of_link.
// Tiers (peer/rows.hpp): quick has the 1 MiB chain, the default tier both.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "harness/family/chain.hpp"
#include "harness/family/family.hpp"
#include "kernels/common/chase.cuh"
#include "kernels/common/types.hpp"
#include "kernels/global/latency.cuh"
#include "peer/rows.hpp"
#include "peer/setup.hpp"

namespace membench::peer {
namespace {

constexpr unsigned build_block = 256;

// The chain on src, where it stands (and its clock ticks) on dst: each buffer is freed with
// its own device current.
struct peer_chain {
  int src = 0, dst = 0;
  global_chain<global::chase_state> chain;

  peer_chain() = default;
  peer_chain(peer_chain&&) = default;
  peer_chain& operator=(peer_chain&&) = delete;
  ~peer_chain() {
    int previous = 0;
    if (cudaGetDevice(&previous) != cudaSuccess) return;
    if (cudaSetDevice(src) == cudaSuccess) chain.chain.reset();
    if (cudaSetDevice(dst) == cudaSuccess) chain.state.reset();
    MEMBENCH_CUDA_LOG(cudaSetDevice(previous));
  }
};

/// Made with dst current: the state there, the chain built on src by src's own stream.
/// throws infeasible (src's memory), cuda_error
peer_chain make_peer_chain(bench_context& ctx, peer_pair p, std::uint64_t span) {
  const std::uint64_t nodes = chase_nodes(span, chase_line_bytes);
  peer_chain w;
  w.src = p.src;
  w.dst = p.dst;
  w.chain.succ = chase_successors(static_cast<std::uint32_t>(nodes));
  w.chain.state = device_buffer<global::chase_state>(1);
  require_bytes_on(ctx, p.src, span + nodes * sizeof(std::uint32_t));
  const device_scope on(p.src);
  w.chain.chain = device_buffer<std::uint64_t>(span / sizeof(std::uint64_t));
  device_buffer<std::uint32_t> succ(nodes);
  membench::stream st;
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(succ.data(), w.chain.succ.data(), nodes * sizeof(std::uint32_t),
                                      cudaMemcpyHostToDevice, st.get()));
  const auto grid = static_cast<unsigned>(blocks_for(nodes, build_block));
  chase_build_kernel<><<<grid, build_block, 0, st.get()>>>(w.chain.chain.data(), succ.data(), nodes, chase_line_bytes);
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  st.synchronize();  // before succ is freed
  return w;
}

void run_latency(bench_context& ctx, const peer_row& r) {
  const peer_pair p = r.pair;
  require_devices({p.src, p.dst});
  require_peer_access(p.src, p.dst);
  ctx.move_to(p.dst);  // the chasing thread runs on dst
  const std::uint64_t nodes = chase_nodes(r.bytes, chase_line_bytes);
  auto& ws = ctx.workspace<peer_chain>({"src", "dst", "bytes"}, [&] { return make_peer_chain(ctx, p, r.bytes); });
  const peer_access_scope scope(p.src, {p.dst}, true);
  global::chase_state* state = ws.chain.state.data();
  auto chase = [state](std::uint64_t warm, std::uint64_t steps, cudaStream_t s) {
    global::global_chase_kernel<false><<<1, 1, 0, s>>>(state, warm, steps);
  };
  time_resumed_chase(ctx, resumed_chase_row(nodes, sizeof(std::uint64_t), chase), ws.chain, chase_line_bytes,
                     [state](std::uint64_t position, cudaStream_t s) { chase_reset_kernel<<<1, 1, 0, s>>>(state, position); });
  set_pair_counters(ctx, p);
  set_link_counters(ctx, ceiling_between(ctx, p.src, p.dst, false), 1, false);
}

void make_cases(family_builder& f) {
  for (const peer_row& r : peer_rows(f.family(), f.peers())) {
    f.add(r.params, r.tier, [r](bench_context& ctx) { run_latency(ctx, r); });
  }
}

const family_registrar latency_family{"peer/latency", &make_cases,
    "the latency across the link between each ordered pair of GPUs", family_needs::two_gpus};

}  // namespace
}  // namespace membench::peer
