// The stopping criterion: one row's samples against the stopping rule (options.hpp).
// A row converges when the confidence interval of its median is within the target, with
// at least min_samples samples and min_time_s of sampled time. Outliers cannot hold it
// hostage (they move neither end of the interval), and it cannot stop on a lucky few
// (the interval is exact for any distribution, and min_samples is a floor). Plain host
// logic, unit-tested.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "common/stats.hpp"
#include "harness/options/options.hpp"

namespace membench {

class stopping_criterion {
 public:
  /// `host_row`: the row's samples include host work (its own target and budget).
  /// `budget_scale` multiplies that budget (launch_options::budget_scale).
  stopping_criterion(const stopping_rule& rule, bool host_row, double budget_scale = 1);

  void add(double seconds);
  /// A sample thrown away (clock below the threshold, or taken during a clock event).
  void discard() noexcept { ++discarded_; }

  /// Interval within the target with enough samples and sampled time.
  bool converged();
  /// True when sampling should stop `elapsed_s` wall seconds after it began: converged,
  /// or past the budget with min_samples kept, or past the row limit, or past the budget
  /// with most samples discarded for their clock (at least 4 x min_samples of them).
  bool done(double elapsed_s);
  /// Why a row that stopped did not converge: "budget", "throttled" (most samples were
  /// discarded), "row_limit" (fewer than min_samples); empty when it converged.
  std::string unconverged_reason();

  double target_pct() const noexcept { return target_pct_; }
  double budget_s() const noexcept { return budget_s_; }
  double level() const noexcept { return rule_.ci_level_pct / 100; }
  std::size_t kept() const noexcept { return samples_.size(); }
  int discarded() const noexcept { return discarded_; }
  double total_s() const noexcept { return total_; }
  const std::vector<double>& samples() const noexcept { return samples_; }
  /// The interval of the current samples (exact, recomputed).
  median_interval interval() const;
  /// Its half-width over the median, in percent (infinite when undefined).
  static double half_width_pct(const median_interval& ci, double median);

 private:
  bool check(bool force);
  bool clock_bound() const noexcept;

  stopping_rule rule_;
  double target_pct_;
  double budget_s_;
  std::vector<double> samples_;
  double total_ = 0;
  int discarded_ = 0;
  std::size_t checked_at_ = 0;  // samples at the last interval check
  bool converged_ = false;
};

}  // namespace membench
