#include "peer/setup.hpp"

#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "harness/core/check.hpp"
#include "harness/core/harness_kernels.hpp"
#include "kernels/peer/p2p.hpp"

namespace membench::peer {

void require_devices(const std::vector<int>& devices) {
  int count = 0;
  MEMBENCH_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count < 2) throw infeasible(fmt::format("peer-to-peer needs two GPUs and this process sees {}", count));
  for (int d : devices) {
    if (d >= count)
      throw infeasible(fmt::format("device {} is not present: this process sees {} CUDA devices (0..{}); --peers "
                                   "names the pairs",
                                   d, count, count - 1));
  }
}

void require_peer_access(int a, int b) {
  int ab = 0, ba = 0;
  MEMBENCH_CUDA_CHECK(cudaDeviceCanAccessPeer(&ab, a, b));
  MEMBENCH_CUDA_CHECK(cudaDeviceCanAccessPeer(&ba, b, a));
  if (ab == 0 || ba == 0) {
    throw infeasible(fmt::format("devices {} and {} cannot enable peer access (cudaDeviceCanAccessPeer: {}->{} {}, "
                                 "{}->{} {}): no peer path between them",
                                 a, b, a, b, ab, b, a, ba));
  }
}

namespace {

/// Lets `from` map `to`'s memory (or stops it); returns whether it could before. throws cuda_error
bool set_access(int from, int to, bool on) {
  device_scope scope(from);
  MEMBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  const cudaError_t err = on ? cudaDeviceEnablePeerAccess(to, 0) : cudaDeviceDisablePeerAccess(to);
  if (err == cudaSuccess) return !on;
  (void)cudaGetLastError();  // the two "already so" answers are not sticky
  if (on && err == cudaErrorPeerAccessAlreadyEnabled) return true;
  if (!on && err == cudaErrorPeerAccessNotEnabled) return false;
  throw_cuda_error(err, on ? "cudaDeviceEnablePeerAccess" : "cudaDeviceDisablePeerAccess", __FILE__, __LINE__);
}

}  // namespace

peer_access_scope::peer_access_scope(int hub, const std::vector<int>& others, bool on) : on_(on) {
  try {
    for (int o : others) {
      for (auto [from, to] : {std::pair{hub, o}, std::pair{o, hub}}) {
        const bool was = set_access(from, to, on);
        if (was != on) changed_.push_back({from, to, was});
      }
    }
  } catch (...) {
    restore();  // what was changed so far
    throw;
  }
}

peer_access_scope::~peer_access_scope() { restore(); }

void peer_access_scope::restore() noexcept {
  for (auto it = changed_.rbegin(); it != changed_.rend(); ++it) {
    try {
      (void)set_access(it->from, it->to, it->was);
    } catch (const cuda_error& e) {
      log_cuda_failure(e.code(), "restoring the peer access state");
    } catch (...) {
    }
  }
  changed_.clear();
}

restore_device::~restore_device() {
  if (previous >= 0) MEMBENCH_CUDA_LOG(cudaSetDevice(previous));
}

device_side::device_side(int dev, std::size_t n, const side_shape& shape)
    : device(dev), words(n), src(n), partials(shape.partials) {
  for (std::size_t i = 0; i < shape.destinations; ++i) dst.emplace_back(n);
  for (std::size_t i = 0; i < shape.lanes; ++i) lanes.push_back(lane{});
}

device_side::~device_side() {
  int previous = 0;
  if (cudaGetDevice(&previous) == cudaSuccess && cudaSetDevice(device) == cudaSuccess) restore.previous = previous;
}

void require_bytes_on(bench_context& ctx, int device, std::uint64_t bytes) {
  const device_scope on(device);
  try {
    ctx.require_device_bytes(bytes);  // the current device's
  } catch (const infeasible& e) {
    throw infeasible(fmt::format("on device {}: {}", device, e.what()));
  }
}

