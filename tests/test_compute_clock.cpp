// B7 (compute/sm_clock) without a GPU: the spin's check and the clock's formulas.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "kernels/compute/sm_clock.hpp"

namespace membench::compute {
namespace {

constexpr std::int64_t spin = std::int64_t{32} << 20;

TEST(SmClock, ASpinMustReachItsTarget) {
  EXPECT_TRUE(spin_ok(spin, spin));
  EXPECT_FALSE(spin_ok(spin - 1, spin));
  EXPECT_FALSE(spin_ok(-1, spin));  // the poison: the kernel never wrote
}

TEST(SmClock, ASpinMayOvershootByOnePartIn10000AndNoMore) {
  EXPECT_EQ(spin_overshoot_limit(spin), spin / 10000);
  EXPECT_TRUE(spin_ok(spin + spin / 10000, spin));
  EXPECT_FALSE(spin_ok(spin + spin / 10000 + 1, spin));
}

TEST(SmClock, TheSlopeRemovesAFixedCost) {
  // 1980 MHz, with 5 us of launch and events added to both spins.
  const double f = 1980e6, cost = 5e-6;
  const double long_s = static_cast<double>(spin) / f + cost, short_s = static_cast<double>(spin / 2) / f + cost;
  EXPECT_NEAR(slope_mhz(spin, long_s, spin / 2, short_s), 1980.0, 1e-6);
  EXPECT_NEAR(fixed_cost_us(spin, long_s, 1980.0), 5.0, 1e-6);
}

TEST(SmClock, NoSlopeWhenTheLongSpinWasNotLonger) {
  EXPECT_TRUE(std::isnan(slope_mhz(spin, 1e-3, spin / 2, 1e-3)));
  EXPECT_TRUE(std::isnan(slope_mhz(spin, 1e-3, spin / 2, 2e-3)));
}

}  // namespace
}  // namespace membench::compute
