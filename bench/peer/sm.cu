// P1: kernels touching another GPU's memory through peer access (The CUDA Handbook 5.2.7),
// for every ordered pair --peers chose (data from `src` to `dst`). op:read: a kernel on dst
// reads src's buffer and sums it (16-byte loads, one partial per block); `local_read_gb_per_s`
// is the same kernel on a buffer of dst's own, measured in the same run, `pct_of_local_read`
// the ratio. op:write: a kernel on src stores a pattern into dst's buffer (16-byte stores).
// dir:bidir runs the mirror kernel on the other GPU at once (src reads dst's buffer, or dst
// writes src's). Peer access is on, both ways, for every row.
//
// Expected: reads and writes at the link's rate (NVLink: hundreds of GB/s per direction, a
// fraction of the local DRAM read), bidir about twice; 1 MiB is latency bound.
// Timing: the row moves to the GPU whose kernel crosses the link in the named direction (dst
// for read, src for write) and is timed there like any kernel row, that GPU's L2 flushed (the
// other GPU's is not: at 1 MiB part of its buffer may come from its L2); a bidir row's second
// kernel joins the row's stream through events.
// Bytes per launch: peer_read_bytes (the buffer plus 4 bytes per block) or peer_write_bytes
// (the buffer), per kernel. Ceilings: link_gb_per_s from NVML (setup.hpp), twice for bidir.
// Verification: each read kernel's block sums must add up to its buffer's checksum; each
// written buffer is poisoned, written once and compared word by word with the pattern.
// Tiers (peer/rows.hpp): quick has the 64 MiB read; the default tier 1 MiB and 64 MiB; 1 GiB
// in the full tier only.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "common/parallel.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/peer/p2p.cuh"
#include "peer/rows.hpp"
#include "peer/setup.hpp"

