// Comparing device results with host references, element by element.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include <span>

#include "common/parallel.hpp"
#include "harness/core/check.hpp"
#include "harness/core/errors.hpp"

namespace membench {

/// Where device results are read back through: the row's stream and pinned staging memory.
struct device_reader {
  cudaStream_t stream;
  std::span<std::byte> staging;
};

template <class T>
std::string describe(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    return std::to_string(v);
  } else {
    return v.describe();
  }
}

namespace detail {
struct mismatches {
  std::size_t count = 0;
  std::size_t first = std::numeric_limits<std::size_t>::max();
};
/// Compares host[i] with expected(i) for i in [0, n), in parallel.
template <class T, class Expected>
mismatches find_mismatches(const T* host, std::size_t n, Expected&& expected) {
  std::atomic<std::size_t> bad{0};
  std::atomic<std::size_t> first_bad{std::numeric_limits<std::size_t>::max()};
  parallel_parts(n, [&](std::size_t b, std::size_t e, std::size_t) {
    std::size_t local = 0;
    std::size_t local_first = std::numeric_limits<std::size_t>::max();
    for (std::size_t i = b; i < e; ++i) {
      if (!(host[i] == expected(i))) {
        if (local == 0) local_first = i;
        ++local;
      }
    }
    bad += local;
    std::size_t cur = first_bad.load();
    while (local_first < cur && !first_bad.compare_exchange_weak(cur, local_first)) {
    }
  });
  return {bad.load(), first_bad.load()};
}
}  // namespace detail

/// Copies `count` elements of `dev` back in chunks and checks dev[i] == expected(i) for
/// every i. throws verification_error (first mismatch and their number), cuda_error.
template <class T, class Expected>
void verify_device_array(const device_reader& r, const T* dev, std::size_t count, Expected&& expected, const char* what) {
  const cudaStream_t s = r.stream;
  const std::span<std::byte> staging = r.staging;
  const std::size_t chunk = staging.size() / sizeof(T);
  const T* host = reinterpret_cast<const T*>(staging.data());
  for (std::size_t off = 0; off < count; off += chunk) {
    const std::size_t n = std::min(chunk, count - off);
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(staging.data(), dev + off, n * sizeof(T), cudaMemcpyDeviceToHost, s));
    MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
    const auto bad = detail::find_mismatches(host, n, [&](std::size_t i) { return expected(off + i); });
    if (bad.count > 0) {
      // Stop at the first bad chunk; its values are still in the staging buffer.
      const std::size_t i = bad.first;
      throw_mismatch(what, off + i, describe(host[i]), describe(expected(off + i)), bad.count, off + n);
    }
  }
}

/// One trivially copyable value read back on the row's stream, after everything queued there
/// (the row's stream does not order with the legacy default stream). throws cuda_error
template <class T>
T read_device_value(const device_reader& r, const T* dev) {
  static_assert(std::is_trivially_copyable_v<T>);
  T value{};
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(&value, dev, sizeof(T), cudaMemcpyDeviceToHost, r.stream));
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(r.stream));
  return value;
}

/// Checks host[i] == expected(i) for every i, in parallel. throws verification_error
template <class T, class Expected>
void verify_host_array(const T* host, std::size_t count, Expected&& expected, const char* what) {
  const auto bad = detail::find_mismatches(host, count, expected);
  if (bad.count > 0) throw_mismatch(what, bad.first, describe(host[bad.first]), describe(expected(bad.first)), bad.count, count);
}

/// Sum (mod 2^32) of `count` words in device memory, e.g. a kernel's block partials.
/// throws cuda_error
std::uint32_t sum_device_words(cudaStream_t s, const std::uint32_t* dev, std::size_t count);

/// throws verification_error when a checksum differs.
void verify_checksum(std::uint64_t got, std::uint64_t expected, const char* what);

}  // namespace membench
