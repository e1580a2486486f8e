#include "stopping.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace membench {

stopping_criterion::stopping_criterion(const stopping_rule& rule, bool host_row, double budget_scale)
    : rule_(rule),
      target_pct_(host_row ? rule.max_ci_host_pct : rule.max_ci_pct),
      budget_s_((host_row ? rule.max_time_host_s : rule.max_time_s) * (budget_scale > 0 ? budget_scale : 1)) {}

void stopping_criterion::add(double seconds) {
  samples_.push_back(seconds);
  total_ += seconds;
}

double stopping_criterion::half_width_pct(const median_interval& ci, double median) {
  if (!ci.defined || !(median > 0)) return std::numeric_limits<double>::infinity();
  return 100 * (ci.high - ci.low) / 2 / median;
}

median_interval stopping_criterion::interval() const { return median_ci(samples_, level()); }

bool stopping_criterion::converged() { return check(false); }

bool stopping_criterion::check(bool force) {
  if (converged_) return true;
  const std::size_t n = samples_.size();
  if (n < static_cast<std::size_t>(rule_.min_samples) || total_ < rule_.min_time_s) return false;
  // The interval costs O(n): check it as the count grows by 1/16, not after every sample.
  if (!force && checked_at_ > 0 && n < checked_at_ + std::max<std::size_t>(1, checked_at_ / 16)) return false;
  checked_at_ = n;
  const median_interval ci = interval();
  converged_ = half_width_pct(ci, median_of(samples_)) <= target_pct_;
  return converged_;
}

bool stopping_criterion::clock_bound() const noexcept {
  return discarded_ >= 4 * rule_.min_samples && static_cast<std::size_t>(discarded_) >= samples_.size();
}

bool stopping_criterion::done(double elapsed_s) {
  if (converged()) return true;
  if (samples_.size() >= static_cast<std::size_t>(rule_.min_samples)) return elapsed_s >= budget_s_;
  // Too few samples: sample on past the budget, unless the clocks keep spoiling them.
  return elapsed_s >= rule_.row_limit_s || (elapsed_s >= budget_s_ && clock_bound());
}

std::string stopping_criterion::unconverged_reason() {
  if (check(true)) return {};
  if (clock_bound()) return "throttled";
  if (samples_.size() < static_cast<std::size_t>(rule_.min_samples)) return "row_limit";
  return "budget";
}

}  // namespace membench
