// C3: constant memory vs the read-only path vs plain global loads (Professional CUDA C
// 5.5, it ch. 4): 2^20 threads each sum 64 elements of a table of 1 KiB to 64 KiB (the
// whole constant bank a kernel addresses), at an index the same for all lanes of a warp
// (uniform) or different for every lane (per_lane); output checked against the host
// reference. PTX (nvcc 13.0, sm_90): ld.const (LDC) for load:constant, ld.global.nc
// (LDG.E.CONSTANT) for ldg, ld.global (LDG.E) for plain.
//
// Expected: the constant cache serves one address per warp per cycle, so uniform reads are
// the cheapest of the three while per-lane reads serialise up to 32 ways and fall far
// behind __ldg and plain loads (which serve 32 addresses through L1 at sector granularity);
// the larger tables also miss the small constant cache. `speedup_vs_plain` is the plain
// row's time (same pattern and table, same run) over this row's.
// Bytes per launch: constant_bytes = threads * (64 + 1) * 4, loads as requested by the
// threads (a uniform load serves 32 of them from one address) plus the output.
// Tiers: quick has plain and constant loads of the 1 KiB table, uniform and per_lane (the
// serialisation); the default tier has every row (all are short).
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/speedup.hpp"
#include "kernels/cache/constant.cuh"

namespace membench::cache {
namespace {

enum class table_load { plain, ldg, constant };
constexpr std::array<table_load, 3> loads{table_load::plain, table_load::ldg, table_load::constant};
constexpr std::array<std::uint64_t, 4> table_sizes{std::uint64_t{1} << 10, std::uint64_t{4} << 10, std::uint64_t{16} << 10,
                                                   std::uint64_t{64} << 10};

const char* to_string(table_load l) {
  switch (l) {
    case table_load::plain: return "plain";
    case table_load::ldg: return "ldg";
    case table_load::constant: return "constant";
  }
  return "?";
}

struct constant_workspace {
  device_buffer<float> table, out;
};

std::vector<name_param> constant_params(bool per_lane, table_load l, std::uint64_t bytes) {
  return {{"pattern", per_lane ? "per_lane" : "uniform"}, {"load", to_string(l)}, {"bytes", format_size(bytes)}};
}

template <bool PerLane>
void launch_constant(table_load l, const float* table, float* out, unsigned n, cudaStream_t s) {
  constexpr auto grid = static_cast<unsigned>(constant_threads / constant_block);
  switch (l) {
    case table_load::plain: constant_plain_kernel<PerLane><<<grid, constant_block, 0, s>>>(table, out, n); break;
    case table_load::ldg: constant_ldg_kernel<PerLane><<<grid, constant_block, 0, s>>>(table, out, n); break;
    case table_load::constant: constant_constant_kernel<PerLane><<<grid, constant_block, 0, s>>>(out, n); break;
  }
}

template <bool PerLane>
void run_constant(bench_context& ctx, table_load l, std::uint64_t bytes, const std::string& plain_name) {
  const auto n = static_cast<unsigned>(bytes / sizeof(float));
  // One workspace for every row: the full 64 KiB table, in global memory and in the
  // constant bank, with the same values.
  auto& ws = ctx.workspace<constant_workspace>({}, [&] {
    ctx.require_device_bytes((constant_table_max + constant_threads) * sizeof(float));
    constant_workspace w{device_buffer<float>(constant_table_max), device_buffer<float>(constant_threads)};
    std::vector<float> host(constant_table_max);
    for (unsigned i = 0; i < constant_table_max; ++i) host[i] = constant_value(i);
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(w.table.data(), host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice,
                                        ctx.stream()));
    MEMBENCH_CUDA_CHECK(cudaMemcpyToSymbolAsync(constant_table, host.data(), host.size() * sizeof(float), 0,
                                                cudaMemcpyHostToDevice, ctx.stream()));
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    return w;
  });
  auto launch_of = [&ws, n](table_load which) {
    return [&ws, n, which](cudaStream_t s) { launch_constant<PerLane>(which, ws.table.data(), ws.out.data(), n, s); };
  };
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;  // a table in the constant and L1 caches: no DRAM figure
  const output_check check =
      array_check(ctx, ws.out.data(), constant_threads, [n](std::size_t t) { return constant_expected<PerLane>(t, n); },
                  "out", poison_values(ws.out.data(), constant_threads));
  time_against_plain(ctx, opt, constant_bytes(constant_threads), launch_of(l), check, plain_name,
                     launch_of(table_load::plain));
}

// Quick: the 1 KiB table (no constant-cache misses) read plain and from the constant bank.
constexpr suite_tier tier_of(table_load l, std::uint64_t bytes) {
  return l != table_load::ldg && bytes == table_sizes[0] ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  for (bool per_lane : {true, false}) {
    for (table_load l : loads) {
      for (std::uint64_t bytes : table_sizes) {
        const std::string plain = f.name(constant_params(per_lane, table_load::plain, bytes));
        f.add(constant_params(per_lane, l, bytes), tier_of(l, bytes), [=](bench_context& ctx) {
          with_flag(per_lane, [&](auto lanes) { run_constant<decltype(lanes)::value>(ctx, l, bytes, plain); });
        });
      }
    }
  }
}

const family_registrar constant_family{"cache/constant", &make_cases,
    "constant memory against the read-only path and plain loads, uniform and per-lane indices", family_needs::gpu};

}  // namespace
}  // namespace membench::cache
