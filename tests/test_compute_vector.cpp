// H5 (compute/vector_add, compute/transcendental) without a GPU: inputs, element functions
// against their double references, the error bounds (they must hold for correct float math,
// catch wrong loops, cover fast math and still tell it from precise math), the CPU rows'
// loops, the size budget, the bytes formula and the names.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "compute/cpu_math.hpp"
#include "common/naming.hpp"
#include "kernels/compute/vector_math.hpp"

namespace membench::compute {
namespace {

constexpr std::size_t checked = 4096;  // elements per host check (100 libm terms each)

TEST(VectorMath, BytesFormula) {
  EXPECT_EQ(vector_math_bytes(0), 0u);
  EXPECT_EQ(vector_math_bytes(1), 12u);
  EXPECT_EQ(vector_math_bytes(std::uint64_t{16} << 20), std::uint64_t{192} << 20);
}

TEST(VectorMath, VectorAddInputsAndSumsAreExact) {
  std::set<float> distinct;
  for (std::uint64_t i = 0; i < (1u << 16); ++i) {
    const float a = vector_add_a(i), b = vector_add_b(i);
    ASSERT_GE(a, 1.0f);
    ASSERT_GE(b, 1.0f);
    EXPECT_EQ(static_cast<double>(vector_add_expected(i)), static_cast<double>(a) + static_cast<double>(b)) << i;
    EXPECT_EQ(vector_add_element(a, b), vector_add_expected(i));
    if (i < checked) distinct.insert(a);
  }
  EXPECT_GT(distinct.size(), checked / 2);
  EXPECT_NE(vector_add_a(5), vector_add_b(5));
}

TEST(VectorMath, TranscendentalInputsInRangeExactAndNonZero) {
  std::set<float> distinct_a, distinct_b;
  for (std::uint64_t i = 0; i < (1u << 16); ++i) {
    const float a = transcendental_a(i), b = transcendental_b(i);
    ASSERT_GE(a, 1.0f) << i;  // sqrt needs a >= 0; a >= 1 keeps sqrt(a) away from 0
    ASSERT_LT(a, 65.0f) << i;
    ASSERT_GT(b, -2.0f) << i;
    ASSERT_LT(b, 2.0f) << i;
    ASSERT_NE(b, 0.0f) << i;
    // Exactly the grid the formulas describe: a on multiples of 2^-10, b an odd multiple of 2^-15.
    const double a_steps = static_cast<double>(a) * 1024.0;
    EXPECT_EQ(a_steps, std::floor(a_steps)) << i;
    const double b_steps = static_cast<double>(b) * 32768.0;
    EXPECT_EQ(b_steps, std::floor(b_steps)) << i;
    EXPECT_NE(std::fmod(std::abs(b_steps), 2.0), 0.0) << i;
    if (i < checked) {
      distinct_a.insert(a);
      distinct_b.insert(b);
    }
  }
  EXPECT_GT(distinct_a.size(), checked / 2);
  EXPECT_GT(distinct_b.size(), checked / 2);
}

TEST(VectorMath, SqrtSumMatchesClosedLoop) {
  double s = 0;
  for (int j = 0; j < 100; ++j) s += std::sqrt(j);  // the lecture's loop: j = 0..99
  EXPECT_DOUBLE_EQ(transcendental_sqrt_sum(), s);
  EXPECT_NEAR(transcendental_sqrt_sum(), 661.4629, 1e-3);
}

TEST(VectorMath, ReferenceIsTheLectureFormula) {
  for (std::uint64_t i = 0; i < 64; ++i) {
    const float a = transcendental_a(i), b = transcendental_b(i);
    double sum = 0;
    for (int j = 0; j < 100; ++j) sum += std::cos(std::sqrt(double{a}) * std::tanh(double{b})) * std::sqrt(j);
    EXPECT_NEAR(transcendental_reference(a, b), sum, 1e-10 * transcendental_sqrt_sum()) << i;
  }
}

TEST(VectorMath, PreciseElementWithinItsBound) {
  double worst = 0;
  for (std::uint64_t i = 0; i < checked; ++i) {
    const float a = transcendental_a(i), b = transcendental_b(i);
    const float got = transcendental_element(a, b);
    const double err = std::abs(static_cast<double>(got) - transcendental_reference(a, b));
    const double tol = transcendental_tolerance(a, b, math_mode::precise);
    ASSERT_LE(err, tol) << "element " << i << " a " << a << " b " << b;
    EXPECT_TRUE(got == transcendental_expected(i, math_mode::precise)) << i;
    worst = std::max(worst, err / tol);
  }
  // The bound is a worst case: glibc's float math should use a small part of it.
  EXPECT_LT(worst, 0.5) << "worst error / bound";
  RecordProperty("worst_error_over_bound", std::to_string(worst));
}

TEST(VectorMath, BoundsHaveTheDocumentedSize) {
  double precise = 0, fast = 0, smallest_precise = std::numeric_limits<double>::max();
  for (std::uint64_t i = 0; i < (1u << 16); ++i) {
    const float a = transcendental_a(i), b = transcendental_b(i);
    precise = std::max(precise, transcendental_tolerance(a, b, math_mode::precise));
    smallest_precise = std::min(smallest_precise, transcendental_tolerance(a, b, math_mode::precise));
    fast = std::max(fast, transcendental_tolerance(a, b, math_mode::fast));
    ASSERT_GT(transcendental_tolerance(a, b, math_mode::fast), transcendental_tolerance(a, b, math_mode::precise));
  }
  EXPECT_LE(precise, 0.015);
  EXPECT_GT(smallest_precise, 0.0);
  EXPECT_LE(fast, 10.5);
  EXPECT_GT(fast, 1.0);
}

// Wrong kernels the precise bound must reject: each differs from the reference by at least
// one term, sqrt(j) |cos p| >= |cos p|, far above the bound unless cos p is tiny.
template <class Term>
float sum_terms(float a, float b, int first, int last, Term term) {
  float sum = 0.0f;
  for (int j = first; j <= last; ++j) sum += term(a, b) * std::sqrt(static_cast<float>(j));
  return sum;
}

TEST(VectorMath, PreciseBoundCatchesWrongKernels) {
  struct wrong {
    const char* what;
    float (*sum)(float, float);
    double min_caught;
  };
  const wrong wrongs[] = {
      {"j = 1..100 (the slide's formula)", [](float a, float b) { return sum_terms(a, b, 1, 100, [](float x, float y) { return std::cos(std::sqrt(x) * std::tanh(y)); }); }, 0.99},
      {"99 terms", [](float a, float b) { return sum_terms(a, b, 0, 98, [](float x, float y) { return std::cos(std::sqrt(x) * std::tanh(y)); }); }, 0.99},
      {"tan for tanh (the lecture's CPU loop)", [](float a, float b) { return sum_terms(a, b, 0, 99, [](float x, float y) { return std::cos(std::sqrt(x) * std::tan(y)); }); }, 0.95},
      {"sin for cos", [](float a, float b) { return sum_terms(a, b, 0, 99, [](float x, float y) { return std::sin(std::sqrt(x) * std::tanh(y)); }); }, 0.95},
  };
  for (const wrong& w : wrongs) {
    std::size_t caught = 0;
    for (std::uint64_t i = 0; i < checked; ++i) {
      const float a = transcendental_a(i), b = transcendental_b(i);
      if (!(w.sum(a, b) == transcendental_expected(i, math_mode::precise))) ++caught;
    }
    EXPECT_GE(static_cast<double>(caught), w.min_caught * checked) << w.what;
  }
  // And the right sum, written out the same way, passes.
  for (std::uint64_t i = 0; i < 256; ++i) {
    const float a = transcendental_a(i), b = transcendental_b(i);
    const float right = sum_terms(a, b, 0, 99, [](float x, float y) { return std::cos(std::sqrt(x) * std::tanh(y)); });
    EXPECT_TRUE(right == transcendental_expected(i, math_mode::precise)) << i;
  }
}

// Fast math emulated on the host: every function off by its documented worst case (PTX ISA:
// tanh.approx 2^-10.99 relative, cos.approx 2^-21.41 absolute, sqrt.approx ~2^-22 relative),
// in either direction, in float.
float fast_emulated(float a, float b, float tanh_rel, float cos_abs, float sqrt_rel) {
  float sum = 0.0f;
  for (unsigned j = 0; j < transcendental_terms; ++j) {
    const float s = std::sqrt(a) * (1.0f + sqrt_rel);
    const float t = std::tanh(b) * (1.0f + tanh_rel);
    const float c = std::cos(s * t) + cos_abs;
    sum += c * std::sqrt(static_cast<float>(j)) * (1.0f + sqrt_rel);
  }
  return sum;
}

TEST(VectorMath, FastBoundCoversWorstCaseFastMath) {
  const float tanh_rel = std::ldexp(1.0f, -11), cos_abs = std::ldexp(1.0f, -21), sqrt_rel = std::ldexp(1.0f, -22);
  for (float sign : {1.0f, -1.0f}) {
    for (std::uint64_t i = 0; i < checked; ++i) {
      const float a = transcendental_a(i), b = transcendental_b(i);
      const float got = fast_emulated(a, b, sign * tanh_rel, sign * cos_abs, sign * sqrt_rel);
      ASSERT_TRUE(got == transcendental_expected(i, math_mode::fast)) << "element " << i << " sign " << sign;
    }
  }
}

TEST(VectorMath, FastMathIsDistinguishableFromPrecise) {
  // The family fails a fast row whose results all lie within the precise bound. Even a
  // tanh error 8x below tanh.approx's worst case moves most sums past that bound.
  const float tanh_rel = std::ldexp(1.0f, -14);
  std::size_t beyond = 0;
  for (std::uint64_t i = 0; i < checked; ++i) {
    const float got = fast_emulated(transcendental_a(i), transcendental_b(i), tanh_rel, 0.0f, 0.0f);
    if (!(got == transcendental_expected(i, math_mode::precise))) ++beyond;
  }
  EXPECT_GT(static_cast<double>(beyond), 0.5 * checked);
}

TEST(VectorMath, ApproxComparison) {
  EXPECT_TRUE(1.0f == (approx{1.5, 0.5}));
  EXPECT_TRUE(2.0f == (approx{1.5, 0.5}));
  EXPECT_FALSE(2.0f == (approx{1.5, 0.25}));
  EXPECT_FALSE(std::numeric_limits<float>::quiet_NaN() == (approx{1.5, 1e30}));
  EXPECT_FALSE(std::numeric_limits<float>::infinity() == (approx{1.5, 1e30}));
  EXPECT_NE(approx({1.5, 0.5}).describe().find("+-"), std::string::npos);
}

TEST(VectorMath, CpuRowsFitTheirBudget) {
  // One CPU thread per sample: elements x terms transcendental terms at ~35 ns each.
  for (std::uint64_t n : transcendental_sizes) EXPECT_LE(n * transcendental_terms, cpu_terms_budget) << n;
  for (std::uint64_t n : vector_add_sizes) EXPECT_LE(n, std::uint64_t{64} << 20) << n;  // <= 768 MiB per call
}

TEST(VectorMath, CpuLoopsMatchReferences) {
  for (cpu_threads threads : {cpu_threads::one, cpu_threads::omp}) {
    const std::size_t n = 3000;  // not a multiple of any thread count
    std::vector<float> a(n), b(n), c(n, std::numeric_limits<float>::quiet_NaN());
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = vector_add_a(i);
      b[i] = vector_add_b(i);
    }
    cpu_vector_add(a.data(), b.data(), c.data(), n, threads);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], vector_add_expected(i)) << i;
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = transcendental_a(i);
      b[i] = transcendental_b(i);
      c[i] = std::numeric_limits<float>::quiet_NaN();
    }
    cpu_transcendental(a.data(), b.data(), c.data(), n, threads);
    for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(c[i] == transcendental_expected(i, math_mode::precise)) << i;
  }
  EXPECT_GE(cpu_omp_threads(), 1);
}

TEST(VectorMath, NamesRoundTrip) {
  const std::uint64_t n = std::uint64_t{1} << 20;
  const bench_name gpu{"compute", "transcendental",
                       {{"on", "gpu"}, {"math", "fast"}, {"transfers", "with"}, {"elems", format_size(n)}}};
  EXPECT_EQ(gpu.str(), "compute/transcendental/on:gpu/math:fast/transfers:with/elems:1M");
  const bench_name cpu{"compute", "vector_add", {{"on", "cpu_omp"}, {"elems", format_size(n)}}};
  EXPECT_EQ(cpu.str(), "compute/vector_add/on:cpu_omp/elems:1M");
  for (const bench_name& name : {gpu, cpu}) {
    const bench_name back = parse_name(name.str() + "/manual_time");
    EXPECT_EQ(back, name);
    EXPECT_EQ(parse_size(*back.get("elems")), n);
  }
}

}  // namespace
}  // namespace membench::compute
