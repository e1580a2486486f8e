// G2: strided reads (The CUDA Handbook 5.2). out[i] = in[i * stride], one element per
// thread, over a 1 GiB input span, so the output shrinks as the stride grows.
//
// Expected: a warp's loads touch stride_warp_sectors 32-byte sectors; useful bandwidth
// falls with the load efficiency (1/stride for f32 up to 8 elements = one sector, then
// flat at 4/32 for f32 and 8/32 for f64 per sector, while the rows get latency bound).
// Bytes per launch: stride_bytes = 2 * n_out * sizeof(T) (useful bytes); the sector
// traffic and the efficiency are reported as counters from their formulas.
#include <array>
#include <string>

#include "harness/harness_kernels.hpp"
#include "harness/registry.hpp"
#include "harness/verify.hpp"
#include "kernels/common/types.hpp"
#include "kernels/global/stride.cuh"

namespace membench::global {
namespace {

constexpr std::array<std::uint64_t, 14> strides{1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64};
constexpr std::uint64_t span_bytes = std::uint64_t{1} << 30;
constexpr unsigned block = 256;

template <class T>
struct stride_workspace {
  device_buffer<T> in, out;
};

template <class T>
void run_stride(bench_context& ctx, std::uint64_t stride) {
  const std::uint64_t n_in = span_bytes / sizeof(T);
  const std::uint64_t n_out = n_in / stride;
  auto& ws = ctx.workspace<stride_workspace<T>>(std::string("global/read_stride/") + type_token<T>, [&] {
    ctx.require_device_bytes(2 * span_bytes);
    stride_workspace<T> w{device_buffer<T>(n_in), device_buffer<T>(n_in)};
    fill_values(w.in.data(), n_in, stride_seed, ctx.stream());
    return w;
  });
  const auto grid = static_cast<unsigned>(blocks_for(n_out, block));
  auto launch = [&](cudaStream_t s) { read_stride_kernel<T><<<grid, block, 0, s>>>(ws.in.data(), ws.out.data(), n_out, stride); };
  ctx.verify_once([&] {
    fill_poison(ws.out.data(), n_out, ctx.stream());
    launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    verify_device_array(ctx.stream(), ws.out.data(), n_out, [&](std::uint64_t i) { return read_stride_expected<T>(i, stride); },
                        "out");
  });
  const std::uint64_t sectors = n_out / 32 * stride_warp_sectors(stride, sizeof(T));
  ctx.set_counter("sector_bytes", static_cast<double>(sectors * 32 + n_out * sizeof(T)));
  ctx.set_counter("load_efficiency_pct", 100 * stride_load_efficiency(stride, sizeof(T)));
  ctx.time_launches(l2_state::cold, stride_bytes(n_out, sizeof(T)), launch);
}

template <class T>
void add_cases(std::vector<bench_case>& cases) {
  for (std::uint64_t stride : strides) {
    bench_name name{"global", "read_stride",
                    {{"type", type_token<T>}, {"stride", std::to_string(stride)}, {"l2", "cold"},
                     {"bytes", format_size(span_bytes)}}};
    cases.push_back(make_case(name, [=](bench_context& ctx) { run_stride<T>(ctx, stride); }));
  }
}

std::vector<bench_case> make_cases() {
  std::vector<bench_case> cases;
  add_cases<float>(cases);
  add_cases<double>(cases);
  return cases;
}

const family_registrar read_stride_family{"global/read_stride", &make_cases};

}  // namespace
}  // namespace membench::global
