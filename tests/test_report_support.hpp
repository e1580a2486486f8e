// What the report tool's unit tests share: sides made of runs.
#pragma once

#include <vector>

#include "verdict.hpp"

namespace membench::report::test_support {

/// A side of these runs (which must outlive it).
inline side many(const std::vector<run>& runs) {
  side s;
  for (const run& r : runs) s.runs.push_back(&r);
  return s;
}

}  // namespace membench::report::test_support
