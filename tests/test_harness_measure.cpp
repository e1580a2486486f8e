// The measurement layer's host logic: the stopping criterion, the clock guard, progress.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "harness/measure/clock_guard.hpp"
#include "harness/measure/stopping.hpp"
#include "harness/measure/timer_floor.hpp"
#include "harness/options/options.hpp"
#include "harness/process/progress.hpp"

namespace membench {
namespace {

TEST(StoppingRule, DefaultsAreValid) { EXPECT_FALSE(validate(stopping_rule{}).has_value()); }

TEST(StoppingRule, RejectsNonsense) {
  EXPECT_TRUE(validate({.min_samples = 0}).has_value());
  EXPECT_TRUE(validate({.max_ci_pct = 0}).has_value());
  EXPECT_TRUE(validate({.max_ci_pct = std::nan("")}).has_value());
  EXPECT_TRUE(validate({.max_ci_host_pct = -1}).has_value());
  EXPECT_TRUE(validate({.ci_level_pct = 100}).has_value());
  EXPECT_TRUE(validate({.ci_level_pct = 20}).has_value());
  EXPECT_TRUE(validate({.max_time_s = -0.1}).has_value());
  EXPECT_TRUE(validate({.min_time_s = -1}).has_value());
  EXPECT_TRUE(validate({.row_limit_s = std::numeric_limits<double>::infinity()}).has_value());
}

stopping_rule rule(int min_samples, double max_ci_pct, double budget) {
  stopping_rule r;
  r.min_samples = min_samples;
  r.max_ci_pct = max_ci_pct;
  r.max_ci_host_pct = 2 * max_ci_pct;
  r.max_time_s = budget;
  r.max_time_host_s = 2 * budget;
  r.row_limit_s = 10 * budget;
  return r;
}

TEST(StoppingCriterion, TightSamplesStopAtTheMinimum) {
  stopping_criterion c(rule(10, 0.5, 100), false);
  for (int i = 0; i < 9; ++i) c.add(1e-3 * (1 + 1e-4 * i));
  EXPECT_FALSE(c.done(0.0)) << "nine samples are below the minimum";
  c.add(1e-3);
  EXPECT_TRUE(c.converged());
  EXPECT_TRUE(c.done(0.0));
  EXPECT_EQ(c.unconverged_reason(), "");
}

TEST(StoppingCriterion, OutliersDoNotHoldARowHostage) {
  // stddev/mean of these samples is ~50 %; the median's interval is 0.1 %.
  stopping_criterion c(rule(10, 0.5, 100), false);
  for (int i = 0; i < 30; ++i) c.add(i % 10 == 0 ? 5e-3 : 1e-3 * (1 + 1e-4 * (i % 7)));
  EXPECT_TRUE(c.converged());
}

TEST(StoppingCriterion, TheIntervalShrinksAsSamplesAccumulate) {
  // Two-valued samples 1.00 / 1.10 ms: noise ~5 % never falls, but the median's interval
  // closes once both order statistics sit on the same value.
  stopping_criterion c(rule(10, 0.5, 100), false);
  int i = 0;
  for (; i < 10; ++i) c.add(i % 2 == 0 ? 1.0e-3 : 1.1e-3);
  EXPECT_FALSE(c.converged()) << "half 1.0, half 1.1: the interval spans both";
  for (; i < 200; ++i) c.add(i % 3 == 0 ? 1.1e-3 : 1.0e-3);
  EXPECT_TRUE(c.converged()) << "two thirds at 1.0 ms: the median and its interval sit on it";
}

TEST(StoppingCriterion, NoisySamplesRunOutTheBudget) {
  stopping_criterion c(rule(10, 0.5, 1.0), false);
  for (int i = 0; i < 100; ++i) c.add(1e-3 * (1 + 0.2 * ((i * 37) % 100) / 100.0));  // spread over 20 %
  EXPECT_FALSE(c.converged());
  EXPECT_FALSE(c.done(0.99));
  EXPECT_TRUE(c.done(1.0));
  EXPECT_EQ(c.unconverged_reason(), "budget");
}

TEST(StoppingCriterion, HostRowsHaveTheirOwnTargetAndBudget) {
  stopping_criterion kernel(rule(10, 0.5, 1.0), false), host(rule(10, 0.5, 1.0), true);
  EXPECT_DOUBLE_EQ(kernel.target_pct(), 0.5);
  EXPECT_DOUBLE_EQ(host.target_pct(), 1.0);
  EXPECT_DOUBLE_EQ(host.budget_s(), 2.0);
}

TEST(StoppingCriterion, ABudgetScaleLengthensOnlyTheBudget) {
  stopping_criterion c(rule(10, 0.5, 1.0), false, 16), host(rule(10, 0.5, 1.0), true, 16);
  EXPECT_DOUBLE_EQ(c.budget_s(), 16.0);
  EXPECT_DOUBLE_EQ(c.target_pct(), 0.5);
  EXPECT_DOUBLE_EQ(host.budget_s(), 32.0);
  for (int i = 0; i < 100; ++i) c.add(1e-3 * (1 + 0.2 * ((i * 37) % 100) / 100.0));  // spread over 20 %
  EXPECT_FALSE(c.done(15.9));
  EXPECT_TRUE(c.done(16.0));
  EXPECT_EQ(c.unconverged_reason(), "budget");
  stopping_criterion tight(rule(10, 0.5, 1.0), false, 16);
  for (int i = 0; i < 10; ++i) tight.add(1e-3);
  EXPECT_TRUE(tight.done(0.0)) << "a row that converges stops whatever its budget";
}

TEST(StoppingCriterion, NeverStopsShortOfTheMinimumBeforeTheRowLimit) {
  stopping_criterion c(rule(10, 0.5, 1.0), false);
  for (int i = 0; i < 5; ++i) c.add(0.5);
  EXPECT_FALSE(c.done(5.0)) << "past the budget, but five samples are too few";
  EXPECT_TRUE(c.done(10.0)) << "the row limit ends it";
  EXPECT_EQ(c.unconverged_reason(), "row_limit");
}

TEST(StoppingCriterion, GivesUpWhenTheClocksSpoilEverySample) {
  stopping_criterion c(rule(10, 0.5, 1.0), false);
  for (int i = 0; i < 3; ++i) c.add(1e-3);
  for (int i = 0; i < 40; ++i) c.discard();
  EXPECT_TRUE(c.done(1.0)) << "past the budget with 40 of 43 samples discarded";
  EXPECT_EQ(c.unconverged_reason(), "throttled");
}

TEST(StoppingCriterion, MinTimeHoldsBackConvergence) {
  stopping_rule r = rule(1, 1, 10);
  r.min_time_s = 0.01;
  stopping_criterion c(r, false);
  for (int i = 0; i < 9; ++i) c.add(1e-3);
  EXPECT_FALSE(c.converged());
  c.add(1e-3);
  EXPECT_TRUE(c.converged());
}

TEST(StoppingCriterion, HalfWidthIsRelativeToTheMedian) {
  median_interval ci;
  ci.low = 0.99;
  ci.high = 1.01;
  ci.defined = true;
  EXPECT_NEAR(stopping_criterion::half_width_pct(ci, 1.0), 1.0, 1e-12);
  ci.defined = false;
  EXPECT_TRUE(std::isinf(stopping_criterion::half_width_pct(ci, 1.0)));
}

TEST(ClockGuard, DropsSamplesUnderTheThresholdOfTheReferenceClock) {
  clock_policy p;
  p.threshold_pct = 95;
  p.max_wait_s = 0;  // no sleeping in a unit test
  clock_guard g(p, 2000, nullptr, true);
  EXPECT_DOUBLE_EQ(g.threshold_mhz(), 1900);
  std::vector<clock_guard::sample> kept;
  int dropped = 0;
  g.offer({1e-3, 1980}, kept, dropped);
  g.offer({1e-3, 1655}, kept, dropped);  // the rerun that ran 10 % slow
  g.offer({1e-3, 1900}, kept, dropped);
  g.settle(kept, dropped);
  EXPECT_EQ(kept.size(), 2u);
  EXPECT_EQ(dropped, 1);
}

TEST(ClockGuard, CopiesAndHostRowsAreNotJudgedBySmClock) {
  clock_guard g(clock_policy{}, 2000, nullptr, false);
  std::vector<clock_guard::sample> kept;
  int dropped = 0;
  g.offer({1e-3, 0}, kept, dropped);
  g.offer({1e-3, 300}, kept, dropped);
  g.settle(kept, dropped);
  EXPECT_EQ(kept.size(), 2u);
  EXPECT_EQ(dropped, 0);
}

// ---- the timer floor: synthetic readings on a 32 ns timer with a 1.312 us event pair ------

constexpr double step_s = 32e-9;
constexpr timer_floor_inputs hopper{.pair_s = 41 * step_s, .pair_spread_s = 2 * step_s, .resolution_s = step_s};

// `n` samples of `steps` timer steps each, every `every`-th one `extra` steps longer.
std::vector<double> on_steps(int n, int steps, int every = 0, int extra = 1) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back((steps + (every > 0 && i % every == 0 ? extra : 0)) * step_s);
  return v;
}

TEST(TimerFloor, SmallestStepIsTheTimersStep) {
  EXPECT_NEAR(*smallest_step({41 * step_s, 43 * step_s, 41 * step_s, 42 * step_s, 80 * step_s}), step_s, 1e-15);
  EXPECT_NEAR(*smallest_step({1.5e-6, 2e-6, 3e-6}), 0.5e-6, 1e-15) << "a coarse timer reads coarse";
  EXPECT_FALSE(smallest_step({1e-6, 1e-6, 1e-6 + 1e-13}).has_value()) << "float rounding is no step";
  EXPECT_FALSE(smallest_step({}).has_value());
}

TEST(TimerFloor, DistinctValuesIgnoreTheOutlyingTenthAtEachEnd) {
  std::vector<double> v = on_steps(20, 41);
  v[0] = 300 * step_s;  // one outlier in 20: outside the middle 80 %
  EXPECT_EQ(distinct_middle_values(v, step_s), 1);
  EXPECT_EQ(distinct_middle_values(on_steps(20, 41, 2), step_s), 2);
  EXPECT_EQ(distinct_middle_values({1e-6, 1.01e-6, 1.02e-6, 1.03e-6}, 0), 4) << "no resolution: exact values";
}

TEST(TimerFloor, AnEventRowReadingThePairAloneIsAtTheFloor) {
  // cudaMallocAsync timed with plain events: 1.312 us every time, whatever the size.
  EXPECT_TRUE(at_timer_floor(on_steps(50, 41), false, hopper));
  EXPECT_TRUE(at_timer_floor(on_steps(50, 43, 3), false, hopper)) << "two steps above the pair";
  // Host jitter spreads most samples (an H100 run read a median of 1.536 us over a 1.312 us
  // pair), but a fifth of them still read the pair alone.
  std::vector<double> jitter;
  for (int i = 0; i < 50; ++i) jitter.push_back((i % 5 == 0 ? 41 : 45 + i % 13) * step_s);
  EXPECT_TRUE(at_timer_floor(jitter, false, hopper));
}

TEST(TimerFloor, AFewFastSamplesDoNotMakeAFloor) {
  std::vector<double> v = on_steps(30, 94, 2);
  v[3] = 0;  // one blocking sample of 30 that read nothing past the pair
  EXPECT_FALSE(at_timer_floor(v, true, hopper));
}

TEST(TimerFloor, AFewDozenStepsOnTwoValuesAreAtTheFloor) {
  // cudaFreeAsync: 2.016 us (63 steps, 22 past the pair) with a zero-width interval.
  std::vector<double> v = on_steps(50, 63, 5);
  v[7] = 3 * v[7];  // outliers do not make a spread
  EXPECT_TRUE(at_timer_floor(v, false, hopper));
  // The same work with a real spread is resolved.
  std::vector<double> spread;
  for (int i = 0; i < 50; ++i) spread.push_back((60 + i % 7) * step_s);
  EXPECT_FALSE(at_timer_floor(spread, false, hopper));
  EXPECT_TRUE(at_timer_floor(on_steps(50, 41 + 30, 2), false, hopper)) << "30 steps of work on two values";
  EXPECT_FALSE(at_timer_floor(on_steps(50, 41 + 40, 2), false, hopper)) << "40 steps: one is 2.5 % of the work";
}

TEST(TimerFloor, BlockingSamplesHadThePairTakenOff) {
  EXPECT_TRUE(at_timer_floor(on_steps(30, 2), true, hopper));
  EXPECT_TRUE(at_timer_floor(on_steps(30, 2 + 41), false, hopper)) << "the same work read with the pair inside";
  // A 3 us kernel quantized to two values is resolved: a step is 1 % of it.
  EXPECT_FALSE(at_timer_floor(on_steps(30, 94, 2), true, hopper));
  // The same 94 steps read with plain events (the pair inside) leave 53 steps of work.
  EXPECT_FALSE(at_timer_floor(on_steps(30, 94, 2), false, hopper));
}

TEST(TimerFloor, ThePairsSpreadCountsWhenItIsWiderThanTheSteps) {
  const timer_floor_inputs wide{.pair_s = 1.3e-6, .pair_spread_s = 0.2e-6, .resolution_s = 1e-9};
  EXPECT_TRUE(at_timer_floor({1.6e-6, 1.65e-6, 1.7e-6, 1.62e-6}, false, wide)) << "0.35 us of work, 0.4 us of spread";
  EXPECT_FALSE(at_timer_floor({2.6e-6, 2.65e-6, 2.7e-6, 2.62e-6}, false, wide));
}

TEST(TimerFloor, NothingMeasuredNothingJudged) {
  EXPECT_FALSE(at_timer_floor(on_steps(30, 1), true, timer_floor_inputs{}));
  EXPECT_FALSE(at_timer_floor({}, true, hopper));
}

TEST(Progress, SaysWhereTheRunIsAndWhatIsLeft) {
  EXPECT_EQ(progress_line(1, 10, "ca", 0, 0, 0, "global/x"), "[1/10] ca build, 0:00 elapsed, ETA ?: global/x");
  EXPECT_EQ(progress_line(6, 10, "ca", 0, 0, 50, "global/x"), "[6/10] ca build, 0:50 elapsed, ETA 0:50: global/x");
  // The second of three builds, halfway: 60 s left here, then one more build of ~120 s.
  EXPECT_EQ(progress_line(51, 100, "ca", 2, 3, 60, "r"), "[51/100] ca build 2/3, 1:00 elapsed, ETA 1:00, suite ~3:00: r");
}

TEST(Options, NamesRoundTrip) {
  for (auto m : {timing_method::blocking, timing_method::events, timing_method::single})
    EXPECT_EQ(parse_timing_method(to_string(m)), m);
  EXPECT_FALSE(parse_timing_method("graph").has_value());
  for (auto t : {suite_tier::check, suite_tier::quick, suite_tier::standard, suite_tier::full}) EXPECT_EQ(parse_suite_tier(to_string(t)), t);
  EXPECT_EQ(std::string(to_string(suite_tier::standard)), "default");
  EXPECT_FALSE(parse_suite_tier("standard").has_value());
}

}  // namespace
}  // namespace membench
