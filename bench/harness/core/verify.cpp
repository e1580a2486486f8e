#include "verify.hpp"

#include <vector>

#include <fmt/format.h>

namespace membench {

void throw_mismatch(const char* what, std::size_t index, const std::string& got, const std::string& expected,
                    std::size_t mismatches, std::size_t count) {
  throw verification_error(fmt::format("{}: element {} is {}, expected {} ({} mismatches in the first {} checked)",
                                       what, index, got, expected, mismatches, count));
}

std::uint32_t sum_device_words(cudaStream_t s, const std::uint32_t* dev, std::size_t count) {
  std::vector<std::uint32_t> host(count);
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(host.data(), dev, count * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s));
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
  std::uint32_t sum = 0;
  for (std::uint32_t v : host) sum += v;
  return sum;
}

void verify_checksum(std::uint64_t got, std::uint64_t expected, const char* what) {
  if (got != expected) {
    throw verification_error(fmt::format("{}: checksum {:#x}, expected {:#x}", what, got, expected));
  }
}

}  // namespace membench
