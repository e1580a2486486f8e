#include "timer_floor.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "common/stats.hpp"

namespace membench {
namespace {

constexpr double same_reading_s = 1e-11;

}  // namespace

std::optional<double> smallest_step(std::vector<double> readings) {
  std::sort(readings.begin(), readings.end());
  std::optional<double> step;
  for (std::size_t i = 1; i < readings.size(); ++i) {
    const double d = readings[i] - readings[i - 1];
    if (d > same_reading_s && (!step || d < *step)) step = d;
  }
  return step;
}

int distinct_middle_values(std::vector<double> samples, double step) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  const auto first = static_cast<std::size_t>(std::floor(0.1 * static_cast<double>(n)));
  const auto last = std::max(first + 1, static_cast<std::size_t>(std::ceil(0.9 * static_cast<double>(n))));
  // Each group of equal values is represented by its smallest, so a slow drift cannot
  // chain many values into one.
  const double same = std::max(step / 4, same_reading_s);
  int distinct = 1;
  double group = samples[first];
  for (std::size_t i = first + 1; i < last; ++i) {
    if (samples[i] - group > same) {
      ++distinct;
      group = samples[i];
    }
  }
  return distinct;
}

bool at_timer_floor(const std::vector<double>& samples, bool pair_subtracted, const timer_floor_inputs& t) {
  if (samples.empty() || (t.resolution_s <= 0 && t.pair_spread_s <= 0)) return false;
  std::vector<double> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  const double pair = pair_subtracted ? 0 : t.pair_s;
  const double fastest_tenth = quantile_sorted(sorted, 0.1) - pair;
  if (fastest_tenth <= std::max(floor_steps * t.resolution_s, floor_spreads * t.pair_spread_s)) return true;
  const double work = quantile_sorted(sorted, 0.5) - pair;
  return t.resolution_s > 0 && work < quantized_steps * t.resolution_s &&
         distinct_middle_values(sorted, t.resolution_s) <= quantized_values;
}

}  // namespace membench
