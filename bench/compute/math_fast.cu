// H5: the --use_fast_math build of kernels/compute/vector_math.cuh (set on this file alone
// in bench/CMakeLists.txt): sqrtf, cosf and tanhf become sqrt.approx, cos.approx and
// tanh.approx (MUFU.TANH in the SASS), denormals flush to zero. nvcc defines no macro for
// the flag, so the family checks the binary instead: a fast row whose results all lie
// within the precise error bound is an error row (see bench/compute/vector_math.cu).
#include "compute/math_variants.hpp"

#define MEMBENCH_MATH_NS math_fast
#include "kernels/compute/vector_math.cuh"
#include "compute/math_launch.cuh"
