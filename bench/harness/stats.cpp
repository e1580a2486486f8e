#include "stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace membench {

sample_stats summarize(std::vector<double> samples) {
  sample_stats s;
  s.count = samples.size();
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.median = n % 2 == 1 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  if (n > 1) {
    double sq = 0;
    for (double x : samples) sq += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(sq / static_cast<double>(n - 1));
  }
  s.noise = s.mean > 0 ? s.stddev / s.mean : 0;
  return s;
}

}  // namespace membench
