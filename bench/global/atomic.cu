// B6 (beyond the lessons): atomicAdd to global memory under contention. Every thread of a
// 2^21-thread grid adds 1 eight times to one float counter of an array of `bytes`, chosen
// by `pattern`: its own neighbouring counter (coalesced), one counter per warp (uniform:
// 32 lanes on one address), or a hashed counter (scattered).
//
// Expected: global atomics are performed in the L2 (Hopper's atomic units sit beside its
// slices), so no row is faster than the L2 allows. Contention on one address serialises
// its adds in one slice: the uniform rows and the small arrays (32 counters at 128 bytes)
// are the slowest; the coalesced rows come closest to the L2's bandwidth, since a warp's
// 32 adds to one 128-byte line are one request. Scattered adds cost one request per lane.
// Bytes per launch: 2 * 4 bytes per add (atomic_bytes: each add reads and writes a counter).
// Sizes: 128 B (32 counters), 4 KiB, 1 MiB (all in L2) and 16 MiB.
// Tiers: quick has the coalesced and uniform rows at 1 MiB; the default tier every row.
#include <array>
#include <string>
#include <vector>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "kernels/common/types.hpp"
#include "kernels/global/atomic.cuh"

namespace membench::global {
namespace {

constexpr std::array<std::uint64_t, 4> sizes{128, std::uint64_t{4} << 10, std::uint64_t{1} << 20,
                                             std::uint64_t{16} << 20};
constexpr std::uint64_t threads = std::uint64_t{1} << 21;
constexpr unsigned adds = 8;
constexpr unsigned block = 256;

struct atomic_case {
  atomic_pattern pattern;
  const char* token;
};
constexpr std::array<atomic_case, 3> patterns{atomic_case{atomic_pattern::coalesced, "coalesced"},
                                              atomic_case{atomic_pattern::uniform, "uniform"},
                                              atomic_case{atomic_pattern::scattered, "scattered"}};

void run_atomic(bench_context& ctx, atomic_pattern pattern, std::uint64_t bytes) {
  const std::size_t n = bytes / sizeof(float);
  auto& counters = ctx.workspace<device_buffer<float>>({"bytes"}, [&] {
    ctx.require_device_bytes(bytes);
    return device_buffer<float>(n);
  });
  const auto grid = static_cast<unsigned>(blocks_for(threads, block));
  auto launch = [&](cudaStream_t s) {
    atomic_kernel<float><<<grid, block, 0, s>>>(counters.data(), n, threads, adds, pattern);
  };
  const std::vector<std::uint64_t> counts = atomic_expected_counts(pattern, threads, n, adds);
  auto expected = [&counts](std::size_t i) { return static_cast<float>(counts[i]); };
  // Zeroed before the checked launch: the counts are what one launch adds.
  ctx.verify_and_time(l2_state::warm, atomic_bytes(threads, adds, sizeof(float)), launch,
                      array_check(ctx, counters.data(), n, expected, "counters", poison_bytes(counters.data(), bytes)));
}

constexpr suite_tier tier_of(atomic_pattern p, std::uint64_t bytes) {
  return p != atomic_pattern::scattered && bytes == sizes[2] ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  for (const atomic_case& c : patterns) {
    for (std::uint64_t bytes : sizes) {
      f.add({{"type", "f32"}, {"pattern", c.token}, {"bytes", format_size(bytes)}}, tier_of(c.pattern, bytes),
            [=](bench_context& ctx) { run_atomic(ctx, c.pattern, bytes); });
    }
  }
}

const family_registrar atomic_family{"global/atomic", &make_cases,
    "atomicAdd to global memory under contention", family_needs::gpu};

}  // namespace
}  // namespace membench::global
