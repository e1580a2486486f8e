#include "harness_kernels.hpp"

#include "check.hpp"
#include "kernels/common/pattern.hpp"

namespace membench {
namespace {

constexpr unsigned fill_block = 256;

unsigned fill_grid(std::size_t count) {
  // Grid-stride loops below: a few waves on any GPU, capped to keep the grid small.
  const std::size_t blocks = (count + fill_block - 1) / fill_block;
  return static_cast<unsigned>(blocks < 65536 ? (blocks == 0 ? 1 : blocks) : 65536);
}

__global__ void fill_words_kernel(std::uint32_t* words, std::size_t count, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x)
    words[i] = pattern_word(i, seed);
}

template <class T>
__global__ void fill_values_kernel(T* v, std::size_t count, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x)
    v[i] = pattern_value<T>(i, seed);
}

template <class T>
__global__ void fill_poison_kernel(T* v, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x)
    v[i] = poison_value<T>();
}

__global__ void read_words_kernel(const uint4* words, std::size_t count4, std::uint32_t* sink) {
  std::uint32_t acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count4;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const uint4 w = words[i];
    acc ^= w.x ^ w.y ^ w.z ^ w.w;
  }
  if (acc == 0x9E3779B9u) *sink = acc;  // keeps the loads alive; almost never taken
}

}  // namespace

void fill_words(std::uint32_t* words, std::size_t count, std::uint32_t seed, cudaStream_t s) {
  fill_words_kernel<<<fill_grid(count), fill_block, 0, s>>>(words, count, seed);
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void fill_values(T* v, std::size_t count, std::uint32_t seed, cudaStream_t s) {
  fill_values_kernel<T><<<fill_grid(count), fill_block, 0, s>>>(v, count, seed);
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

template <class T>
void fill_poison(T* v, std::size_t count, cudaStream_t s) {
  fill_poison_kernel<T><<<fill_grid(count), fill_block, 0, s>>>(v, count);
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

void read_words(const std::uint32_t* words, std::size_t count, std::uint32_t* sink, cudaStream_t s) {
  read_words_kernel<<<fill_grid(count / 4), fill_block, 0, s>>>(reinterpret_cast<const uint4*>(words), count / 4,
                                                                 sink);
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
}

template void fill_values<float>(float*, std::size_t, std::uint32_t, cudaStream_t);
template void fill_values<double>(double*, std::size_t, std::uint32_t, cudaStream_t);
template void fill_poison<float>(float*, std::size_t, cudaStream_t);
template void fill_poison<double>(double*, std::size_t, cudaStream_t);

}  // namespace membench
