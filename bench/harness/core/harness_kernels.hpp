// Launchers for the harness's own kernels (fills, L2 flush); compiled once, not per build.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace membench {

/// words[i] = pattern_word(i, seed). throws cuda_error
void fill_words(std::uint32_t* words, std::size_t count, std::uint32_t seed, cudaStream_t s);
/// v[i] = pattern_value<T>(i, seed), T in {float, double}. throws cuda_error
template <class T> void fill_values(T* v, std::size_t count, std::uint32_t seed, cudaStream_t s);
/// v[i] = poison_value<T>(). throws cuda_error
template <class T> void fill_poison(T* v, std::size_t count, cudaStream_t s);
/// Reads `count` words and folds them into *sink. throws cuda_error
void read_words(const std::uint32_t* words, std::size_t count, std::uint32_t* sink, cudaStream_t s);

}  // namespace membench
