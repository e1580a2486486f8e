// P1: peer-to-peer between two GPUs (The CUDA Handbook 5.2.7, 9.2). d0 is the session's
// device (--device) and d1 the next one (d0 + 1 mod the device count); the counters
// device_d0 and device_d1 name them. peer/copy: cudaMemcpyPeerAsync of 1 MiB, 64 MiB and
// 1 GiB with peer access on (cudaDeviceEnablePeerAccess both ways: the copy engines move the
// data over NVLink or PCIe directly) and off (the driver stages the copy through host
// memory); d0_d1 pushes d0's buffer to d1, d1_d0 pulls d1's buffer to d0, bidir runs both at
// once on two of d0's streams. peer/read: a kernel on d0 reads d1's buffer through peer
// access and sums it (16-byte loads, one partial per block); `local_read_gb_per_s` is the
// same kernel on a buffer of d0's own, measured in the same run, `pct_of_local_read` the ratio.
// peer_access_supported, p2p_native_atomic and p2p_performance_rank are
// cudaDeviceGetP2PAttribute for d0 -> d1.
//
// Expected: with access on, copies run at the link's rate (NVLink: hundreds of GB/s per
// direction, about twice that bidirectional; PCIe: its per-direction rate); with access off
// they fall to what two PCIe hops through host memory allow. The peer read runs at the link's
// rate, a fraction of the local DRAM read. 1 MiB is latency bound.
// Peer access is process-wide per device pair: each row sets the state it names and puts
// back the one it found, with both devices idle. A single-GPU host skips every row, saying so.
// Timing: events on d0's stream (the benchmark's); copies with plain events (timing:events,
// fallback:copy_engine), the read kernel as any launch with d0's L2 flushed (d1's L2 is not:
// at 1 MiB and 64 MiB part of the peer's buffer may come from it).
// Bytes per launch: peer_copy_bytes (the buffer; bidir twice), peer_read_bytes (the buffer
// plus 4 bytes per block). No pct_peak: no ceiling for the link is known to the suite.
// Verification: copies poison the destination(s), copy once and compare every word with the
// source's pattern; the read kernel's block sums must add up to the buffer's checksum.
// Tiers (every row is skipped on a single-GPU host): quick has the 64 MiB push with access on
// and off, the bidirectional copy with access on and the 64 MiB peer read; the default tier
// has 1 MiB and 64 MiB; 1 GiB (the sustained rate, 2 GiB on each device) is in the full
// tier only.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/parallel.hpp"
#include "harness/core/harness_kernels.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/peer/p2p.cuh"

namespace membench::peer {
namespace {

struct device_pair {
  int d0 = 0;  ///< the session's device
  int d1 = 0;  ///< its peer: the next device
};

/// throws infeasible on a host with fewer than two devices, cuda_error
device_pair pair_of(const bench_context& ctx) {
  int count = 0;
  MEMBENCH_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count < 2) {
    throw infeasible("peer-to-peer needs two GPUs and this host has " + std::to_string(count) +
                     " (d0 is --device, d1 the next device)");
  }
  const int d0 = ctx.device().index;
  return {d0, peer_device(d0, count)};
}

/// throws infeasible when the pair cannot map each other's memory, cuda_error
void require_peer_access(device_pair p) {
  int d0_to_d1 = 0, d1_to_d0 = 0;
  MEMBENCH_CUDA_CHECK(cudaDeviceCanAccessPeer(&d0_to_d1, p.d0, p.d1));
  MEMBENCH_CUDA_CHECK(cudaDeviceCanAccessPeer(&d1_to_d0, p.d1, p.d0));
  if (d0_to_d1 == 0 || d1_to_d0 == 0) {
    throw infeasible("devices " + std::to_string(p.d0) + " and " + std::to_string(p.d1) +
                     " cannot enable peer access (cudaDeviceCanAccessPeer: d0->d1 " + std::to_string(d0_to_d1) +
                     ", d1->d0 " + std::to_string(d1_to_d0) + "): no peer path between them");
  }
}

void set_pair_counters(bench_context& ctx, device_pair p) {
  int supported = 0, atomics = 0, rank = 0;
  MEMBENCH_CUDA_CHECK(cudaDeviceGetP2PAttribute(&supported, cudaDevP2PAttrAccessSupported, p.d0, p.d1));
  MEMBENCH_CUDA_CHECK(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, p.d0, p.d1));
  MEMBENCH_CUDA_CHECK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, p.d0, p.d1));
  ctx.set_counter(schema::counter("device_d0"), p.d0);
  ctx.set_counter(schema::counter("device_d1"), p.d1);
  ctx.set_counter(schema::counter("peer_access_supported"), supported);
  ctx.set_counter(schema::counter("p2p_native_atomic"), atomics);
  ctx.set_counter(schema::counter("p2p_performance_rank"), rank);
}

