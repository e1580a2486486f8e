// Comparing device results with host references, element by element.
#pragma once

#include <atomic>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include "check.hpp"
#include "parallel.hpp"
#include "runner.hpp"

namespace membench {

template <class T>
std::string describe(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    return std::to_string(v);
  } else {
    return v.describe();
  }
}

/// Copies `count` elements of `dev` back in chunks and checks dev[i] == expected(i) for
/// every i. throws verification_error (first mismatch and their number), cuda_error.
template <class T, class Expected>
void verify_device_array(cudaStream_t s, const T* dev, std::size_t count, Expected&& expected, const char* what) {
  std::span<std::byte> staging = staging_buffer();
  const std::size_t chunk = staging.size() / sizeof(T);
  const T* host = reinterpret_cast<const T*>(staging.data());
  for (std::size_t off = 0; off < count; off += chunk) {
    const std::size_t n = std::min(chunk, count - off);
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(staging.data(), dev + off, n * sizeof(T), cudaMemcpyDeviceToHost, s));
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
    std::atomic<std::size_t> bad{0};
    std::atomic<std::size_t> first_bad{std::numeric_limits<std::size_t>::max()};
    parallel_parts(n, [&](std::size_t b, std::size_t e, std::size_t) {
      std::size_t local = 0;
      std::size_t local_first = std::numeric_limits<std::size_t>::max();
      for (std::size_t i = b; i < e; ++i) {
        if (!(host[i] == expected(off + i))) {
          if (local == 0) local_first = i;
          ++local;
        }
      }
      bad += local;
      std::size_t cur = first_bad.load();
      while (local_first < cur && !first_bad.compare_exchange_weak(cur, local_first)) {
      }
    });
    if (bad > 0) {
      // Stop at the first bad chunk; its values are still in the staging buffer.
      const std::size_t i = first_bad.load();
      throw_mismatch(what, off + i, describe(host[i]), describe(expected(off + i)), bad.load(), off + n);
    }
  }
}

/// throws verification_error when a checksum differs.
void verify_checksum(std::uint64_t got, std::uint64_t expected, const char* what);

}  // namespace membench
