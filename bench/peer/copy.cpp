// P1: copy engines between GPUs (The CUDA Handbook 5.2.7, 9.2), for every ordered pair --peers
// chose: data flows from `src` to `dst` (CUDA device ordinals). peer/copy: cudaMemcpyPeerAsync
// of 1 MiB, 64 MiB and 1 GiB with peer access on (cudaDeviceEnablePeerAccess both ways: the
// copy engines move the data over NVLink or PCIe directly) and off (the driver stages the copy
// through host memory); `push` is issued on src's stream, `pull` on dst's, `bidir` runs src to
// dst on src's stream and dst to src on dst's at once. peer/all_to_one: every GPU paired with
// `dst` pushes its buffer to it at once; peer/one_to_all: `src` pushes its buffer to every GPU
// paired with it at once, from a stream of its own per destination.
//
// Expected: with access on, copies run at the link's rate (NVLink: hundreds of GB/s per
// direction, about twice that bidirectional; PCIe: its per-direction rate), push and pull
// alike; with access off, what two PCIe hops through host memory allow. The aggregates run at
// the common end's links (an NVSwitch GPU: its links once, whatever the peers). 1 MiB is
// latency bound.
// Timing: the row moves to the GPU that issues its work (src, or dst for pull; an aggregate's
// common end) and times with plain events on its stream (copy engines: fallback:copy_engine);
// the other GPUs' streams join that stream through events inside each launch.
// Bytes per launch: peer_copy_bytes (the buffer; bidir twice), peer_aggregate_bytes (the
// buffer times the GPUs at the other end). Ceilings: link_gb_per_s from NVML (setup.hpp).
// Verification: every destination is poisoned, copied once and compared word by word with the
// source's pattern (each GPU's source holds its own).
// Tiers (peer/rows.hpp): quick has the 64 MiB push, pull and bidir with access on; the default
// tier 1 MiB and 64 MiB; 1 GiB (the sustained rate) is in the full tier only.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "harness/family/family.hpp"
#include "peer/rows.hpp"
#include "peer/setup.hpp"

namespace membench::peer {
namespace {

struct copy_sides : peer_sides {};
struct aggregate_sides : peer_sides {};

/// Compares a destination on `side`'s GPU with the pattern of `source`'s buffer.
void verify_copy(bench_context& ctx, device_side& side, const std::uint32_t* dst, int source, const char* what) {
  verify_device_array(ctx.reader(side.st.get()), dst, side.words, [source](std::size_t i) { return peer_word(source, i); },
                      what);
}

void time_copies(bench_context& ctx, std::uint64_t bytes, const launch_fn& launch) {
  launch_options opt;
  opt.l2 = l2_state::warm;  // copy engines: no SM cache state to set
  opt.copy_engine = true;
  opt.report_pct_peak = false;  // pct_of_link instead
  ctx.time_launches(opt, bytes, launch);
}

void run_copy(bench_context& ctx, const peer_row& r) {
  const peer_pair p = r.pair;
  require_devices({p.src, p.dst});
  if (r.access) require_peer_access(p.src, p.dst);
  ctx.move_to(r.copy == copy_dir::pull ? p.dst : p.src);
  auto& ws = sides_for<copy_sides>(ctx, {p.src, p.dst}, r.bytes, {});
  device_side& s = ws[0];
  device_side& d = ws[1];
  const peer_access_scope scope(p.src, {p.dst}, r.access);
  const std::uint64_t bytes = r.bytes;
  std::uint32_t* at_dst = d.dst[0].data();
  std::uint32_t* at_src = s.dst[0].data();
  const std::uint32_t* from_src = s.src.data();
  const std::uint32_t* from_dst = d.src.data();
  auto forward = [=](cudaStream_t st) { MEMBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(at_dst, p.dst, from_src, p.src, bytes, st)); };
  auto back = [=](cudaStream_t st) { MEMBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(at_src, p.src, from_dst, p.dst, bytes, st)); };
  const bool both = r.copy == copy_dir::bidir;
  const event fork;  // of the row's device, current since move_to
  const std::vector<piece> pieces{{p.dst, d.st.get(), d.done.get(), back}};
  const launch_fn launch = [&](cudaStream_t st) {
    if (both) {
      run_pieces(st, fork.get(), pieces, forward);
    } else {
      forward(st);
    }
  };
  ctx.verify_once([&] {
    poison(p.dst, at_dst, d.words, d.st.get());
    if (both) poison(p.src, at_src, s.words, s.st.get());
    launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    verify_copy(ctx, d, at_dst, p.src, "dst's copy of src's buffer");
    if (both) verify_copy(ctx, s, at_src, p.dst, "src's copy of dst's buffer (bidir)");
  });
  time_copies(ctx, peer_copy_bytes(r.copy, bytes), launch);
  set_pair_counters(ctx, p);
  set_link_counters(ctx, ceiling_between(ctx, p.src, p.dst, !r.access), both ? 2 : 1, true);
}

