// The SM clock, read true (beyond the lessons): every SM spins one warp for a known number of
// SM cycles (clock64), timed with events over milliseconds. The clock is the slope of cycles
// against time between this row's spin and one of half as many cycles, measured in the same
// row, so the launch's fixed cost (launch and events, a few microseconds) drops out:
// `event_sm_clock_mhz`, resolved to about 0.01 % (the event timer's 0.5 us step over the
// halves' 4-8 ms difference); and `spin_fixed_cost_us`, the time per launch that dropped out
// (what timing leaves of launch and block start: small, and negative where blocks start skewed). Its
// interval is the row's (`ci_low_us`, `ci_high_us`) counted for both spins in quadrature
// over the time between them: sqrt(2) x half width x 2 x MHz / cycles. The row
// also carries what every row carries: the per-sample probe (`sm_clock_mhz`, a 4 us window of
// the globaltimer, whose step is about 0.8 % of it) and NVML's clock (`nvml_sm_clock_mhz`),
// so the three readings of one clock stand side by side.
//
// Expected: the probe and the events agree within the probe's step; NVML reads a fixed
// application clock (1980 MHz on H100 and H200 SXM). A slope above NVML's maximum would say
// clock64 and the events disagree; one below, that the clock fell while one warp per SM spun.
// Bytes per launch: 0 (no memory is moved: no GB/s, no ceiling).
// Verification: thread 0 of block 0 writes the cycles it spun; each spin, long and short, must
// reach its target and overshoot it by at most one part in 10 000 (spin_ok), and the slope
// must lie between 0 and 1.02 x the GPU's maximum clock, or the row is an error.
// Cycles: 16M and 32M (about 8 and 16 ms at 2 GHz). Tiers: the default tier has both; the quick
// tier none until they are measured on a GPU.
#include <array>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "kernels/compute/sm_clock.hpp"

namespace membench::compute {
namespace {

__global__ void sm_clock_kernel(long long cycles, long long* spun) {
  const long long c0 = clock64();
  long long c1 = c0;
  while (c1 - c0 < cycles) c1 = clock64();
  if (blockIdx.x == 0 && threadIdx.x == 0) *spun = c1 - c0;
}

constexpr std::array<std::int64_t, 2> spins{std::int64_t{16} << 20, std::int64_t{32} << 20};
constexpr unsigned warp = 32;

struct clock_workspace {
  device_buffer<long long> spun;
};

launch_fn spin_launch(bench_context& ctx, std::int64_t cycles, long long* spun) {
  const auto grid = static_cast<unsigned>(ctx.device().sm_count);
  return [=](cudaStream_t s) { sm_clock_kernel<<<grid, warp, 0, s>>>(cycles, spun); };
}

output_check spin_check(bench_context& ctx, long long* spun, std::int64_t cycles) {
  return {poison_bytes(spun, sizeof(long long), 0xff), [&ctx, spun, cycles] {
            const long long got = read_device_value(ctx.reader(), spun);
            if (!spin_ok(got, cycles))
              throw verification_error("a spin of " + std::to_string(cycles) + " SM cycles measured " + std::to_string(got) +
                                       " (it must reach its target and overshoot it by at most " +
                                       std::to_string(spin_overshoot_limit(cycles)) + "; preempted or time-sliced GPU?)");
          }};
}

// The short spin's cycles, read back after it was sampled: it feeds the slope as much as the
// long one, so it is checked as the long one was.
void check_short_spin(bench_context& ctx, long long* spun, std::int64_t cycles) {
  const long long got = read_device_value(ctx.reader(), spun);
  if (!spin_ok(got, cycles))
    throw verification_error("the half-length spin of " + std::to_string(cycles) + " SM cycles measured " +
                             std::to_string(got) + " (preempted or time-sliced GPU?)");
}

// A slope is a clock only between the two spins' times and below the GPU's maximum (with room
// for the maximum's rounding): otherwise clock64 and the events disagree, or a median was empty.
void check_slope(bench_context& ctx, double long_s, double short_s, double mhz) {
  const double max_mhz = ctx.device().sm_clock_khz / 1e3;
  if (!(short_s > 0) || !(long_s > short_s) || !(mhz > 0) || (max_mhz > 0 && mhz > 1.02 * max_mhz))
    throw verification_error("no clock from the spins: " + std::to_string(long_s * 1e6) + " us and " +
                             std::to_string(short_s * 1e6) + " us give " + std::to_string(mhz) + " MHz (maximum " +
                             std::to_string(max_mhz) + " MHz)");
}

void run_sm_clock(bench_context& ctx, std::int64_t cycles) {
  auto& ws = ctx.workspace<clock_workspace>({}, [] { return clock_workspace{device_buffer<long long>(1)}; });
  launch_options opt;
  opt.l2 = l2_state::warm;  // no memory is read: a flush would only add time outside the spin
  opt.report_pct_peak = false;
  const double long_s = ctx.verify_and_time(opt, 0, spin_launch(ctx, cycles, ws.spun.data()), spin_check(ctx, ws.spun.data(), cycles));
  const double short_s = ctx.measure(opt, spin_launch(ctx, cycles / 2, ws.spun.data()));
  check_short_spin(ctx, ws.spun.data(), cycles / 2);
  const double mhz = slope_mhz(cycles, long_s, cycles / 2, short_s);
  check_slope(ctx, long_s, short_s, mhz);
  ctx.set_counter(schema::counter("event_sm_clock_mhz"), mhz);
  ctx.set_counter(schema::counter("spin_fixed_cost_us"), fixed_cost_us(cycles, long_s, mhz));
}

void make_cases(family_builder& f) {
  for (std::int64_t cycles : spins) {
    f.add({{"cycles", format_size(static_cast<std::uint64_t>(cycles))}}, suite_tier::standard,
          [=](bench_context& ctx) { run_sm_clock(ctx, cycles); });
  }
}

const family_registrar sm_clock_family{"compute/sm_clock", &make_cases,
    "the SM clock from spins of known cycles timed with events (slope of two lengths)", family_needs::gpu};

}  // namespace
}  // namespace membench::compute
