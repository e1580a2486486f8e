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
#include <array>
#include <string>

#include "harness/harness_kernels.hpp"
#include "harness/registry.hpp"
#include "harness/verify.hpp"
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

void fill_host(float* v, std::size_t n, std::uint32_t seed) {
  parallel_parts(n, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) v[i] = pattern_value<float>(i, seed);
  });
}

bench_name row_name(bool mapped, std::uint64_t bytes) {
  return {"host", "zero_copy", {{"memory", mapped ? "mapped" : "device"}, {"type", "f32"}, {"bytes", format_size(bytes)}}};
}

void run_zero_copy(bench_context& ctx, bool mapped, std::uint64_t bytes) {
  const std::size_t n = bytes / sizeof(float);
  auto& ws = ctx.workspace<zero_copy_workspace>("host/zero_copy/" + std::to_string(bytes), [&] {
    ctx.require_device_bytes(3 * bytes);
    zero_copy_workspace w{device_buffer<float>(n), device_buffer<float>(n), device_buffer<float>(n),
                          mapped_buffer<float>(n), mapped_buffer<float>(n)};
    fill_values(w.a.data(), n, zero_copy_seed_a, ctx.stream());
    fill_values(w.b.data(), n, zero_copy_seed_b, ctx.stream());
    fill_host(w.ha.data(), n, zero_copy_seed_a);
    fill_host(w.hb.data(), n, zero_copy_seed_b);
    return w;
  });
  const auto grid = static_cast<unsigned>(blocks_for(n, block));
  const float* ha = ws.ha.device_data();
  const float* hb = ws.hb.device_data();
  auto on_device = [&](cudaStream_t s) { sum_arrays_kernel<float><<<grid, block, 0, s>>>(ws.a.data(), ws.b.data(), ws.c.data(), n); };
  auto on_host = [&](cudaStream_t s) { sum_arrays_kernel<float><<<grid, block, 0, s>>>(ha, hb, ws.c.data(), n); };
  auto launch = [&](cudaStream_t s) { mapped ? on_host(s) : on_device(s); };
  ctx.verify_once([&] {
    fill_poison(ws.c.data(), n, ctx.stream());
    launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    verify_device_array(ctx.stream(), ws.c.data(), n, [](std::size_t i) { return sum_arrays_expected<float>(i); }, "c");
  });
  launch_options opt;
  opt.l2 = l2_state::cold;
  opt.report_pct_peak = !mapped;  // mapped rows read over PCIe: pct_pcie below, not DRAM
  const double t = ctx.time_launches(opt, sum_arrays_bytes(n, sizeof(float)), launch);
  if (!mapped) return;
  launch_options device_opt;
  device_opt.l2 = l2_state::cold;
  const double t_device = ctx.reference_seconds(row_name(false, bytes).str(), device_opt, on_device);
  ctx.set_counter("slowdown", t / t_device);
  const double host_gbps = static_cast<double>(sum_arrays_host_bytes(n, sizeof(float))) / t / 1e9;
  ctx.set_counter("host_gb_per_s", host_gbps);
  if (ctx.pcie()) ctx.set_counter("pct_pcie", 100 * host_gbps / ctx.pcie()->gbps());
}

std::vector<bench_case> make_cases() {
  std::vector<bench_case> cases;
  for (std::uint64_t bytes : sizes) {
    for (bool mapped : {false, true}) {  // the device row first: the mapped row's reference
      cases.push_back(make_case(row_name(mapped, bytes), [=](bench_context& ctx) { run_zero_copy(ctx, mapped, bytes); }));
    }
  }
  return cases;
}

const family_registrar zero_copy_family{"host/zero_copy", &make_cases};

}  // namespace
}  // namespace membench::host