namespace membench::peer {
namespace {

struct sm_sides : peer_sides {};

/// Resident blocks of the row's kernel on `device`, over the buffer's 16-byte words.
unsigned grid_on(bench_context& ctx, int device, bool read, std::uint64_t bytes) {
  const device_scope on(device);  // occupancy is the current device's
  const std::uint64_t tiles = blocks_for(bytes / 16, peer_block);
  return read ? grid_stride_blocks(peer_read_kernel, peer_block, tiles, ctx.device_of(device))
              : grid_stride_blocks(peer_write_kernel, peer_block, tiles, ctx.device_of(device));
}

/// The kernel a GPU (`me`) runs on the other's (`peer`) memory: it reads peer's source into
/// its partials, or writes its pattern into peer's destination.
std::function<void(cudaStream_t)> kernel_of(bool read, device_side& me, device_side& peer, unsigned grid) {
  const std::uint64_t n4 = me.words / 4;
  if (read) {
    const auto* in = reinterpret_cast<const uint4*>(peer.src.data());
    std::uint32_t* partials = me.partials.data();
    return [=](cudaStream_t s) { peer_read_kernel<<<grid, peer_block, 0, s>>>(in, n4, partials); };
  }
  auto* out = reinterpret_cast<uint4*>(peer.dst[0].data());
  const int device = me.device;
  return [=](cudaStream_t s) { peer_write_kernel<<<grid, peer_block, 0, s>>>(out, n4, device); };
}

/// After one launch: `me`'s read of `peer`'s source summed right, or `me`'s write into
/// `peer`'s destination word for word.
void check_kernel(bench_context& ctx, bool read, device_side& me, device_side& peer, unsigned grid) {
  if (read) {
    if (!peer.checksum) {
      const int source = peer.device;
      peer.checksum = parallel_sum_u32(peer.words, [source](std::size_t i) { return peer_word(source, i); });
    }
    verify_checksum(sum_device_words(me.st.get(), me.partials.data(), grid), *peer.checksum,
                    "sum of the other GPU's buffer read through peer access");
    return;
  }
  const int writer = me.device;
  verify_device_array(ctx.reader(peer.st.get()), peer.dst[0].data(), peer.words,
                      [writer](std::size_t i) { return peer_write_word(writer, i); },
                      "the other GPU's buffer written through peer access");
}

void poison_output(bool read, device_side& me, device_side& peer, unsigned grid) {
  if (read) {
    poison(me.device, me.partials.data(), grid, me.st.get());
  } else {
    poison(peer.device, peer.dst[0].data(), peer.words, peer.st.get());
  }
}

// The local reference of a read row: the same kernel on the reader's own buffer, checked in
// the row's verification.
void time_local_read(bench_context& ctx, const launch_options& opt, device_side& me, unsigned grid, double median) {
  const double local_s = ctx.measure(opt, kernel_of(true, me, me, grid));
  const double bytes = static_cast<double>(peer_read_bytes(me.words * 4, grid));
  ctx.set_counter(schema::counter("local_read_gb_per_s"), bytes / local_s / 1e9);
  ctx.set_counter(schema::counter("pct_of_local_read"), 100.0 * local_s / median);
}

void run_sm(bench_context& ctx, const peer_row& r) {
  const peer_pair p = r.pair;
  require_devices({p.src, p.dst});
  require_peer_access(p.src, p.dst);
  const bool read = r.op == sm_op::read, both = r.dir == sm_dir::bidir;
  ctx.move_to(read ? p.dst : p.src);  // the GPU whose kernel crosses the link src -> dst
  const unsigned src_reads = grid_on(ctx, p.src, true, r.bytes), dst_reads = grid_on(ctx, p.dst, true, r.bytes);
  auto& ws = sides_for<sm_sides>(ctx, {p.src, p.dst}, r.bytes, {{1, 0, src_reads}, {1, 0, dst_reads}});
  const peer_access_scope scope(p.src, {p.dst}, true);
  device_side& me = read ? ws[1] : ws[0];  // the row's GPU
  device_side& peer = read ? ws[0] : ws[1];
  const unsigned grid = grid_on(ctx, me.device, read, r.bytes), peer_grid = grid_on(ctx, peer.device, read, r.bytes);
  const auto own = kernel_of(read, me, peer, grid);
  const std::vector<piece> pieces{{peer.device, peer.st.get(), peer.done.get(), kernel_of(read, peer, me, peer_grid)}};
  const event fork;
  const launch_fn launch = [&](cudaStream_t st) {
    if (both) {
      run_pieces(st, fork.get(), pieces, own);
    } else {
      own(st);
    }
  };
  ctx.verify_once([&] {
    poison_output(read, me, peer, grid);
    if (both) poison_output(read, peer, me, peer_grid);
    launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    check_kernel(ctx, read, me, peer, grid);
    if (both) check_kernel(ctx, read, peer, me, peer_grid);
    if (!read || both) return;
    poison_output(true, me, me, grid);
    kernel_of(true, me, me, grid)(ctx.stream());  // the local reference
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    check_kernel(ctx, true, me, me, grid);
  });
  launch_options opt;
  opt.l2 = l2_state::cold;
  opt.report_pct_peak = false;  // pct_of_link instead
  const std::uint64_t one = read ? peer_read_bytes(r.bytes, grid) : peer_write_bytes(r.bytes);
  const std::uint64_t other = read ? peer_read_bytes(r.bytes, peer_grid) : peer_write_bytes(r.bytes);
  const double median = ctx.time_launches(opt, both ? one + other : one, launch);
  if (read && !both) time_local_read(ctx, opt, me, grid, median);
  ctx.set_counter(schema::counter("grid_blocks"), grid);
  set_pair_counters(ctx, p);
  set_link_counters(ctx, ceiling_between(ctx, p.src, p.dst, false), both ? 2 : 1, true);
}

void make_cases(family_builder& f) {
  for (const peer_row& r : peer_rows(f.family(), f.peers())) {
    f.add(r.params, r.tier, [r](bench_context& ctx) { run_sm(ctx, r); });
  }
}

const family_registrar sm_family{"peer/sm", &make_cases,
    "kernels reading and writing another GPU's memory through peer access", family_needs::two_gpus};

}  // namespace
}  // namespace membench::peer
