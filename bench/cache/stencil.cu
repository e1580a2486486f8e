// C4: 1D stencil of radius 4 (Professional CUDA C 5.5.1): each block stages its 256 points
// and both 4-point halos in shared memory, then every thread computes
// sum_{j=1..4} c_j * (in[i + j] - in[i - j]) with the coefficients read from constant
// memory, through __ldg or with plain global loads; output checked bit for bit against a
// host stencil (both sides use fmaf in the same order). PTX (nvcc 13.0, sm_90): ld.const,
// ld.global.nc and ld.global for the coefficients respectively.
//
// Expected: every lane reads the same coefficient at the same time, the constant cache's
// best case, so source:constant should be at least as fast as the other two; the stencil
// is bandwidth bound, so the differences are small and shrink from the L2-resident size to
// the DRAM size. `speedup_vs_global` is the global row's time (same size, same run) over
// this row's.
// Bytes per launch: stencil_bytes = (n + 8 * n / 256) * 4 + n * 4 (tiles with halos read,
// points written); coefficient reads are not counted.
// Sizes (input bytes; the output is as large): 16 MiB with L2 warm (in and out fit the
// L2), 1 GiB with L2 cold (DRAM).
// Tiers: quick has the three sources at 16 MiB (no 1 GiB buffers, no 1 GiB host check);
// the default tier has every row.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "kernels/cache/stencil.cuh"

namespace membench::cache {
namespace {

constexpr std::array<stencil_source, 3> sources{stencil_source::global, stencil_source::ldg, stencil_source::constant};
struct stencil_size {
  std::uint64_t bytes;
  l2_state l2;
};
constexpr std::array<stencil_size, 2> sizes{{{std::uint64_t{16} << 20, l2_state::warm}, {std::uint64_t{1} << 30, l2_state::cold}}};

const char* to_string(stencil_source s) {
  switch (s) {
    case stencil_source::constant: return "constant";
    case stencil_source::ldg: return "ldg";
    case stencil_source::global: return "global";
  }
  return "?";
}

struct stencil_workspace {
  device_buffer<float> in, out, coef;
};

std::vector<name_param> stencil_params(stencil_source src, stencil_size size) {
  return {{"source", to_string(src)}, {"l2", to_string(size.l2)}, {"bytes", format_size(size.bytes)}};
}

void launch_stencil(stencil_source src, const stencil_workspace& ws, std::uint64_t n, cudaStream_t s) {
  const auto grid = static_cast<unsigned>(n / stencil_block);
  switch (src) {
    case stencil_source::constant:
      stencil_kernel<stencil_source::constant><<<grid, stencil_block, 0, s>>>(ws.in.data(), ws.out.data(), ws.coef.data());
      break;
    case stencil_source::ldg:
      stencil_kernel<stencil_source::ldg><<<grid, stencil_block, 0, s>>>(ws.in.data(), ws.out.data(), ws.coef.data());
      break;
    case stencil_source::global:
      stencil_kernel<stencil_source::global><<<grid, stencil_block, 0, s>>>(ws.in.data(), ws.out.data(), ws.coef.data());
      break;
  }
}

void run_stencil(bench_context& ctx, stencil_source src, stencil_size size, const std::string& global_name) {
  const std::uint64_t n = size.bytes / sizeof(float);
  const std::uint64_t n_in = n + 2 * stencil_radius;
  auto& ws = ctx.workspace<stencil_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes((n_in + n) * sizeof(float));
    stencil_workspace w{device_buffer<float>(n_in), device_buffer<float>(n), device_buffer<float>(stencil_radius)};
    fill_values(w.in.data(), n_in, stencil_seed, ctx.stream());
    std::array<float, stencil_radius> coef{};
    for (unsigned j = 1; j <= stencil_radius; ++j) coef[j - 1] = stencil_coefficient(j);
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(w.coef.data(), coef.data(), sizeof(coef), cudaMemcpyHostToDevice, ctx.stream()));
    MEMBENCH_CUDA_CHECK(
        cudaMemcpyToSymbolAsync(stencil_coef_constant, coef.data(), sizeof(coef), 0, cudaMemcpyHostToDevice, ctx.stream()));
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    return w;
  });
  auto launch_of = [&ws, n](stencil_source which) {
    return [&ws, n, which](cudaStream_t s) { launch_stencil(which, ws, n, s); };
  };
  launch_options opt;
  opt.l2 = size.l2;
  opt.report_pct_peak = size.l2 == l2_state::cold;  // the warm 16 MiB rows run from L2
  const double median =
      ctx.verify_and_time(opt, stencil_bytes(n), launch_of(src),
                          array_check(ctx, ws.out.data(), n, [](std::size_t i) { return stencil_expected(i); }, "out",
                                      poison_values(ws.out.data(), n)));
  const double global = ctx.reference_seconds(global_name, opt, launch_of(stencil_source::global));
  ctx.set_counter(schema::counter("speedup_vs_global"), global / median);
}

void make_cases(family_builder& f) {
  for (stencil_source src : sources) {
    for (stencil_size size : sizes) {
      const std::string global = f.name(stencil_params(stencil_source::global, size));
      // Quick: the L2-resident size only.
      f.add(stencil_params(src, size), size.l2 == l2_state::warm ? suite_tier::quick : suite_tier::standard,
            [=](bench_context& ctx) { run_stencil(ctx, src, size, global); });
    }
  }
}

const family_registrar stencil_family{"cache/stencil", &make_cases,
    "a 1D stencil: staged in shared memory against read from global memory", family_needs::gpu};

}  // namespace
}  // namespace membench::cache
