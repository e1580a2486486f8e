// C2: the read-only data cache (ru lecture, Professional CUDA C 5.5.2): `const __restrict__`
// and __ldg against plain loads. 2^22 threads each sum 16 floats of a table, coalesced
// (lane l of the load stream reads element e, e + 1, ...) or scattered (a multiplicative
// permutation: the 32 lanes of a warp in 32 different sectors). A thread's 16 loads are a
// sixteenth of the table apart, so they read 16 different elements at every table size and
// every element is read equally often; output checked against the host reference.
// PTX (nvcc 13.0, sm_90): plain kernels load with ld.global (LDG.E, cached in L1 in the
// default build, STRONG.SM / STRONG.GPU in the ca / cg builds), restrict and ldg kernels
// with ld.global.nc (LDG.E.CONSTANT), which ignores -dlcm.
//
// Expected: on sm_90 L1 and the texture path are one cache, so in the default build the
// three loads should be close; the read-only path is not ordered with writes and skips
// coherence work, which helps scattered reads a little, and in the cg build it is the only
// way these loads can hit L1 (128K table: large gain for ldg/restrict). `speedup_vs_plain`
// is the plain row's time (same pattern and table, same run) over this row's.
// Bytes per launch: read_only_bytes = threads * (16 + 1) * 4 (loads as requested and the
// output); a scattered load moves a 32-byte sector for 4 useful bytes when it misses.
// Tables: 128 KiB (fits each SM's L1), 8 MiB (L2), 256 MiB (DRAM, one pass); L2 warm.
// Tiers: quick has plain and ldg loads of the 128 KiB table, coalesced and scattered (the
// L1 case, where the cg build differs most); the default tier has every row.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/speedup.hpp"
#include "kernels/cache/read_only.cuh"

namespace membench::cache {
namespace {

enum class load_path { plain, restrict, ldg };
constexpr std::array<load_path, 3> loads{load_path::plain, load_path::restrict, load_path::ldg};
constexpr std::array<std::uint64_t, 3> table_sizes{std::uint64_t{128} << 10, std::uint64_t{8} << 20, std::uint64_t{256} << 20};

const char* to_string(load_path l) {
  switch (l) {
    case load_path::plain: return "plain";
    case load_path::restrict: return "restrict";
    case load_path::ldg: return "ldg";
  }
  return "?";
}

struct read_only_workspace {
  device_buffer<float> in, out;
};

std::vector<name_param> read_only_params(bool scattered, load_path l, std::uint64_t bytes) {
  return {{"pattern", scattered ? "scattered" : "coalesced"}, {"load", to_string(l)}, {"l2", "warm"},
          {"bytes", format_size(bytes)}};
}

template <bool Scattered>
void launch_read_only(load_path l, const float* in, float* out, std::uint64_t n, cudaStream_t s) {
  constexpr auto grid = static_cast<unsigned>(read_only_threads / read_only_block);
  switch (l) {
    case load_path::plain: read_only_plain_kernel<Scattered><<<grid, read_only_block, 0, s>>>(in, out, n); break;
    case load_path::restrict: read_only_restrict_kernel<Scattered><<<grid, read_only_block, 0, s>>>(in, out, n); break;
    case load_path::ldg: read_only_ldg_kernel<Scattered><<<grid, read_only_block, 0, s>>>(in, out, n); break;
  }
}

template <bool Scattered>
void run_read_only(bench_context& ctx, load_path l, std::uint64_t bytes, const std::string& plain_name) {
  const std::uint64_t n = bytes / sizeof(float);
  auto& ws = ctx.workspace<read_only_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(bytes + read_only_threads * sizeof(float));
    read_only_workspace w{device_buffer<float>(n), device_buffer<float>(read_only_threads)};
    fill_values(w.in.data(), n, read_only_seed, ctx.stream());
    return w;
  });
  auto launch_of = [&ws, n](load_path which) {
    return [&ws, n, which](cudaStream_t s) { launch_read_only<Scattered>(which, ws.in.data(), ws.out.data(), n, s); };
  };
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = bytes > 2 * ctx.device().l2_bytes;  // only the DRAM table is a DRAM figure
  const output_check check = array_check(
      ctx, ws.out.data(), read_only_threads,
      [n](std::size_t t) { return read_only_expected<Scattered>(t, n, read_only_threads); }, "out",
      poison_values(ws.out.data(), read_only_threads));
  time_against_plain(ctx, opt, read_only_bytes(read_only_threads), launch_of(l), check, plain_name,
                     launch_of(load_path::plain));
}

// Quick: the L1-resident table through the plain and the read-only path.
constexpr suite_tier tier_of(load_path l, std::uint64_t bytes) {
  return l != load_path::restrict && bytes == table_sizes[0] ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  for (bool scattered : {false, true}) {
    for (load_path l : loads) {
      for (std::uint64_t bytes : table_sizes) {
        const std::string plain = f.name(read_only_params(scattered, load_path::plain, bytes));
        f.add(read_only_params(scattered, l, bytes), tier_of(l, bytes), [=](bench_context& ctx) {
          with_flag(scattered, [&](auto scatter) { run_read_only<decltype(scatter)::value>(ctx, l, bytes, plain); });
        });
      }
    }
  }
}

const family_registrar read_only_family{"cache/read_only", &make_cases,
    "the read-only data cache (const __restrict__, __ldg) against plain loads", family_needs::gpu};

}  // namespace
}  // namespace membench::cache
