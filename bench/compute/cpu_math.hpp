// H5: the CPU side of the GPU-vs-CPU comparison, compiled by the host compiler with OpenMP
// (bench/compute/cpu_math.cpp): the same element functions as the kernels, in plain loops.
#pragma once

#include <cstddef>

namespace membench::compute {

/// Where a CPU row runs: one thread (a plain loop) or every core (`omp parallel for`).
enum class cpu_threads { one, omp };

/// c[i] = vector_add_element(a[i], b[i]) for i < n; returns when done.
void cpu_vector_add(const float* a, const float* b, float* c, std::size_t n, cpu_threads threads);
/// c[i] = transcendental_element(a[i], b[i]) for i < n; returns when done.
void cpu_transcendental(const float* a, const float* b, float* c, std::size_t n, cpu_threads threads);
/// Threads an `omp parallel for` uses here (omp_get_max_threads: OMP_NUM_THREADS or the cores).
int cpu_omp_threads();

}  // namespace membench::compute
