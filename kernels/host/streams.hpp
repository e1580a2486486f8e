// H4 streams: a chunked pipeline of H2D (a, b), kernel, D2H (c) spread over streams.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "../common/hd.hpp"
#include "../common/pattern.hpp"

namespace membench::host {

inline constexpr std::uint32_t streams_seed_a = 81;
inline constexpr std::uint32_t streams_seed_b = 82;

/// Fused multiply-adds per element: `low` is a memory-bound kernel; `high` makes the kernel
/// about as long as the copies on a Hopper GPU over PCIe gen5, where overlap pays most.
inline constexpr int pipeline_low_fmas = 1;
inline constexpr int pipeline_high_fmas = 4096;

/// c = a, then `fmas` times c = fma(c, 0.5, b): correctly rounded on host and device alike,
/// so the reference matches bit for bit, and the chain cannot be folded away.
MEMBENCH_HD float pipeline_value(float a, float b, int fmas) {
  float c = a;
  for (int k = 0; k < fmas; ++k) c = fmaf(c, 0.5f, b);
  return c;
}

template <class T>
MEMBENCH_HD void pipeline_element(std::size_t i, const T* a, const T* b, T* c, int fmas) {
  c[i] = pipeline_value(a[i], b[i], fmas);
}

/// pipeline_value on the host, cut short where it provably stops changing: once one step
/// maps c to itself (the chain converges to 2b within ~40 steps), every later step does too.
inline float pipeline_reference(float a, float b, int fmas) {
  float c = a;
  for (int k = 0; k < fmas; ++k) {
    const float next = std::fmaf(c, 0.5f, b);
    if (next == c) break;
    c = next;
  }
  return c;
}

inline float pipeline_expected(std::size_t i, int fmas) {
  return pipeline_reference(pattern_value<float>(i, streams_seed_a), pattern_value<float>(i, streams_seed_b), fmas);
}

struct chunk {
  std::size_t begin = 0, end = 0;
  std::size_t size() const { return end - begin; }
};

/// Chunk `c` of `chunks` equal parts of [0, n); the last may be shorter.
constexpr chunk chunk_range(std::size_t c, std::size_t chunks, std::size_t n) {
  const std::size_t per = (n + chunks - 1) / chunks;
  const std::size_t b = std::min(n, c * per);
  return {b, std::min(n, b + per)};
}

/// Stream of chunk `c`: round robin.
constexpr std::size_t chunk_stream(std::size_t c, std::size_t streams) { return c % streams; }

/// Bytes over PCIe per pipeline: a and b in, c out.
constexpr std::uint64_t pipeline_bytes(std::uint64_t n, std::uint64_t elem_bytes) { return 3 * n * elem_bytes; }

/// The fastest a perfectly overlapped pipeline can run: the busiest of the H2D engine, the
/// D2H engine and the SMs, each timed alone over all chunks.
constexpr double copy_engine_bound(double h2d_s, double d2h_s, double kernel_s) {
  return std::max({h2d_s, d2h_s, kernel_s});
}

}  // namespace membench::host
