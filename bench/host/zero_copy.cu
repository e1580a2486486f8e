// H2: zero-copy (Professional CUDA C ch. 4, sumArraysZerocpy, table 4-3). c = a + b, one
// element per thread, with a and b in device memory or in mapped page-locked host memory
// (cudaHostAllocMapped) read by the kernel across PCIe; c is in device memory in both.
//
// Expected: small arrays cost little more than device memory (the launch dominates); from
// a few hundred KiB the mapped reads are bound by the PCIe link and the slowdown grows to
// the ratio of DRAM to PCIe bandwidth (the lesson: 1.8x at 1 K elements to 12.5x at 64 M on
// a Tesla M2090; Hopper's DRAM grew far more than PCIe, so expect a larger ratio).
// Each mapped row reports `slowdown` = its time / the device-memory row of the same size,
// measured in the same run, and `host_gb_per_s` / `pct_pcie` for the bytes read from the host.
// Bytes per launch: sum_arrays_bytes (3 n sizeof(T)); host bytes sum_arrays_host_bytes.
// Sizes: 1 K to 256 M f32 elements per array (4 KiB to 1 GiB).
// Tiers: quick has both memories at 4 KiB (the launch dominates) and 16 MiB (bound by the
// link); the default tier has every size up to 256 MiB, where the slowdown has long reached
// its ratio; 1 GiB (3 GiB of device memory, 2 GiB of mapped host memory to make) is in the
// full tier only.
#include <array>
#include <string>
#include <vector>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "host/pcie_options.hpp"
#include "kernels/common/types.hpp"
#include "kernels/host/zero_copy.cuh"

namespace membench::host {
namespace {

constexpr unsigned block = 256;

constexpr std::array<std::uint64_t, 10> sizes{
    std::uint64_t{4} << 10,  std::uint64_t{16} << 10, std::uint64_t{64} << 10, std::uint64_t{256} << 10,
    std::uint64_t{1} << 20,  std::uint64_t{4} << 20,  std::uint64_t{16} << 20, std::uint64_t{64} << 20,
    std::uint64_t{256} << 20, std::uint64_t{1} << 30};

struct zero_copy_workspace {
  device_buffer<float> a, b, c;
  mapped_buffer<float> ha, hb;
};

std::vector<name_param> row_params(bool mapped, std::uint64_t bytes) {
  return {{"memory", mapped ? "mapped" : "device"}, {"type", "f32"}, {"bytes", format_size(bytes)}};
}

/// `device_row`: the name of the device-memory row of the same size, the reference of
/// the mapped row's slowdown.
void run_zero_copy(bench_context& ctx, bool mapped, std::uint64_t bytes, const std::string& device_row) {
  const std::size_t n = bytes / sizeof(float);
  auto& ws = ctx.workspace<zero_copy_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(3 * bytes);
    zero_copy_workspace w{device_buffer<float>(n), device_buffer<float>(n), device_buffer<float>(n),
                          mapped_buffer<float>(n), mapped_buffer<float>(n)};
    fill_values(w.a.data(), n, zero_copy_seed_a, ctx.stream());
    fill_values(w.b.data(), n, zero_copy_seed_b, ctx.stream());
    fill_host(w.ha.data(), n, [](std::size_t i) { return pattern_value<float>(i, zero_copy_seed_a); });
    fill_host(w.hb.data(), n, [](std::size_t i) { return pattern_value<float>(i, zero_copy_seed_b); });
    return w;
  });
  const auto grid = static_cast<unsigned>(blocks_for(n, block));
  const float* ha = ws.ha.device_data();
  const float* hb = ws.hb.device_data();
  auto on_device = [&](cudaStream_t s) { sum_arrays_kernel<float><<<grid, block, 0, s>>>(ws.a.data(), ws.b.data(), ws.c.data(), n); };
  auto on_host = [&](cudaStream_t s) { sum_arrays_kernel<float><<<grid, block, 0, s>>>(ha, hb, ws.c.data(), n); };
  auto launch = [&](cudaStream_t s) { mapped ? on_host(s) : on_device(s); };
  launch_options opt;
  opt.l2 = l2_state::cold;
  opt.report_pct_peak = !mapped;  // mapped rows read over PCIe: pct_pcie below, not DRAM
  opt.host_work = mapped;         // ... from host memory, whose placement differs from run to run
  const double t = ctx.verify_and_time(opt, sum_arrays_bytes(n, sizeof(float)), launch,
                                       array_check(ctx, ws.c.data(), n, sum_arrays_expected<float>, "c",
                                                   poison_values(ws.c.data(), n)));
  if (!mapped) return;
  const double t_device = ctx.reference_seconds(device_row, launch_options{}, on_device);  // L2 cold, as that row
  ctx.set_counter(schema::counter("slowdown"), t / t_device);
  const double host_gbps = static_cast<double>(sum_arrays_host_bytes(n, sizeof(float))) / t / 1e9;
  ctx.set_counter(schema::counter("host_gb_per_s"), host_gbps);
  if (ctx.pcie()) ctx.set_counter(schema::counter("pct_pcie"), 100 * host_gbps / ctx.pcie()->gbps());
}

// Quick: the two ends of the effect, latency bound and link bound.
constexpr suite_tier tier_of(std::uint64_t bytes) {
  if (bytes == sizes[0] || bytes == sizes[6]) return suite_tier::quick;
  return bytes < sizes[9] ? suite_tier::standard : suite_tier::full;
}

void make_cases(family_builder& f) {
  for (std::uint64_t bytes : sizes) {
    const std::string device_row = f.name(row_params(false, bytes));
    for (bool mapped : {false, true}) {  // the device row first: the mapped row's reference
      f.add(row_params(mapped, bytes), tier_of(bytes),
            [=](bench_context& ctx) { run_zero_copy(ctx, mapped, bytes, device_row); });
    }
  }
}

const family_registrar zero_copy_family{"host/zero_copy", &make_cases,
    "zero-copy: a kernel reading mapped pinned host memory", family_needs::gpu};

}  // namespace
}  // namespace membench::host
