// H5 (the Russian lecture's examples 1 and 2): vector add and the transcendental kernel
// C_i = sum_{j=0}^{99} cos(sqrt(A_i) * tanh(B_i)) * sqrt(j), on the GPU (precise and
// --use_fast_math builds of one source) and on the CPU (one thread, OpenMP). Element
// functions shared by the kernels and the CPU loops, inputs, double-precision references,
// the error bounds the results are checked with, and the bytes formula.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::compute {

/// How the GPU's math library was compiled: precise (IEEE sqrtf, libdevice cosf and tanhf)
/// or fast (--use_fast_math: sqrt.approx, cos.approx, tanh.approx, flush to zero).
enum class math_mode { precise, fast };
inline const char* to_string(math_mode m) { return m == math_mode::precise ? "precise" : "fast"; }

inline constexpr std::uint32_t vector_add_seed_a = 71;
inline constexpr std::uint32_t vector_add_seed_b = 72;
inline constexpr std::uint32_t transcendental_seed_a = 73;
inline constexpr std::uint32_t transcendental_seed_b = 74;

/// Threads per block, as in the lecture (512 threads, one element each).
inline constexpr unsigned vector_math_block = 512;
/// Terms per element: the lecture's `for (int j = 0; j < 100; j++)` (its formula writes
/// j = 1..100; the code, which is what was timed, sums j = 0..99, and sqrt(0) adds nothing).
inline constexpr unsigned transcendental_terms = 100;

/// Elements per vector. Vector add: 1M (the copies and the launch dominate) and 16M
/// (192 MiB moved per launch; the lecture's 25.6M rounded to a power of two). One CPU
/// thread adds 16M in ~20 ms.
inline constexpr std::array<std::uint64_t, 2> vector_add_sizes{std::uint64_t{1} << 20, std::uint64_t{16} << 20};
/// Transcendental: one CPU thread evaluates a term (sqrtf, tanhf, cosf, sqrtf from libm) in
/// ~35 ns, so 64K elements x 100 terms = 6.6M terms take ~0.23 s per sample; 1M elements
/// would take 3.7 s. The lecture's 100 terms are kept and the size is cut instead.
inline constexpr std::array<std::uint64_t, 1> transcendental_sizes{std::uint64_t{64} << 10};
/// The most terms one CPU sample may evaluate (~0.3 s at ~35 ns a term).
inline constexpr std::uint64_t cpu_terms_budget = std::uint64_t{8} << 20;

/// Bytes per call: a and b read, c written, 4 bytes each. The rows with transfers move the
/// same 12 n bytes over PCIe (8 n host to device, 4 n back) and are reported with this count.
constexpr std::uint64_t vector_math_bytes(std::uint64_t n) { return 3 * n * sizeof(float); }

// ---- inputs: exact in float, never zero ----------------------------------------------

/// Vector add inputs: pattern values (one fractional bit, <= 32768.5): every sum is exact.
MEMBENCH_HD float vector_add_a(std::uint64_t i) { return pattern_value<float>(i, vector_add_seed_a); }
MEMBENCH_HD float vector_add_b(std::uint64_t i) { return pattern_value<float>(i, vector_add_seed_b); }

/// a in [1, 65) in steps of 2^-10: sqrt(a) in [1, 8.06), non-negative as sqrt needs.
MEMBENCH_HD float transcendental_a(std::uint64_t i) {
  return 1.0f + static_cast<float>(pattern_word(i, transcendental_seed_a) & 0xFFFFu) * 0x1p-10f;
}
/// b in (-2, 2), an odd multiple of 2^-15 (never 0): tanh(b) in (-0.964, 0.964), so the
/// cosine's argument sqrt(a) tanh(b) spans (-7.8, 7.8), about 2.5 periods.
MEMBENCH_HD float transcendental_b(std::uint64_t i) {
  return (static_cast<float>(pattern_word(i, transcendental_seed_b) & 0xFFFFu) + 0.5f) * 0x1p-14f - 2.0f;
}

// ---- element functions -------------------------------------------------------------------

/// Hides x's value from the optimiser at no cost (an empty asm statement that "modifies" x).
MEMBENCH_HD void opaque(float& x) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+f"(x));
#elif defined(__x86_64__) || defined(__i386__)
  asm volatile("" : "+x"(x));
#elif defined(__aarch64__)
  asm volatile("" : "+w"(x));
#else
  asm volatile("" : "+m"(x));
#endif
}

/// Example 1: C_i = A_i + B_i.
MEMBENCH_HD float vector_add_element(float a, float b) { return a + b; }

