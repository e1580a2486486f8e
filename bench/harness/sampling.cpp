#include "sampling.hpp"

#include <cmath>

#include <fmt/format.h>

namespace membench {

std::optional<std::string> validate(const stopping_rule& rule) {
  if (rule.min_samples < 1) return fmt::format("--min-samples must be at least 1 (got {})", rule.min_samples);
  if (!(rule.max_noise_pct >= 0)) return fmt::format("--max-noise must be >= 0 percent (got {})", rule.max_noise_pct);
  if (!(rule.max_time_s >= 0)) return fmt::format("--max-time must be >= 0 seconds (got {})", rule.max_time_s);
  if (!(rule.min_time_s >= 0)) return fmt::format("--min-time must be >= 0 seconds (got {})", rule.min_time_s);
  return std::nullopt;
}

void sampler::add(double seconds) {
  samples_.push_back(seconds);
  total_ += seconds;
  const double delta = seconds - mean_;
  mean_ += delta / static_cast<double>(samples_.size());
  m2_ += delta * (seconds - mean_);
}

double sampler::noise_pct() const noexcept {
  const std::size_t n = samples_.size();
  if (n < 2 || mean_ <= 0) return 0;
  return 100 * std::sqrt(m2_ / static_cast<double>(n - 1)) / mean_;
}

bool sampler::converged() const noexcept {
  return samples_.size() >= static_cast<std::size_t>(rule_.min_samples) && total_ >= rule_.min_time_s &&
         noise_pct() <= rule_.max_noise_pct;
}

bool sampler::done(double elapsed_s) const noexcept {
  // The budget wins over the minimum count, so one slow row cannot stall a sweep.
  if (converged()) return true;
  return samples_.empty() ? elapsed_s >= rule_.max_time_s + throttle_grace_s : elapsed_s >= rule_.max_time_s;
}

}  // namespace membench
