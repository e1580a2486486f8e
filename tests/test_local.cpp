// Local-memory families without a GPU (S3 spill): the kernel's element function against an
// independent implementation, and the bytes formula.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/local/spill.hpp"

namespace membench::local {
namespace {

// An independent implementation of the spill element function.
std::uint32_t spill_naive(unsigned n, std::uint32_t w, unsigned rot, unsigned rounds) {
  std::vector<std::uint32_t> a(n);
  for (unsigned i = 0; i < n; ++i) a[i] = w ^ (0x9E3779B9u * (i + 1));
  for (unsigned r = 0; r < rounds; ++r)
    for (unsigned i = 0; i < n; ++i) a[i] = 5u * a[i] + a[(i + rot) % n] + r;
  std::uint32_t acc = 0;
  for (unsigned i = 0; i < n; ++i) acc += a[i] * (2 * i + 1);
  return acc;
}

template <unsigned N>
void check_spill() {
  EXPECT_EQ(spill_rounds(N) * N, spill_updates);
  for (std::uint64_t t : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{12345}, spill_threads - 1}) {
    const std::uint32_t w = pattern_word(t, spill_seed);
    EXPECT_EQ(spill_expected<N>(t), spill_naive(N, w, spill_rotation, spill_rounds(N))) << N;
    // The run-time rotation changes the result: the kernel argument matters.
    EXPECT_NE(spill_element<N>(w, spill_rotation + 1, spill_rounds(N)), spill_expected<N>(t));
  }
}

TEST(Spill, ElementMatchesIndependentImplementation) {
  check_spill<8>();
  check_spill<16>();
  check_spill<32>();
  check_spill<64>();
}

TEST(Spill, Bytes) {
  EXPECT_EQ(spill_bytes(1, 8), 8u + 2048u * 12);
  EXPECT_EQ(spill_bytes(1024, 64), 1024u * (8 + 2048u * 12));
}

}  // namespace
}  // namespace membench::local
