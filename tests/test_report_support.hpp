// What the report tool's unit tests share: runs, and sides made of them.
#pragma once

#include <vector>

#include "stats/verdict.hpp"

namespace membench::report::test_support {

/// One converged run of `us` microseconds, its interval 0.1 % either side, at 1980 MHz.
inline run timed(double us) {
  run r;
  r.time_us = us;
  r.ci_low_us = us * 0.999;
  r.ci_high_us = us * 1.001;
  r.sm_clock_mhz = 1980;
  return r;
}

/// A side of these runs (which must outlive it).
inline side many(const std::vector<run>& runs) {
  side s;
  for (const run& r : runs) s.runs.push_back(&r);
  return s;
}

}  // namespace membench::report::test_support