// Sets peer access between the pair, both ways, for its lifetime; then puts back the state
// it found. Every change happens with the device idle.
class peer_access_scope {
 public:
  /// throws cuda_error
  peer_access_scope(device_pair p, bool on) : pair_(p), on_(on) {
    was_01_ = set_access(p.d0, p.d1, on);
    try {
      was_10_ = set_access(p.d1, p.d0, on);
    } catch (...) {
      restore(p.d0, p.d1, was_01_);
      throw;
    }
  }
  peer_access_scope(const peer_access_scope&) = delete;
  peer_access_scope& operator=(const peer_access_scope&) = delete;
  ~peer_access_scope() {
    restore(pair_.d1, pair_.d0, was_10_);
    restore(pair_.d0, pair_.d1, was_01_);
  }

 private:
  /// Lets `from` map `to`'s memory (or stops it); returns whether it could before.
  /// throws cuda_error
  static bool set_access(int from, int to, bool on) {
    device_scope scope(from);
    MEMBENCH_CUDA_CHECK(cudaDeviceSynchronize());
    const cudaError_t err = on ? cudaDeviceEnablePeerAccess(to, 0) : cudaDeviceDisablePeerAccess(to);
    if (err == cudaSuccess) return !on;
    (void)cudaGetLastError();  // the two "already so" answers are not sticky
    if (on && err == cudaErrorPeerAccessAlreadyEnabled) return true;
    if (!on && err == cudaErrorPeerAccessNotEnabled) return false;
    throw_cuda_error(err, on ? "cudaDeviceEnablePeerAccess" : "cudaDeviceDisablePeerAccess", __FILE__, __LINE__);
  }
  void restore(int from, int to, bool was) const noexcept {
    if (was == on_) return;
    try {
      (void)set_access(from, to, was);
    } catch (const cuda_error& e) {
      log_cuda_failure(e.code(), "restoring the peer access state");
    } catch (...) {
    }
  }

  device_pair pair_;
  bool on_;
  bool was_01_ = false, was_10_ = false;
};

// Makes the device current again when destroyed, if told which one.
struct restore_device {
  int previous = -1;
  restore_device() = default;
  restore_device(const restore_device&) = delete;
  restore_device& operator=(const restore_device&) = delete;
  ~restore_device() {
    if (previous >= 0) MEMBENCH_CUDA_LOG(cudaSetDevice(previous));
  }
};

// d1's buffers and a stream of d1's for filling and checking them. Construct it with d1
// current; it is destroyed with d1 current (its destructor switches, `restore` switches back).
struct remote_side {
  restore_device restore;  // declared first: destroyed last, after the buffers and the stream
  int device;
  device_buffer<std::uint32_t> src, dst;
  membench::stream st;

  remote_side(int dev, std::size_t words) : device(dev), src(words), dst(words) {}
  remote_side(const remote_side&) = delete;
  remote_side& operator=(const remote_side&) = delete;
  ~remote_side() {
    int previous = 0;
    if (cudaGetDevice(&previous) == cudaSuccess && cudaSetDevice(device) == cudaSuccess) restore.previous = previous;
  }
};

struct peer_workspace {
  device_buffer<std::uint32_t> src0, dst0, partials;  // on d0
  std::unique_ptr<remote_side> remote;                 // on d1
  membench::stream second;                             // d0: the d1 -> d0 half of bidir
  event fork, join;                                    // d0: second joins the benchmark's stream
  unsigned grid = 0;                                   // the read kernel's blocks
  std::optional<std::uint32_t> sum0, sum1;             // checksums of the two sources
};

