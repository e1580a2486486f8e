// The output checks most families need, for bench_context::verify_and_time: an array the
// launch writes, poisoned first, compared element by element with the host reference.
#pragma once

#include <cstddef>
#include <cstdint>

#include "harness/core/check.hpp"
#include "harness/core/harness_kernels.hpp"
#include "harness/core/verify.hpp"
#include "harness/session/context.hpp"

namespace membench {

/// Fills `n` floats or doubles with poison_value<T>() (NaN): what a reference returns for
/// elements the kernel must leave alone.
template <class T>
launch_fn poison_values(T* dev, std::size_t n) {
  return [=](cudaStream_t s) { fill_poison(dev, n, s); };
}

/// Fills `n` words with pattern_word(i, seed) of a seed no input uses.
inline launch_fn poison_words(std::uint32_t* dev, std::size_t n, std::uint32_t seed) {
  return [=](cudaStream_t s) { fill_words(dev, n, seed, s); };
}

/// Sets `bytes` bytes at `dev` to `value`: for outputs a kernel overwrites with values
/// that never equal the poison (counts, sums of non-zero data).
inline launch_fn poison_bytes(void* dev, std::size_t bytes, int value = 0) {
  return [=](cudaStream_t s) { MEMBENCH_CUDA_CHECK(cudaMemsetAsync(dev, value, bytes, s)); };
}

/// `dev[i] == expected(i)` for i in [0, n), after `poison`. (A check that reduces the
/// output to a checksum needs no poison: leave output_check::poison empty.)
template <class T, class Expected>
output_check array_check(bench_context& ctx, const T* dev, std::size_t n, Expected expected, const char* what,
                         launch_fn poison) {
  return {std::move(poison), [&ctx, dev, n, expected, what] { verify_device_array(ctx.reader(), dev, n, expected, what); }};
}

}  // namespace membench