/// Example 2: sum_{j=0}^{terms-1} cos(sqrt(a) * tanh(b)) * sqrt(j), in float.
/// The lecture's kernel added each term to C[i] in global memory; that store may alias A
/// and B, so every term re-read A[i], B[i] and re-evaluated cos(sqrt(a) * tanh(b)). With
/// the sum in a register the cosine is loop-invariant and any compiler evaluates it once
/// per element (a 100x cheaper kernel): `opaque` keeps the lecture's four math calls per term.
MEMBENCH_HD float transcendental_element(float a, float b) {
  float sum = 0.0f;
  for (unsigned j = 0; j < transcendental_terms; ++j) {
    opaque(a);
    opaque(b);
    sum += cosf(sqrtf(a) * tanhf(b)) * sqrtf(static_cast<float>(j));
  }
  return sum;
}

// ---- references and error bounds ----------------------------------------------------------

/// sum_{j=0}^{terms-1} sqrt(j) in double (661.46...).
inline double transcendental_sqrt_sum() {
  static const double sum = [] {
    double s = 0;
    for (unsigned j = 0; j < transcendental_terms; ++j) s += std::sqrt(static_cast<double>(j));
    return s;
  }();
  return sum;
}

/// The exact value (to double precision) of the sum for these float inputs:
/// cos(sqrt(a) tanh(b)) * sum_j sqrt(j).
inline double transcendental_reference(float a, float b) {
  return std::cos(std::sqrt(static_cast<double>(a)) * std::tanh(static_cast<double>(b))) * transcendental_sqrt_sum();
}

/// Worst-case errors of one fp32 evaluation of each function (u = 2^-24, 1 ulp <= 2u relative).
struct math_error_model {
  double sqrt_rel;  ///< relative error of sqrtf
  double tanh_rel;  ///< relative error of tanhf
  double tanh_abs;  ///< absolute error of tanhf
  double cos_abs;   ///< absolute error of cosf (|cos| <= 1)
};
inline constexpr double unit_roundoff = 0x1p-24;

/// precise: sqrtf correctly rounded (CUDA's default -prec-sqrt=true, SSE sqrtss); tanhf and
///   cosf within 2 ulp (CUDA's documented bounds; glibc's are 2 and 1 ulp), taken twice.
/// fast: sqrt.approx (a few ulp: 2^-21), tanh.approx (max relative error 2^-10.99 in the
///   PTX ISA; |tanh| < 1, so 2^-10 absolute covers it twice), cos.approx (2^-21.41 absolute
///   on [-pi, pi], plus |x| u from scaling |x| <= 8 by 1/2pi: 2^-19 is twice the sum).
constexpr math_error_model error_model(math_mode m) {
  constexpr double u = unit_roundoff;
  if (m == math_mode::precise) return {u, 8 * u, 0, 8 * u};
  return {0x1p-21, 0, 0x1p-10, 0x1p-19};
}

/// Absolute bound on |fp32 transcendental_element(a, b) - transcendental_reference(a, b)|.
/// With s = sqrt a, t = tanh b, p = s t, c = cos p, S = sum_j sqrt(j), first order:
///   argument:  dp <= |p| (e_sqrt + u) + s (tanh_abs + tanh_rel |t|)   (product rounded: u)
///   cosine:    dc <= dp + cos_abs                                     (|d cos / dp| <= 1)
///   terms:     sum_j |err(c sqrt j)| <= S (dc + (|c| + dc)(e_sqrt + u))
///   summation: <= (terms - 1) u S (|c| + dc)                          (recursive sum, Higham 4.2)
/// doubled for the second-order terms. precise: <= 0.015 (|c| = 1, s = 8); the sums are
/// <= 661, so 2.3e-5 relative. fast: dominated by tanh.approx, S s 2^-10 <= 5.2, doubled.
inline double transcendental_tolerance(float a, float b, math_mode m) {
  const math_error_model e = error_model(m);
  constexpr double u = unit_roundoff;
  const double s = std::sqrt(static_cast<double>(a));
  const double t = std::tanh(static_cast<double>(b));
  const double p = s * t;
  const double c = std::abs(std::cos(p));
  const double sum = transcendental_sqrt_sum();
  const double dp = std::abs(p) * (e.sqrt_rel + u) + s * (e.tanh_abs + e.tanh_rel * std::abs(t));
  const double dc = dp + e.cos_abs;
  const double terms = sum * (dc + (c + dc) * (e.sqrt_rel + u));
  const double summation = (transcendental_terms - 1) * u * sum * (c + dc);
  return 2 * (terms + summation);
}

/// An expected value with an absolute tolerance: `got == approx` when |got - value| <= tol
/// (never for NaN), so verify_device_array / verify_host_array compare within the bound.
struct approx {
  double value;
  double tol;
  std::string describe() const { return std::to_string(value) + " +- " + std::to_string(tol); }
};
inline bool operator==(float got, const approx& want) {
  return std::abs(static_cast<double>(got) - want.value) <= want.tol;
}

/// Element i's expected results.
inline float vector_add_expected(std::uint64_t i) { return vector_add_a(i) + vector_add_b(i); }
inline approx transcendental_expected(std::uint64_t i, math_mode m) {
  const float a = transcendental_a(i), b = transcendental_b(i);
  return {transcendental_reference(a, b), transcendental_tolerance(a, b, m)};
}

}  // namespace membench::compute
