#pragma once

#include "spill.hpp"

namespace membench::local {

/// Local = false: the rotation is the compile-time spill_rotation (array in registers);
/// Local = true: the rotation comes from `rot` (array in local memory).
template <unsigned N, bool Local>
__global__ void __launch_bounds__(spill_block) spill_kernel(const std::uint32_t* in, std::uint32_t* out, unsigned rot,
                                                            unsigned rounds) {
  const std::uint64_t t = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x;
  out[t] = spill_element<N>(in[t], Local ? rot : spill_rotation, rounds);
}

}  // namespace membench::local
