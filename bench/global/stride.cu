// G2: strided reads (The CUDA Handbook 5.2). out[i] = in[i * stride], one element per
// thread, over a 1 GiB input span, so the output shrinks as the stride grows.
//
// Expected: a warp's loads touch stride_warp_sectors 32-byte sectors; useful bandwidth
// falls with the load efficiency (1/stride for f32 up to 8 elements = one sector, then
// flat at 4/32 for f32 and 8/32 for f64 per sector, while the rows get latency bound).
// Bytes per launch: stride_bytes = 2 * n_out * sizeof(T) (useful bytes); the sector
// traffic and the efficiency are reported as counters from their formulas.
// Tiers: quick has f32 strides 1, 2, 8 (one element per sector) and 64; the default tier
// has every row.
#include <array>
#include <string>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "kernels/common/types.hpp"
#include "kernels/global/stride.cuh"

namespace membench::global {
namespace {

constexpr std::array<std::uint64_t, 14> strides{1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64};
constexpr std::array<std::uint64_t, 4> quick_strides{1, 2, 8, 64};
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
  auto& ws = ctx.workspace<stride_workspace<T>>({"type"}, [&] {
    ctx.require_device_bytes(2 * span_bytes);
    stride_workspace<T> w{device_buffer<T>(n_in), device_buffer<T>(n_in)};
    fill_values(w.in.data(), n_in, stride_seed, ctx.stream());
    return w;
  });
  const auto grid = static_cast<unsigned>(blocks_for(n_out, block));
  auto launch = [&](cudaStream_t s) { read_stride_kernel<T><<<grid, block, 0, s>>>(ws.in.data(), ws.out.data(), n_out, stride); };
  auto expected = [stride](std::uint64_t i) { return read_stride_expected<T>(i, stride); };
  ctx.verify_and_time(l2_state::cold, stride_bytes(n_out, sizeof(T)), launch,
                      array_check(ctx, ws.out.data(), n_out, expected, "out", poison_values(ws.out.data(), n_out)));
  const std::uint64_t sectors = n_out / 32 * stride_warp_sectors(stride, sizeof(T));
  ctx.set_counter(schema::counter("sector_bytes"), static_cast<double>(sectors * 32 + n_out * sizeof(T)));
  ctx.set_counter(schema::counter("load_efficiency_pct"), 100 * stride_load_efficiency(stride, sizeof(T)));
}

constexpr suite_tier tier_of(std::uint64_t stride, bool f32) {
  for (std::uint64_t q : quick_strides) {
    if (f32 && stride == q) return suite_tier::quick;
  }
  return suite_tier::standard;
}

template <class T>
void add_cases(family_builder& f) {
  for (std::uint64_t stride : strides) {
    f.add({{"type", type_token<T>}, {"stride", std::to_string(stride)}, {"l2", "cold"}, {"bytes", format_size(span_bytes)}},
          tier_of(stride, sizeof(T) == 4), [=](bench_context& ctx) { run_stride<T>(ctx, stride); });
  }
}

void make_cases(family_builder& f) {
  add_cases<float>(f);
  add_cases<double>(f);
}

const family_registrar read_stride_family{"global/read_stride", &make_cases,
    "strided global reads: bandwidth by stride", family_needs::gpu};

}  // namespace
}  // namespace membench::global
