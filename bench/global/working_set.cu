// G5: working-set sweep (Professional CUDA C ch. 4: the memory hierarchy). A resident grid
// of 256-thread blocks reads a working set of 16-byte elements in passes, at least 1 GiB
// of loads per launch: powers of two from 16 KiB to 2 GiB, and 20-28, 40-56 and 80-112 MiB
// between them, where the aggregate L1 (about 33 MiB on 132 SMs) and the L2 (50 or 60 MiB)
// end. The L2 is warm (not flushed): a set re-read many times in one launch forgets how the
// launch found the L2, and the 1-2 GiB sets read once stream past it.
//
// map:fixed re-reads the same addresses from the same threads every pass, so an SM's
// share (working set / SMs) stays in its L1 while it fits; map:rotate moves every block to
// data another SM read last pass, so reuse comes from L2 only (or L1 when the whole set
// fits in one SM's L1). Expected: plateaus at L1, L2 and DRAM bandwidth; the cg build
// loses the L1 plateau of map:fixed.
// Each thread's loads run as one flat, unrolled sequence across passes (working_set_cursor),
// so sets smaller than the grid (one load per thread per pass) still keep several loads in
// flight. Bytes per launch: working_set_bytes = passes * max(n, threads) * 16 + 4 per block.
// Tiers: quick has map:fixed with the L2 warm at 1 MiB (L1), 32 MiB (L2) and 1 GiB (DRAM);
// the default tier has every row, the whole sweep being the point.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "common/parallel.hpp"
#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/common/fill.cuh"
#include "kernels/global/working_set.cuh"

namespace membench::global {
namespace {

constexpr unsigned block = 256;
constexpr std::uint64_t min_bytes = std::uint64_t{16} << 10;
constexpr std::uint64_t max_bytes = std::uint64_t{2} << 30;
constexpr std::array<std::uint64_t, 3> quick_sizes{std::uint64_t{1} << 20, std::uint64_t{32} << 20, std::uint64_t{1} << 30};
constexpr std::uint64_t mib = std::uint64_t{1} << 20;
// Between the powers of two where a level ends: the aggregate L1 and one L2 partition
// (20-28 MiB), the whole L2 (40-56 MiB), past it (80-112 MiB).
constexpr std::array<std::uint64_t, 9> between_sizes{20 * mib, 24 * mib, 28 * mib, 40 * mib, 48 * mib,
                                                     56 * mib, 80 * mib, 96 * mib, 112 * mib};

std::vector<std::uint64_t> working_set_sizes() {
  std::vector<std::uint64_t> sizes(between_sizes.begin(), between_sizes.end());
  for (std::uint64_t bytes = min_bytes; bytes <= max_bytes; bytes *= 2) sizes.push_back(bytes);
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

struct working_set_workspace {
  device_buffer<word16> in;
  device_buffer<std::uint32_t> partials;
};

// Reference per block: the sum of what each of its threads loads.
output_check partial_sums_check(bench_context& ctx, const working_set_workspace& ws, const working_set_shape& shape,
                                std::uint64_t blocks) {
  auto verify = [&ctx, &ws, shape, blocks] {
    std::vector<std::uint32_t> expected(blocks);
    parallel_parts(
        blocks,
        [&](std::size_t b, std::size_t e, std::size_t) {
          for (std::size_t blk = b; blk < e; ++blk) {
            std::uint32_t acc = 0;
            for (unsigned t = 0; t < block; ++t) acc += working_set_thread_expected(shape, blk * block + t);
            expected[blk] = acc;
          }
        },
        1);
    verify_device_array(ctx.reader(), ws.partials.data(), blocks, [&](std::size_t b) { return expected[b]; },
                        "block partial sums");
  };
  return {poison_words(ws.partials.data(), blocks, 0xBAD), verify};
}

void run_working_set(bench_context& ctx, bool rotate, std::uint64_t bytes) {
  const std::uint64_t blocks = resident_blocks(working_set_kernel<true>, block, ctx.device());
  const working_set_shape shape = make_working_set_shape(bytes, blocks * block, block, rotate);
  if (!working_set_shape_ok(shape))
    throw infeasible(format_size(bytes) + " is not a power of two and holds fewer 16-byte elements than the grid's " +
                     std::to_string(blocks * block) + " threads");
  const bool pow2 = is_pow2(shape.n);
  auto& ws = ctx.workspace<working_set_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(bytes + blocks * 4);
    working_set_workspace w{device_buffer<word16>(shape.n), device_buffer<std::uint32_t>(blocks)};
    fill_device<working_set_value>(w.in.data(), shape.n, ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    return w;
  });
  auto launch = [&](cudaStream_t s) {
    if (pow2) {
      working_set_kernel<true><<<static_cast<unsigned>(blocks), block, 0, s>>>(ws.in.data(), shape, ws.partials.data());
    } else {
      working_set_kernel<false><<<static_cast<unsigned>(blocks), block, 0, s>>>(ws.in.data(), shape, ws.partials.data());
    }
  };
  ctx.verify_and_time(l2_state::warm, working_set_bytes(shape, blocks), launch, partial_sums_check(ctx, ws, shape, blocks));
  ctx.set_counter(schema::counter("passes"), static_cast<double>(shape.passes));
}

constexpr suite_tier tier_of(bool rotate, std::uint64_t bytes) {
  for (std::uint64_t q : quick_sizes) {
    if (!rotate && bytes == q) return suite_tier::quick;
  }
  return suite_tier::standard;
}

// The name keeps `l2:warm`, the one state, so that results stay comparable with earlier runs.
void make_cases(family_builder& f) {
  for (bool rotate : {false, true}) {
    for (std::uint64_t bytes : working_set_sizes()) {
      f.add({{"map", rotate ? "rotate" : "fixed"}, {"l2", to_string(l2_state::warm)}, {"bytes", format_size(bytes)}},
            tier_of(rotate, bytes), [=](bench_context& ctx) { run_working_set(ctx, rotate, bytes); });
    }
  }
}

const family_registrar working_set_family{"global/working_set", &make_cases,
    "bandwidth by working-set size: L1, L2 and DRAM in one sweep", family_needs::gpu};

}  // namespace
}  // namespace membench::global
