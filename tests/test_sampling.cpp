#include <gtest/gtest.h>

#include <cmath>

#include "harness/sampling.hpp"

namespace membench {
namespace {

TEST(StoppingRule, DefaultsAreValid) { EXPECT_FALSE(validate(stopping_rule{}).has_value()); }

TEST(StoppingRule, RejectsNonsense) {
  EXPECT_TRUE(validate({.min_samples = 0}).has_value());
  EXPECT_TRUE(validate({.max_noise_pct = -1}).has_value());
  EXPECT_TRUE(validate({.max_time_s = -0.1}).has_value());
  EXPECT_TRUE(validate({.min_time_s = -1}).has_value());
  EXPECT_TRUE(validate({.max_noise_pct = std::nan("")}).has_value());
}

TEST(Sampler, StopsOnceQuietWithMinSamples) {
  sampler s({.min_samples = 10, .max_noise_pct = 0.5, .max_time_s = 100});
  for (int i = 0; i < 9; ++i) s.add(1e-3);
  EXPECT_FALSE(s.done(0.0)) << "nine identical samples are below the minimum";
  s.add(1e-3);
  EXPECT_TRUE(s.converged());
  EXPECT_TRUE(s.done(0.0));
  EXPECT_DOUBLE_EQ(s.noise_pct(), 0.0);
}

TEST(Sampler, NoisySamplesRunUntilTheBudget) {
  sampler s({.min_samples = 2, .max_noise_pct = 0.5, .max_time_s = 1.0});
  for (int i = 0; i < 100; ++i) s.add(i % 2 == 0 ? 1.0e-3 : 1.1e-3);  // ~4.8 % noise
  EXPECT_NEAR(s.noise_pct(), 100 * 0.05025 / 1.05, 0.01);
  EXPECT_FALSE(s.converged());
  EXPECT_FALSE(s.done(0.99));
  EXPECT_TRUE(s.done(1.0));
}

TEST(Sampler, NoiseMatchesTwoPassFormula) {
  sampler s({});
  const double xs[] = {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0};
  for (double x : xs) s.add(x);
  EXPECT_NEAR(s.noise_pct(), 100 * 2.138089935 / 5.0, 1e-7);
  EXPECT_DOUBLE_EQ(s.total_s(), 40.0);
}

TEST(Sampler, MinTimeHoldsBackConvergence) {
  sampler s({.min_samples = 1, .max_noise_pct = 1, .max_time_s = 10, .min_time_s = 0.01});
  for (int i = 0; i < 9; ++i) s.add(1e-3);
  EXPECT_FALSE(s.converged());
  s.add(1e-3);
  EXPECT_TRUE(s.converged());
}

TEST(Sampler, BudgetNeedsAtLeastOneKeptSample) {
  sampler s({.max_time_s = 0});
  s.discard();
  EXPECT_FALSE(s.done(0.5)) << "a discarded sample does not count; the grace applies";
  EXPECT_EQ(s.discarded(), 1);
  EXPECT_TRUE(s.done(throttle_grace_s)) << "gives up after the grace";
  s.add(1e-6);
  EXPECT_TRUE(s.done(0.0));
}

}  // namespace
}  // namespace membench