std::vector<std::unique_ptr<device_side>> make_sides(bench_context& ctx, const std::vector<int>& devices,
                                                     std::uint64_t bytes, const std::vector<side_shape>& shapes) {
  std::vector<std::unique_ptr<device_side>> out;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const int device = devices[i];
    const side_shape shape = i < shapes.size() ? shapes[i] : side_shape{};
    require_bytes_on(ctx, device, peer_device_bytes(bytes, shape.destinations) + 4 * shape.partials);
    const device_scope on(device);
    auto side = std::make_unique<device_side>(device, bytes / sizeof(std::uint32_t), shape);
    fill_words(side->src.data(), side->words, peer_seed(device), side->st.get());
    side->st.synchronize();
    out.push_back(std::move(side));
  }
  return out;
}

void poison(int device, std::uint32_t* p, std::size_t words, cudaStream_t st) {
  const device_scope on(device);
  fill_words(p, words, peer_poison_seed, st);
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(st));
}

void run_pieces(cudaStream_t st, cudaEvent_t fork, const std::vector<piece>& pieces,
                const std::function<void(cudaStream_t)>& own) {
  MEMBENCH_CUDA_CHECK(cudaEventRecord(fork, st));
  for (const piece& p : pieces) {
    MEMBENCH_CUDA_CHECK(cudaStreamWaitEvent(p.st, fork, 0));
    {
      const device_scope on(p.device);  // a kernel launches only on the current device's streams
      p.work(p.st);
      MEMBENCH_CUDA_CHECK(cudaGetLastError());
    }
    MEMBENCH_CUDA_CHECK(cudaEventRecord(p.done, p.st));
  }
  if (own) own(st);
  for (const piece& p : pieces) MEMBENCH_CUDA_CHECK(cudaStreamWaitEvent(st, p.done, 0));
}

void set_pair_counters(bench_context& ctx, peer_pair p) {
  int supported = 0, atomics = 0, rank = 0;
  MEMBENCH_CUDA_CHECK(cudaDeviceGetP2PAttribute(&supported, cudaDevP2PAttrAccessSupported, p.src, p.dst));
  MEMBENCH_CUDA_CHECK(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, p.src, p.dst));
  MEMBENCH_CUDA_CHECK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, p.src, p.dst));
  ctx.set_counter(schema::counter("src_device"), p.src);
  ctx.set_counter(schema::counter("dst_device"), p.dst);
  ctx.set_counter(schema::counter("peer_access_supported"), supported);
  ctx.set_counter(schema::counter("p2p_native_atomic"), atomics);
  ctx.set_counter(schema::counter("p2p_performance_rank"), rank);
}

void set_link_counters(bench_context& ctx, const std::optional<link_ceiling>& ceiling, double factor, bool rate) {
  if (!ceiling || ceiling->gb_per_s <= 0) return;
  const double link = ceiling->gb_per_s * factor;
  ctx.set_counter(schema::counter("link_gb_per_s"), link);
  ctx.set_counter(schema::counter("link_nvlinks"), ceiling->nvlinks);
  const double measured = ctx.counter(schema::counter("gb_per_s"));
  if (rate && std::isfinite(measured)) ctx.set_counter(schema::counter("pct_of_link"), 100.0 * measured / link);
}

std::optional<link_ceiling> ceiling_between(bench_context& ctx, int a, int b, bool staged) {
  const link_endpoint* ea = ctx.links_of(a);
  const link_endpoint* eb = ctx.links_of(b);
  if (ea == nullptr || eb == nullptr) return std::nullopt;
  return staged ? staged_ceiling(*ea, *eb) : pair_ceiling(*ea, *eb);
}

std::optional<link_ceiling> ceiling_of_aggregate(bench_context& ctx, int hub, const std::vector<int>& others) {
  const link_endpoint* h = ctx.links_of(hub);
  if (h == nullptr) return std::nullopt;
  std::vector<link_endpoint> ends;
  for (int o : others) {
    const link_endpoint* e = ctx.links_of(o);
    if (e == nullptr) return std::nullopt;
    ends.push_back(*e);
  }
  return aggregate_ceiling(*h, ends);
}

}  // namespace membench::peer
