// Statistics of the timed samples themselves: Google Benchmark keeps only their mean.
#pragma once

#include <cstddef>
#include <vector>

namespace membench {

struct sample_stats {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, median = 0;
  double stddev = 0;  ///< sample standard deviation (n-1)
  double noise = 0;   ///< stddev / mean: the relative spread nvbench calls noise
};

/// Summary of `samples` (any order). Empty input gives count 0 and zeros.
sample_stats summarize(std::vector<double> samples);

}  // namespace membench
