// H5 CPU rows: the lecture's host loops, one thread and `#pragma omp parallel for` (static
// schedule, every core), over the element functions the kernels use. Compiled with the
// project's host flags plus OpenMP; no -ffast-math, so the math is glibc's (cosf 1 ulp,
// tanhf 2 ulp), scalar: glibc's vector math is used only under -ffast-math.
#include "compute/cpu_math.hpp"

#include <cstdint>

#include <omp.h>

#include "kernels/compute/vector_math.hpp"

namespace membench::compute {
namespace {

template <class Element>
void cpu_loop(const float* a, const float* b, float* c, std::size_t n, cpu_threads threads, Element element) {
  if (threads == cpu_threads::one) {
    for (std::size_t i = 0; i < n; ++i) c[i] = element(a[i], b[i]);
    return;
  }
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < count; ++i) c[i] = element(a[i], b[i]);
}

}  // namespace

void cpu_vector_add(const float* a, const float* b, float* c, std::size_t n, cpu_threads threads) {
  cpu_loop(a, b, c, n, threads, [](float x, float y) { return vector_add_element(x, y); });
}

void cpu_transcendental(const float* a, const float* b, float* c, std::size_t n, cpu_threads threads) {
  cpu_loop(a, b, c, n, threads, [](float x, float y) { return transcendental_element(x, y); });
}

int cpu_omp_threads() { return omp_get_max_threads(); }

}  // namespace membench::compute
