// Element functions compile for the host (g++, unit tests) and the device (nvcc).
#pragma once

#if defined(__CUDACC__)
#define MEMBENCH_HD __host__ __device__ __forceinline__
#else
#define MEMBENCH_HD inline
#endif
