// The stopping rule: how many timed samples a row takes. Plain host logic, unit-tested.
// Sample until the relative noise (stddev / mean) of the kept samples is at most
// max_noise_pct with at least min_samples and min_time_s of sampled time, or until the
// wall-clock budget max_time_s is spent (then the row says it did not converge).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace membench {

struct stopping_rule {
  int min_samples = 10;
  double max_noise_pct = 0.5;
  double max_time_s = 0.5;  ///< wall-clock budget of one row's sampling
  double min_time_s = 0.0;  ///< least total sampled (GPU) time
};

/// Null when the rule is usable, otherwise what is wrong with it.
std::optional<std::string> validate(const stopping_rule& rule);

/// A row whose every sample was thrown away keeps trying this much past its budget.
inline constexpr double throttle_grace_s = 1.0;

/// Accumulates one row's samples and applies the rule (Welford running mean/variance).
class sampler {
 public:
  explicit sampler(stopping_rule rule) : rule_(rule) {}
  /// A kept sample, in seconds.
  void add(double seconds);
  /// A sample thrown away (taken while the SM clock was throttled).
  void discard() noexcept { ++discarded_; }

  /// Noise target met with enough samples and sampled time.
  bool converged() const noexcept;
  /// True when sampling should stop, `elapsed_s` wall seconds after it began. With no
  /// kept sample it stops only throttle_grace_s past the budget (the caller reports it).
  bool done(double elapsed_s) const noexcept;

  double noise_pct() const noexcept;
  double total_s() const noexcept { return total_; }
  std::size_t kept() const noexcept { return samples_.size(); }
  int discarded() const noexcept { return discarded_; }
  const std::vector<double>& samples() const noexcept { return samples_; }

 private:
  stopping_rule rule_;
  std::vector<double> samples_;
  double mean_ = 0, m2_ = 0, total_ = 0;
  int discarded_ = 0;
};

}  // namespace membench