// The common end (hub) first, then the others. all_to_one: the hub holds one destination per
// source; one_to_all: one stream of its own per destination.
void run_aggregate(bench_context& ctx, const peer_row& r) {
  const bool to_hub = r.kind == row_kind::all_to_one;
  std::vector<int> devices{r.hub};
  devices.insert(devices.end(), r.others.begin(), r.others.end());
  require_devices(devices);
  for (int o : r.others) require_peer_access(r.hub, o);
  ctx.move_to(r.hub);
  const std::size_t k = r.others.size();
  std::vector<side_shape> shapes(devices.size(), side_shape{to_hub ? 0u : 1u, 0, 0});
  shapes[0] = to_hub ? side_shape{k, 0, 0} : side_shape{0, k, 0};
  auto& ws = sides_for<aggregate_sides>(ctx, devices, r.bytes, shapes);
  const peer_access_scope scope(r.hub, r.others, true);
  device_side& hub = ws[0];
  const std::uint64_t bytes = r.bytes;
  std::vector<piece> pieces;
  for (std::size_t i = 0; i < k; ++i) {
    device_side& o = ws[i + 1];
    if (to_hub) {  // pushed by the source, on its stream
      pieces.push_back({o.device, o.st.get(), o.done.get(), [&hub, &o, i, bytes](cudaStream_t st) {
                          MEMBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(hub.dst[i].data(), hub.device, o.src.data(), o.device, bytes, st));
                        }});
    } else {  // pushed by the hub, on one of its streams
      lane& l = hub.lanes[i];
      pieces.push_back({hub.device, l.st.get(), l.done.get(), [&hub, &o, bytes](cudaStream_t st) {
                          MEMBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(o.dst[0].data(), o.device, hub.src.data(), hub.device, bytes, st));
                        }});
    }
  }
  const event fork;
  const launch_fn launch = [&](cudaStream_t st) { run_pieces(st, fork.get(), pieces, {}); };
  ctx.verify_once([&] {
    for (std::size_t i = 0; i < k; ++i) {
      device_side& o = ws[i + 1];
      if (to_hub) poison(hub.device, hub.dst[i].data(), hub.words, hub.st.get());
      if (!to_hub) poison(o.device, o.dst[0].data(), o.words, o.st.get());
    }
    launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    for (std::size_t i = 0; i < k; ++i) {
      device_side& o = ws[i + 1];
      if (to_hub) verify_copy(ctx, hub, hub.dst[i].data(), o.device, "the hub's copy of a source's buffer");
      if (!to_hub) verify_copy(ctx, o, o.dst[0].data(), hub.device, "a destination's copy of the hub's buffer");
    }
  });
  time_copies(ctx, peer_aggregate_bytes(bytes, k), launch);
  ctx.set_counter(to_hub ? schema::counter("dst_device") : schema::counter("src_device"), r.hub);
  ctx.set_counter(schema::counter("peer_devices"), static_cast<double>(k));
  set_link_counters(ctx, ceiling_of_aggregate(ctx, r.hub, r.others), 1, true);
}

void add_rows(family_builder& f, void (*run)(bench_context&, const peer_row&)) {
  for (const peer_row& r : peer_rows(f.family(), f.peers())) {
    f.add(r.params, r.tier, [r, run](bench_context& ctx) { run(ctx, r); });
  }
}

void make_copy_cases(family_builder& f) { add_rows(f, &run_copy); }
void make_aggregate_cases(family_builder& f) { add_rows(f, &run_aggregate); }

const family_registrar copy_family{"peer/copy", &make_copy_cases,
    "peer copies between each ordered pair of GPUs, push, pull and both ways", family_needs::two_gpus};
const family_registrar all_to_one_family{"peer/all_to_one", &make_aggregate_cases,
    "every other GPU copying to one at once: the receiving link's aggregate", family_needs::two_gpus};
const family_registrar one_to_all_family{"peer/one_to_all", &make_aggregate_cases,
    "one GPU copying to every other at once: the sending link's aggregate", family_needs::two_gpus};

}  // namespace
}  // namespace membench::peer
