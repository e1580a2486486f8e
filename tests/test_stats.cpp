#include <gtest/gtest.h>

#include "harness/stats.hpp"

namespace membench {
namespace {

TEST(Summarize, EmptyIsZero) {
  const auto s = summarize({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.median, 0.0);
}

TEST(Summarize, OddCountMedianIsMiddle) {
  const auto s = summarize({5.0, 1.0, 3.0});
  EXPECT_EQ(s.median, 3.0);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
}

TEST(Summarize, EvenCountMedianAveragesTheMiddlePair) {
  EXPECT_DOUBLE_EQ(summarize({4.0, 1.0, 3.0, 2.0}).median, 2.5);
  EXPECT_DOUBLE_EQ(summarize({2.0, 1.0}).median, 1.5);
}

TEST(Summarize, NoiseIsSampleStddevOverMean) {
  const auto s = summarize({2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0});
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_NEAR(s.stddev, 2.138089935, 1e-9);  // n-1 denominator
  EXPECT_NEAR(s.noise, 2.138089935 / 5.0, 1e-9);
}

TEST(Summarize, ConstantSamplesHaveNoNoise) {
  const auto s = summarize({1e-3, 1e-3, 1e-3});
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.noise, 0.0);
}

}  // namespace
}  // namespace membench
