// H4: streams (the Russian lecture, example 3: one, two and four CUDA streams). A pipeline
// of N elements cut into `pipeline_chunks` chunks; chunk k goes to stream k % S and is
// issued depth first: H2D of a and b, the kernel, D2H of c. Pinned host memory against
// pageable (whose cudaMemcpyAsync returns only after the host-side staging, so nothing
// overlaps), over 1, 2, 4, 8 and 16 streams, with a memory-bound kernel (intensity:low,
// 1 FMA per element) and one about as long as the copies (intensity:high, 4096 FMAs).
//
// Expected: one stream serialises H2D + kernel + D2H. With more streams the H2D engine, the
// D2H engine and the SMs overlap, and the time approaches the copy-engine bound: the busiest
// of total H2D, total D2H and total kernel time, each measured alone over the same chunks in
// the same run (counters h2d_us, d2h_us, kernel_us, bound_us; pct_of_bound = bound / time).
// `speedup` is the 1-stream row's time over this row's. Low intensity is bound by H2D
// (two arrays in, one out); high intensity by the kernel or H2D, whichever is longer.
// Bytes per launch: pipeline_bytes (3 N sizeof(float) over PCIe); pct_peak of both directions
// of the PCIe link together (2/3 of the bytes go one way, so 75 % is the most reachable).
// Size: 32 M elements (128 MiB per array), 32 chunks of 4 MiB.
// More than 8 streams share hardware queues unless CUDA_DEVICE_MAX_CONNECTIONS is raised
// (default 8; its value is in the context): the 16-stream rows show what a program gets.
// Tiers: quick has pinned memory, high intensity, 1 and 4 streams (the overlap at its
// largest); the default tier has every pinned row and pageable low intensity over 1 and 4
// streams (nothing overlaps); the other pageable rows (blocking calls, 40-55 ms a sample, each
// pipeline's parts sampled on the host's budget too) are in the full tier only.
#include <array>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "harness/core/host_memory.hpp"
#include "harness/family/family.hpp"
#include "host/pcie_options.hpp"
#include "kernels/common/types.hpp"
#include "kernels/host/streams.cuh"

namespace membench::host {
namespace {

constexpr unsigned block = 256;
constexpr std::uint64_t array_bytes = std::uint64_t{128} << 20;
constexpr std::size_t n = array_bytes / sizeof(float);
constexpr std::size_t pipeline_chunks = 32;
constexpr std::array<std::size_t, 5> stream_counts{1, 2, 4, 8, 16};
constexpr std::size_t max_streams = 16;

struct streams_workspace {
  host_buffer a, b, c;
  device_buffer<float> da, db, dc;
  std::vector<membench::stream> streams;
  std::vector<membench::event> fork, join;
};

std::vector<name_param> row_params(host_kind kind, bool high, std::size_t streams) {
  return {{"host", to_string(kind)}, {"intensity", high ? "high" : "low"}, {"streams", std::to_string(streams)},
          {"bytes", format_size(array_bytes)}};
}

streams_workspace& get_workspace(bench_context& ctx, host_kind kind) {
  return ctx.workspace<streams_workspace>({"host"}, [&] {
    ctx.require_device_bytes(3 * array_bytes);
    streams_workspace w{host_buffer(kind, array_bytes), host_buffer(kind, array_bytes), host_buffer(kind, array_bytes),
                        device_buffer<float>(n), device_buffer<float>(n), device_buffer<float>(n), {}, {}, {}};
    fill_host(reinterpret_cast<float*>(w.a.data()), n,
              [](std::size_t i) { return pattern_value<float>(i, streams_seed_a); });
    fill_host(reinterpret_cast<float*>(w.b.data()), n,
              [](std::size_t i) { return pattern_value<float>(i, streams_seed_b); });
    for (std::size_t i = 0; i < max_streams; ++i) {
      w.streams.emplace_back();
      w.fork.emplace_back();
      w.join.emplace_back();
    }
    return w;
  });
}

enum class stage { h2d, kernel, d2h };

/// Issues the chosen stages of every chunk over `streams` streams, forked from and joined
/// back into `s`, so events on `s` bracket the whole pipeline.
void issue(streams_workspace& ws, cudaStream_t s, std::size_t streams, int fmas, std::initializer_list<stage> stages) {
  auto* a = reinterpret_cast<const float*>(ws.a.data());
  auto* b = reinterpret_cast<const float*>(ws.b.data());
  auto* c = reinterpret_cast<float*>(ws.c.data());
  for (std::size_t i = 0; i < streams; ++i) ws.fork[i].order(s, ws.streams[i].get());
  for (std::size_t k = 0; k < pipeline_chunks; ++k) {
    const chunk ch = chunk_range(k, pipeline_chunks, n);
    const cudaStream_t cs = ws.streams[chunk_stream(k, streams)].get();
    const std::size_t off = ch.begin, bytes = ch.size() * sizeof(float);
    for (stage st : stages) {
      switch (st) {
        case stage::h2d:
          MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.da.data() + off, a + off, bytes, cudaMemcpyHostToDevice, cs));
          MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.db.data() + off, b + off, bytes, cudaMemcpyHostToDevice, cs));
          break;
        case stage::kernel:
          pipeline_kernel<<<static_cast<unsigned>(blocks_for(ch.size(), block)), block, 0, cs>>>(
              ws.da.data(), ws.db.data(), ws.dc.data(), off, ch.size(), fmas);
          MEMBENCH_CUDA_CHECK(cudaGetLastError());
          break;
        case stage::d2h:
          MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(c + off, ws.dc.data() + off, bytes, cudaMemcpyDeviceToHost, cs));
          break;
      }
    }
  }
  for (std::size_t i = 0; i < streams; ++i) ws.join[i].order(ws.streams[i].get(), s);
}

