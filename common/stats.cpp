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

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2), v.end());
  const double upper = v[n / 2];
  if (n % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2));
  return 0.5 * (lower + upper);
}

double quantile_sorted(std::span<const double> sorted, double p) {
  if (sorted.empty()) return 0;
  const double h = std::clamp(p, 0.0, 1.0) * static_cast<double>(sorted.size() - 1);
  const auto i = static_cast<std::size_t>(std::floor(h));
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (h - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

namespace {

// P(B <= j) for B ~ Binomial(n, 1/2), in log space so that large n does not underflow.
double binomial_half_cdf(std::size_t n, std::size_t j) {
  const double log_half_n = static_cast<double>(n) * std::log(0.5);
  const double lg_n1 = std::lgamma(static_cast<double>(n) + 1);
  double sum = 0;
  for (std::size_t i = 0; i <= j; ++i) {
    sum += std::exp(lg_n1 - std::lgamma(static_cast<double>(i) + 1) - std::lgamma(static_cast<double>(n - i) + 1) +
                    log_half_n);
  }
  return sum;
}

// Inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9).
double normal_quantile(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                 1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                 6.680131188771972e+01,  -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                 -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                 3.754408661907416e+00};
  const double lo = 0.02425;
  if (p < lo) {
    const double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - lo) return -normal_quantile(1 - p);
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double coverage_of(std::size_t n, std::size_t k) { return 1 - 2 * binomial_half_cdf(n, k - 1); }

}  // namespace

std::size_t median_ci_rank(std::size_t n, double level) {
  if (n == 0 || !(level > 0 && level < 1)) return 0;
  if (n <= 1000) {
    // Coverage of [x_(k), x_(n+1-k)] is 1 - 2 P(B <= k-1); it falls as k grows.
    std::size_t best = 0;
    double tail = 0;  // P(B <= k-1), accumulated term by term
    const double log_half_n = static_cast<double>(n) * std::log(0.5);
    const double lg_n1 = std::lgamma(static_cast<double>(n) + 1);
    for (std::size_t k = 1; 2 * k <= n + 1; ++k) {
      const std::size_t j = k - 1;
      tail += std::exp(lg_n1 - std::lgamma(static_cast<double>(j) + 1) - std::lgamma(static_cast<double>(n - j) + 1) +
                       log_half_n);
      if (1 - 2 * tail >= level) {
        best = k;
      } else {
        break;
      }
    }
    return best;
  }
  const double z = normal_quantile(0.5 + level / 2);
  const double k = std::floor((static_cast<double>(n) - z * std::sqrt(static_cast<double>(n))) / 2);
  return k < 1 ? 0 : static_cast<std::size_t>(k);
}

median_interval median_ci_sorted(std::span<const double> sorted, double level) {
  median_interval ci;
  const std::size_t n = sorted.size();
  if (n == 0) return ci;
  const std::size_t k = median_ci_rank(n, level);
  if (k == 0) {
    ci.low = sorted.front();
    ci.high = sorted.back();
    ci.coverage = n >= 2 ? coverage_of(n, 1) : 0;
    return ci;
  }
  ci.low = sorted[k - 1];
  ci.high = sorted[n - k];
  ci.coverage = n <= 1000 ? coverage_of(n, k) : level;
  ci.defined = true;
  return ci;
}

median_interval median_ci(std::vector<double> samples, double level) {
  const std::size_t n = samples.size();
  const std::size_t k = median_ci_rank(n, level);
  if (k == 0 || n <= 64) {
    std::sort(samples.begin(), samples.end());
    return median_ci_sorted(samples, level);
  }
  // Only the two order statistics are needed.
  auto lo = samples.begin() + static_cast<std::ptrdiff_t>(k - 1);
  std::nth_element(samples.begin(), lo, samples.end());
  median_interval ci;
  ci.low = *lo;  // read now: the second partition reorders [lo, end)
  auto hi = samples.begin() + static_cast<std::ptrdiff_t>(n - k);
  std::nth_element(lo, hi, samples.end());
  ci.high = *hi;
  ci.coverage = n <= 1000 ? coverage_of(n, k) : level;
  ci.defined = true;
  return ci;
}


double standard_normal_quantile(double p) { return normal_quantile(p); }

double student_t_quantile(double p, double df) {
  if (!(df > 0) || std::isinf(df)) return normal_quantile(p);
  const double sign = p < 0.5 ? -1 : 1;
  if (df == 1) return std::tan(std::acos(-1.0) * (p - 0.5));
  if (df == 2) return (2 * p - 1) / std::sqrt(2 * p * (1 - p));
  if (df == 4) {
    const double a = 4 * p * (1 - p);
    const double c = std::cos(std::acos(std::sqrt(a)) / 3) / std::sqrt(a);
    return sign * 2 * std::sqrt(c - 1);
  }
  // Abramowitz & Stegun 26.7.5.
  const double z = normal_quantile(p < 0.5 ? 1 - p : p), z2 = z * z;
  const double g1 = (z2 + 1) * z / 4;
  const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  const double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
  return sign * (z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df);
}

}  // namespace membench
