// H5: the launchers of the two builds of kernels/compute/vector_math.cuh. math_precise.cu
// compiles it normally, math_fast.cu with --use_fast_math (set per file in
// bench/CMakeLists.txt); each puts its kernels in its own namespace, so the two device
// builds of one source never meet at link time.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "kernels/compute/vector_math.hpp"

namespace membench::compute {

namespace math_precise {
/// c[i] = a[i] + b[i], i < n: one element per thread, vector_math_block threads per block.
void launch_vector_add(const float* a, const float* b, float* c, std::size_t n, cudaStream_t s);
/// c[i] = transcendental_element(a[i], b[i]), i < n: one element per thread.
void launch_transcendental(const float* a, const float* b, float* c, std::size_t n, cudaStream_t s);
}  // namespace math_precise

namespace math_fast {
void launch_vector_add(const float* a, const float* b, float* c, std::size_t n, cudaStream_t s);
void launch_transcendental(const float* a, const float* b, float* c, std::size_t n, cudaStream_t s);
}  // namespace math_fast

}  // namespace membench::compute