/// `one_stream`: the name of the 1-stream row of this host kind and intensity, the
/// reference of `speedup` and the prefix of the bound's parts.
void run_streams(bench_context& ctx, host_kind kind, bool high, std::size_t streams, const std::string& one_stream) {
  auto& ws = get_workspace(ctx, kind);
  const int fmas = high ? pipeline_high_fmas : pipeline_low_fmas;
  auto launch = [&](cudaStream_t s) { issue(ws, s, streams, fmas, {stage::h2d, stage::kernel, stage::d2h}); };
  auto* c = reinterpret_cast<const float*>(ws.c.data());
  const output_check c_on_host{[&](cudaStream_t) { std::memset(ws.c.data(), 0xA5, array_bytes); },
                               [c, fmas] {
                                 verify_host_array(c, n, [fmas](std::size_t i) { return pipeline_expected(i, fmas); },
                                                   "c on the host");
                               }};
  const bool blocks_host = !is_page_locked(kind);
  // Both directions carry data at once: pct_peak is of the link's two directions together.
  launch_options whole = over_pcie(ctx, blocks_host);
  whole.peak_gbps *= 2;
  whole.peak_name = "pcie_both_directions";
  const double t = ctx.verify_and_time(whole, pipeline_bytes(n, sizeof(float)), launch, c_on_host);

  // The bound's parts, each alone on one stream over the same chunks, and the 1-stream row:
  // cached per process ("" names the row itself).
  const launch_options part = over_pcie(ctx, blocks_host);
  auto part_seconds = [&](const char* suffix, std::initializer_list<stage> stages) {
    return ctx.reference_seconds(one_stream + suffix, part, [&](cudaStream_t s) { issue(ws, s, 1, fmas, stages); });
  };
  const double h2d = part_seconds("#h2d", {stage::h2d});
  const double d2h = part_seconds("#d2h", {stage::d2h});
  const double kernel = part_seconds("#kernel", {stage::kernel});
  const double bound = copy_engine_bound(h2d, d2h, kernel);
  const double one_stream_s = part_seconds("", {stage::h2d, stage::kernel, stage::d2h});
  ctx.set_counter(schema::counter("h2d_us"), h2d * 1e6);
  ctx.set_counter(schema::counter("d2h_us"), d2h * 1e6);
  ctx.set_counter(schema::counter("kernel_us"), kernel * 1e6);
  ctx.set_counter(schema::counter("bound_us"), bound * 1e6);
  ctx.set_counter(schema::counter("serial_us"), (h2d + d2h + kernel) * 1e6);
  ctx.set_counter(schema::counter("pct_of_bound"), 100 * bound / t);
  ctx.set_counter(schema::counter("speedup"), one_stream_s / t);
}

constexpr suite_tier tier_of(host_kind kind, bool high, std::size_t streams) {
  const bool one_or_four = streams == 1 || streams == 4;
  if (kind == host_kind::pinned) return high && one_or_four ? suite_tier::quick : suite_tier::standard;
  return !high && one_or_four ? suite_tier::standard : suite_tier::full;
}

void make_cases(family_builder& f) {
  for (host_kind kind : {host_kind::pinned, host_kind::pageable}) {
    for (bool high : {false, true}) {
      const std::string one_stream = f.name(row_params(kind, high, 1));
      for (std::size_t streams : stream_counts) {
        f.add(row_params(kind, high, streams), tier_of(kind, high, streams),
              [=](bench_context& ctx) { run_streams(ctx, kind, high, streams, one_stream); });
      }
    }
  }
}

const family_registrar streams_family{"host/streams", &make_cases,
    "copies and kernels overlapped over 1 to 16 streams, pinned against pageable", family_needs::gpu};

}  // namespace
}  // namespace membench::host
