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

namespace {

// The continued fraction of the regularized incomplete beta function (modified Lentz).
double beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::abs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 500; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    c = 1 + aa / c;
    d = 1 / (std::abs(d) < tiny ? tiny : d);
    c = std::abs(c) < tiny ? tiny : c;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    c = 1 + aa / c;
    d = 1 / (std::abs(d) < tiny ? tiny : d);
    c = std::abs(c) < tiny ? tiny : c;
    const double step = d * c;
    h *= step;
    if (std::abs(step - 1) < 1e-15) break;
  }
  return h;
}

// log Gamma(x) for x > 0 without std::lgamma's write to the global signgam (the report
// decides rows on several threads).
double log_gamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

// I_x(a, b), with y = 1 - x given so that neither loses digits to the other.
double incomplete_beta(double a, double b, double x, double y) {
  if (x <= 0) return 0;
  if (y <= 0) return 1;
  const double front = std::exp(log_gamma(a + b) - log_gamma(a) - log_gamma(b) + a * std::log(x) + b * std::log(y));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, y) / b;
}

// P(T > t) for t >= 0: I_x(df/2, 1/2) / 2 with x = df/(df+t^2), 1 - x = t^2/(df+t^2).
double t_upper_tail(double t, double df) {
  const double t2 = t * t;
  return 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t2), t2 / (df + t2));
}

double t_density(double t, double df) {
  return std::exp(log_gamma((df + 1) / 2) - log_gamma(df / 2) - 0.5 * std::log(df * std::acos(-1.0)) -
                  (df + 1) / 2 * std::log1p(t * t / df));
}

double expansion_quantile(double p, double df) {
  // Abramowitz & Stegun 26.7.5.
  const double sign = p < 0.5 ? -1 : 1;
  const double z = normal_quantile(p < 0.5 ? 1 - p : p), z2 = z * z;
  const double g1 = (z2 + 1) * z / 4;
  const double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  const double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  const double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
  return sign * (z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df);
}

}  // namespace

double student_t_cdf(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return NAN;
  if (std::isinf(df)) return 0.5 * std::erfc(-t / std::sqrt(2.0));
  const double upper = t_upper_tail(std::abs(t), df);
  return t >= 0 ? 1 - upper : upper;
}

double student_t_quantile(double p, double df) {
  if (!(df > 0) || std::isinf(df)) return normal_quantile(p);
  if (p == 0.5) return 0;
  if (df == 1) return std::tan(std::acos(-1.0) * (p - 0.5));
  if (df == 2) return (2 * p - 1) / std::sqrt(2 * p * (1 - p));
  const double sign = p < 0.5 ? -1 : 1;
  const double tail = p < 0.5 ? p : 1 - p;  // the upper tail the quantile leaves
  // Newton on the upper tail from the expansion, kept inside a bracket that only shrinks
  // (the tail is convex and falling for t > 0, so from the left Newton never overshoots).
  double t = std::abs(expansion_quantile(1 - tail, df));
  double lo = 0, hi = INFINITY;
  for (int i = 0; i < 60; ++i) {
    const double f = t_upper_tail(t, df) - tail;
    if (f > 0) lo = t; else hi = t;
    double next = t + f / t_density(t, df);
    if (!(next > lo && next < hi)) next = std::isinf(hi) ? 2 * t + 1 : (lo + hi) / 2;
    if (std::abs(next - t) <= 1e-12 * t || hi - lo <= 1e-12 * t) return sign * next;
    t = next;
  }
  return sign * t;
}

}  // namespace membench
