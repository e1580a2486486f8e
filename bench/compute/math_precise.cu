// H5: the precise build of kernels/compute/vector_math.cuh (IEEE sqrtf, libdevice cosf and
// tanhf). Compiled with the project's flags only; its twin math_fast.cu gets --use_fast_math.
#include "compute/math_variants.hpp"

#define MEMBENCH_MATH_NS math_precise
#include "kernels/compute/vector_math.cuh"
#include "compute/math_launch.cuh"
