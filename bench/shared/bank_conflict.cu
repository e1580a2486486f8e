// S1: shared-memory bank conflicts (the ru lecture: 32 banks of 4 bytes, N-way conflicts,
// broadcast, `__shared__ double as[32][33]`). Every block fills a tile in shared memory;
// each thread then issues 1024 volatile loads (128 rounds of 8, at element offsets 0..7 so
// each is one LDS with an immediate offset), lane l of warp w reading element
// l * lane_stride + w + j, and writes their sum, checked against the host reference.
// Patterns: strided (lane_stride 1..32 and 33), tile (column of W[32][32]), padded (column
// of W[32][33]) and broadcast (every lane one element), on 32- and 64-bit words. The grid
// is the kernel's full occupancy (8 blocks of 256 threads per SM), so the shared-memory
// pipe, not latency, bounds the time.
//
// Expected: a warp access takes as many wavefronts as the most distinct 32-bit words any
// bank holds within a 128-byte phase (tested on the host: gcd(stride, 32)-way for 32-bit
// words, gcd(stride, 16)-way for 64-bit words served in half-warp phases); the time per
// access grows about N-fold for an N-way conflict, padding (33) and broadcast are free.
// `slowdown` is the row's time over stride 1 of the same width in the same run;
// `ns_per_access` is the time per warp access on one SM (the launch over the accesses of
// one SM's warps), `clocks_per_access` the same at the maximum SM clock (the wavefronts per
// access: 1 for conflict-free 32-bit words, 2 for 64-bit), `model_degree` the bank model's
// conflict degree (its wavefronts over the conflict-free count).
// Bytes per launch: bank_bytes = threads * width * (1024 + 1): every lane's load as
// requested (a broadcast counts 32 times) plus the word each thread writes.
// Tiers: quick has 32-bit words at strides 1, 2 and 32, tile, padded and broadcast; the
// default tier has every row (each takes microseconds).
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/shared/bank_conflict.cuh"

namespace membench::shared {
namespace {

constexpr std::array<bank_pattern, 3> tile_patterns{bank_pattern::tile, bank_pattern::padded, bank_pattern::broadcast};
constexpr unsigned max_stride = 33;

template <class W>
struct bank_workspace {
  device_buffer<W> out;
};

template <class W>
std::vector<name_param> bank_params(bank_pattern p, unsigned stride) {
  return {{"width", std::to_string(sizeof(W))}, {"pattern", to_string(p)}, {"stride", std::to_string(lane_stride(p, stride))}};
}

// `conflict_free`: the name of the stride-1 row of the same width, the slowdown's reference.
template <class W>
void run_bank(bench_context& ctx, bank_pattern pattern, unsigned stride, const std::string& conflict_free) {
  const unsigned ls = lane_stride(pattern, stride);
  const int resident = resident_blocks_per_sm(bank_conflict_kernel<W>, bank_block);
  if (resident < 1) throw infeasible("bank_conflict_kernel cannot be resident");
  const auto per_sm = static_cast<unsigned>(resident);
  const unsigned blocks = per_sm * static_cast<unsigned>(ctx.device().sm_count);
  const std::uint64_t threads = std::uint64_t{blocks} * bank_block;
  auto& ws = ctx.workspace<bank_workspace<W>>({}, [&] {
    ctx.require_device_bytes(threads * sizeof(W));
    return bank_workspace<W>{device_buffer<W>(threads)};
  });
  auto launch_with = [&](unsigned s_ls) {
    return [&ws, blocks, s_ls](cudaStream_t s) {
      bank_conflict_kernel<W><<<blocks, bank_block, 0, s>>>(s_ls, bank_reps, ws.out.data());
    };
  };
  auto expected = [ls](std::size_t i) { return bank_expected<W>(ls, static_cast<unsigned>(i % bank_block), bank_reps); };
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;  // shared memory: no DRAM figure
  const double median = ctx.verify_and_time(opt, bank_bytes(threads, sizeof(W), bank_reps), launch_with(ls),
                                            array_check(ctx, ws.out.data(), threads, expected, "out", poison_bytes(ws.out.data(), threads * sizeof(W))));
  const double reference = ctx.reference_seconds(conflict_free, opt, launch_with(lane_stride(bank_pattern::strided, 1)));
  const double accesses_per_sm = static_cast<double>(per_sm) * bank_warps * bank_reps * bank_unroll;
  const double ns_per_access = median * 1e9 / accesses_per_sm;
  ctx.set_counter(schema::counter("slowdown"), median / reference);
  ctx.set_counter(schema::counter("ns_per_access"), ns_per_access);
  ctx.set_counter(schema::counter("clocks_per_access"), ns_per_access * ctx.device().sm_clock_khz / 1e6);
  ctx.set_counter(schema::counter("model_degree"), bank_conflict_degree(ls, sizeof(W)));
  ctx.set_counter(schema::counter("blocks_per_sm"), per_sm);
}

// Quick (32-bit words): conflict free, 2-way, 32-way, the transpose's column and its two fixes.
constexpr suite_tier tier_of(std::size_t width, bank_pattern p, unsigned stride) {
  const bool headline = p != bank_pattern::strided || stride == 1 || stride == 2 || stride == 32;
  return width == 4 && headline ? suite_tier::quick : suite_tier::standard;
}

template <class W>
void add_case(family_builder& f, bank_pattern p, unsigned stride, const std::string& conflict_free) {
  f.add(bank_params<W>(p, stride), tier_of(sizeof(W), p, stride),
        [=](bench_context& ctx) { run_bank<W>(ctx, p, stride, conflict_free); });
}

template <class W>
void add_cases(family_builder& f) {
  const std::string conflict_free = f.name(bank_params<W>(bank_pattern::strided, 1));
  for (unsigned stride = 1; stride <= max_stride; ++stride) add_case<W>(f, bank_pattern::strided, stride, conflict_free);
  for (bank_pattern p : tile_patterns) add_case<W>(f, p, 0, conflict_free);
}

void make_cases(family_builder& f) {
  add_cases<std::uint32_t>(f);
  add_cases<std::uint64_t>(f);
}

const family_registrar bank_conflict_family{"shared/bank_conflict", &make_cases,
    "shared-memory bank conflicts: N-way conflicts by stride", family_needs::gpu};

}  // namespace
}  // namespace membench::shared