peer_workspace& get_workspace(bench_context& ctx, device_pair pair, std::uint64_t bytes) {
  // d0 is the session's device: the size alone tells the workspaces apart.
  return ctx.workspace<peer_workspace>({"bytes"}, [&] {
    const std::size_t n = bytes / sizeof(std::uint32_t);
    // The read kernel's grid: resident blocks looping over block-sized tiles of 16-byte words.
    const unsigned grid =
        grid_stride_blocks(peer_read_kernel, peer_block, blocks_for(bytes / 16, peer_block), ctx.device());
    ctx.require_device_bytes(peer_device_bytes(bytes) + 4 * std::uint64_t{grid});
    peer_workspace w{device_buffer<std::uint32_t>(n), device_buffer<std::uint32_t>(n), device_buffer<std::uint32_t>(grid),
                     nullptr, membench::stream(), event(), event(), grid, std::nullopt, std::nullopt};
    {
      device_scope on_d1(pair.d1);
      try {
        ctx.require_device_bytes(peer_device_bytes(bytes));  // cudaMemGetInfo of the current device: d1
      } catch (const infeasible& e) {
        throw infeasible(std::string("on the peer, device ") + std::to_string(pair.d1) + ": " + e.what());
      }
      w.remote = std::make_unique<remote_side>(pair.d1, n);
      fill_words(w.remote->src.data(), n, peer_seed_d1, w.remote->st.get());
      w.remote->st.synchronize();
    }
    fill_words(w.src0.data(), n, peer_seed_d0, ctx.stream());
    return w;
  });
}

void run_copy(bench_context& ctx, bool access, peer_dir dir, std::uint64_t bytes) {
  const device_pair pair = pair_of(ctx);
  if (access) require_peer_access(pair);
  peer_workspace& ws = get_workspace(ctx, pair, bytes);
  const peer_access_scope scope(pair, access);
  const std::size_t n = bytes / sizeof(std::uint32_t);
  const std::uint32_t* src0 = ws.src0.data();
  const std::uint32_t* src1 = ws.remote->src.data();
  std::uint32_t* dst0 = ws.dst0.data();
  std::uint32_t* dst1 = ws.remote->dst.data();
  const cudaStream_t second = ws.second.get();
  auto d0_to_d1 = [=](cudaStream_t s) {
    MEMBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(dst1, pair.d1, src0, pair.d0, bytes, s));
  };
  auto d1_to_d0 = [=](cudaStream_t s) {
    MEMBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(dst0, pair.d0, src1, pair.d1, bytes, s));
  };
  auto launch = [&](cudaStream_t s) {
    switch (dir) {
      case peer_dir::d0_d1: d0_to_d1(s); break;
      case peer_dir::d1_d0: d1_to_d0(s); break;
      case peer_dir::bidir:
        ws.fork.order(s, second);
        d0_to_d1(s);
        d1_to_d0(second);
        ws.join.order(second, s);
        break;
    }
  };
  const bool to_d1 = dir != peer_dir::d1_d0;
  const bool to_d0 = dir != peer_dir::d0_d1;
  ctx.verify_once([&] {
    if (to_d1) {
      device_scope on_d1(pair.d1);
      fill_words(dst1, n, peer_poison_seed, ws.remote->st.get());
      ws.remote->st.synchronize();
    }
    if (to_d0) fill_words(dst0, n, peer_poison_seed, ctx.stream());
    launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    if (to_d0) {
      verify_device_array(ctx.reader(), dst0, n, [](std::size_t i) { return peer_word(true, i); },
                          "d0's copy of d1's buffer");
    }
    if (to_d1) {
      device_scope on_d1(pair.d1);
      const device_reader on_d1_stream{ws.remote->st.get(), ctx.reader().staging};  // the session's staging memory
      verify_device_array(on_d1_stream, dst1, n, [](std::size_t i) { return peer_word(false, i); },
                          "d1's copy of d0's buffer");
    }
  });
  launch_options opt;
  opt.l2 = l2_state::warm;  // copy engines: no SM cache state to set
  opt.copy_engine = true;
  opt.report_pct_peak = false;
  ctx.time_launches(opt, peer_copy_bytes(dir, bytes), launch);
  set_pair_counters(ctx, pair);
}

