// Small fixtures the report tool's tests share.
#pragma once

#include "model.hpp"

namespace membench::report::test_fixtures {

/// One converged run of `us` microseconds, its interval 0.1 % either side, at 1980 MHz.
inline run timed(double us) {
  run r;
  r.time_us = us;
  r.ci_low_us = us * 0.999;
  r.ci_high_us = us * 1.001;
  r.sm_clock_mhz = 1980;
  return r;
}

}  // namespace membench::report::test_fixtures
