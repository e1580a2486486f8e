// Statistics of timed samples: Google Benchmark keeps only their mean. Plain host code,
// shared by the harness (the stopping rule) and membench-report (the regression test).
#pragma once

#include <cstddef>
#include <span>
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

/// Median of `v` (any order; the middle pair's mean for an even count). Empty: 0.
double median_of(std::vector<double> v);

/// The p-quantile (0 <= p <= 1) of sorted values, linearly interpolated between order
/// statistics (type 7, as numpy and R by default). Empty: 0.
double quantile_sorted(std::span<const double> sorted, double p);

/// A distribution-free confidence interval of the median: [x_(k), x_(n+1-k)], the
/// order statistics (1-based) with the largest k whose coverage under Binomial(n, 1/2)
/// is at least the level. Outliers move neither end; no distribution is assumed.
struct median_interval {
  double low = 0, high = 0;
  double coverage = 0;  ///< the interval's exact coverage (>= the level asked for, when `defined`)
  bool defined = false;  ///< false when n is too small for the level (95 % needs n >= 6): then [min, max]
};

/// 1-based rank k of the lower end for n samples at `level` (0 < level < 1); 0 when n is
/// too small. Exact binomial up to 1000 samples, the normal approximation above.
std::size_t median_ci_rank(std::size_t n, double level);

/// The interval from sorted samples.
median_interval median_ci_sorted(std::span<const double> sorted, double level);

/// The interval from samples in any order (copies and partially sorts them).
median_interval median_ci(std::vector<double> samples, double level);

/// The p-quantile of the standard normal distribution (0 < p < 1; |error| < 1.2e-9).
double standard_normal_quantile(double p);

/// P(T <= t) for Student's t with `df` degrees of freedom (the regularized incomplete beta
/// function by its continued fraction; relative error about 1e-12); the normal CDF for
/// infinite df.
double student_t_cdf(double t, double df);

/// The p-quantile of Student's t with `df` degrees of freedom (0 < p < 1), to a relative
/// 1e-9 for p from 0.75 up to 1 - 1e-12 (the levels intervals use; near 0.5 the quantile
/// itself is near 0 and only absolutely that close): Abramowitz and Stegun's expansion, refined by Newton steps on
/// student_t_cdf (the expansion alone is off by 4 % at df 3 and p = 0.9995, the levels a
/// correction for many benchmarks asks for). The normal quantile for infinite df.
double student_t_quantile(double p, double df);

}  // namespace membench