void run_read(bench_context& ctx, std::uint64_t bytes) {
  const device_pair pair = pair_of(ctx);
  require_peer_access(pair);
  peer_workspace& ws = get_workspace(ctx, pair, bytes);
  const peer_access_scope scope(pair, true);
  const std::size_t n = bytes / sizeof(std::uint32_t);
  const std::uint64_t n4 = bytes / 16;
  const unsigned grid = ws.grid;
  std::uint32_t* partials = ws.partials.data();
  auto read_of = [=](const std::uint32_t* src) {
    return [=](cudaStream_t s) {
      peer_read_kernel<<<grid, peer_block, 0, s>>>(reinterpret_cast<const uint4*>(src), n4, partials);
    };
  };
  const auto launch = read_of(ws.remote->src.data());  // d1's memory, through peer access
  const auto local = read_of(ws.src0.data());          // d0's own: the reference
  auto check = [&](const launch_fn& read, bool on_d1, std::optional<std::uint32_t>& sum, const char* what) {
    fill_words(partials, grid, peer_poison_seed, ctx.stream());
    read(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    if (!sum) sum = parallel_sum_u32(n, [on_d1](std::size_t i) { return peer_word(on_d1, i); });
    verify_checksum(sum_device_words(ctx.stream(), partials, grid), *sum, what);
  };
  ctx.verify_once([&] {
    check(launch, true, ws.sum1, "sum of d1's buffer read by d0 through peer access");
    check(local, false, ws.sum0, "sum of d0's own buffer (the reference)");
  });
  launch_options opt;
  opt.l2 = l2_state::cold;
  opt.report_pct_peak = false;
  const double median = ctx.time_launches(opt, peer_read_bytes(bytes, grid), launch);
  const double local_s = ctx.measure(opt, local);
  ctx.set_counter(schema::counter("local_read_gb_per_s"),
                  static_cast<double>(peer_read_bytes(bytes, grid)) / local_s / 1e9);
  ctx.set_counter(schema::counter("pct_of_local_read"), 100.0 * local_s / median);
  ctx.set_counter(schema::counter("grid_blocks"), grid);
  set_pair_counters(ctx, pair);
}

constexpr std::uint64_t quick_bytes = peer_sizes[1];

// Quick: the push with access on and off, and both directions at once with access on.
constexpr suite_tier copy_tier(bool access, peer_dir dir, std::uint64_t bytes) {
  if (bytes == peer_sizes.back()) return suite_tier::full;
  const bool headline = dir == peer_dir::d0_d1 || (access && dir == peer_dir::bidir);
  return bytes == quick_bytes && headline ? suite_tier::quick : suite_tier::standard;
}

constexpr suite_tier read_tier(std::uint64_t bytes) {
  if (bytes == peer_sizes.back()) return suite_tier::full;
  return bytes == quick_bytes ? suite_tier::quick : suite_tier::standard;
}

void make_copy_cases(family_builder& f) {
  // Size outermost: the rows sharing a workspace run back to back.
  for (std::uint64_t bytes : peer_sizes) {
    for (bool access : {true, false}) {
      for (peer_dir dir : all_peer_dirs) {
        f.add({{"access", access_token(access)}, {"dir", to_string(dir)}, {"bytes", format_size(bytes)}},
              copy_tier(access, dir, bytes), [=](bench_context& ctx) { run_copy(ctx, access, dir, bytes); });
      }
    }
  }
}

void make_read_cases(family_builder& f) {
  for (std::uint64_t bytes : peer_sizes) {
    // A kernel cannot dereference a peer's memory without peer access: no access:off row.
    f.add({{"access", access_token(true)}, {"bytes", format_size(bytes)}}, read_tier(bytes),
          [=](bench_context& ctx) { run_read(ctx, bytes); });
  }
}

const family_registrar copy_family{"peer/copy", &make_copy_cases};
const family_registrar read_family{"peer/read", &make_read_cases};

}  // namespace
}  // namespace membench::peer
