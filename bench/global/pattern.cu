// G4: access patterns that separate the cache modes (the lessons' -Xptxas -dlcm=ca/cg).
// read_scatter gathers through a permutation, so every f32 load lands in its own 32-byte
// sector with no reuse; read_reuse has each block read its 4 KiB window 4 times over.
// Run in the three builds (membench, membench_ca, membench_cg) and compare.
//
// Expected: scattered reads gain nothing from L1 (cg should be no worse, and was better
// on GPUs with 128-byte L1 lines); reuse wins from L1 (default/ca) over L2-only (cg).
// Bytes per launch (requested): scatter 2*n*4, reuse n_out*(16+1)*4.
// Sizes: 4 MiB (L2 resident when warm), 1 GiB and 2 GiB (DRAM; a scattered 2 GiB pass
// takes ~10 ms, the long end of the timing checks against ncu), L2 cold and warm.
// Tiers: quick has 1 GiB with L2 cold (DRAM) and 4 MiB with L2 warm (L2) of each pattern;
// the default tier every row but 2 GiB (DRAM again, at twice the memory and verification).
#include <array>
#include <string>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "kernels/common/types.hpp"
#include "kernels/global/pattern.cuh"

namespace membench::global {
namespace {

constexpr std::array<std::uint64_t, 3> sizes{std::uint64_t{4} << 20, std::uint64_t{1} << 30, std::uint64_t{2} << 30};
constexpr unsigned scatter_block = 256;

struct pattern_workspace {
  device_buffer<float> in, out;
};

pattern_workspace& get_workspace(bench_context& ctx, std::uint64_t bytes) {
  const std::uint64_t n = bytes / sizeof(float);
  return ctx.workspace<pattern_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(2 * bytes);
    pattern_workspace w{device_buffer<float>(n), device_buffer<float>(n)};
    fill_values(w.in.data(), n, pattern_seed, ctx.stream());
    return w;
  });
}

void run_scatter(bench_context& ctx, l2_state l2, std::uint64_t bytes) {
  pattern_workspace& ws = get_workspace(ctx, bytes);
  const std::uint64_t n = ws.in.size();
  const auto grid = static_cast<unsigned>(blocks_for(n, scatter_block));
  auto launch = [&](cudaStream_t s) { read_scatter_kernel<float><<<grid, scatter_block, 0, s>>>(ws.in.data(), ws.out.data(), n); };
  ctx.verify_and_time(l2, scatter_bytes(n, sizeof(float)), launch,
                      array_check(ctx, ws.out.data(), n, [n](std::uint64_t i) { return read_scatter_expected<float>(i, n); },
                                  "out", poison_values(ws.out.data(), n)));
}

void run_reuse(bench_context& ctx, l2_state l2, std::uint64_t bytes) {
  pattern_workspace& ws = get_workspace(ctx, bytes);
  const std::uint64_t blocks = ws.in.size() / reuse_window;
  const std::uint64_t n_out = blocks * reuse_block;
  auto launch = [&](cudaStream_t s) {
    read_reuse_kernel<float><<<static_cast<unsigned>(blocks), reuse_block, 0, s>>>(ws.in.data(), ws.out.data());
  };
  // The whole buffer is checked: the elements past n_out must keep their poison.
  auto expected = [n_out](std::uint64_t o) { return o < n_out ? read_reuse_expected<float>(o) : poison_value<float>(); };
  const std::uint64_t n = ws.out.size();
  ctx.verify_and_time(l2, reuse_bytes(n_out, sizeof(float)), launch,
                      array_check(ctx, ws.out.data(), n, expected, "out", poison_values(ws.out.data(), n)));
}

constexpr suite_tier tier_of(l2_state l2, std::uint64_t bytes) {
  if (bytes == sizes[2]) return suite_tier::full;
  const bool headline = (l2 == l2_state::cold && bytes == sizes[1]) || (l2 == l2_state::warm && bytes == sizes[0]);
  return headline ? suite_tier::quick : suite_tier::standard;
}

template <bool Scatter>
void make_cases(family_builder& f) {
  for (l2_state l2 : {l2_state::cold, l2_state::warm}) {
    for (std::uint64_t bytes : sizes) {
      f.add({{"type", "f32"}, {"l2", to_string(l2)}, {"bytes", format_size(bytes)}}, tier_of(l2, bytes),
            [=](bench_context& ctx) {
              if (Scatter) {
                run_scatter(ctx, l2, bytes);
              } else {
                run_reuse(ctx, l2, bytes);
              }
            });
    }
  }
}

const family_registrar scatter_family{"global/read_scatter", &make_cases<true>,
    "scattered reads: where the cache modes (ca, cg) differ", family_needs::gpu};
const family_registrar reuse_family{"global/read_reuse", &make_cases<false>,
    "reads reused across warps: where the cache modes (ca, cg) differ", family_needs::gpu};

}  // namespace
}  // namespace membench::global
