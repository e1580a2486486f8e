// G1: misaligned global reads and writes (readSegment / writeSegment; Professional CUDA C
// ch. 4, The CUDA Handbook 5.2). c = a + b with the two reads (read_offset) or the write
// (write_offset) shifted by `offset` elements, one element per thread, 256 threads a block.
//
// Expected: a warp's 32 accesses are served in 32-byte sectors. When offset * sizeof(T)
// is not a multiple of 32, each warp touches one extra sector per array (5 instead of 4
// for f32), so DRAM-bound rows lose up to ~20 %; cached rows lose less, and offsets that
// are multiples of 8 f32 elements are aligned again. Old GPUs with 128-byte L1 lines
// (-dlcm=ca) lost more: compare the three builds.
// Bytes per launch: 3 * (n - offset) * sizeof(T) (offset_bytes).
// Sizes: 16 KiB (latency bound, cache resident), 4 MiB (L2), 1 GiB (DRAM).
// Tiers: quick has offsets 0 and 1 of f32 at 1 GiB; the default tier has every row.
#include <array>
#include <string>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "kernels/common/types.hpp"
#include "kernels/global/offset.cuh"

namespace membench::global {
namespace {

constexpr std::array<std::size_t, 9> offsets{0, 1, 2, 4, 8, 16, 32, 64, 128};
constexpr std::array<std::uint64_t, 3> sizes{std::uint64_t{16} << 10, std::uint64_t{4} << 20, std::uint64_t{1} << 30};
constexpr unsigned block = 256;

template <class T>
struct offset_workspace {
  device_buffer<T> a, b, c;
};

template <class T>
void run_offset(bench_context& ctx, bool read, std::size_t offset, std::uint64_t bytes) {
  const std::size_t n = bytes / sizeof(T);
  auto& ws = ctx.workspace<offset_workspace<T>>({"type", "bytes"}, [&] {
    ctx.require_device_bytes(3 * bytes);
    offset_workspace<T> w{device_buffer<T>(n), device_buffer<T>(n), device_buffer<T>(n)};
    fill_values(w.a.data(), n, offset_seed_a, ctx.stream());
    fill_values(w.b.data(), n, offset_seed_b, ctx.stream());
    return w;
  });
  const auto grid = static_cast<unsigned>(blocks_for(n, block));
  auto launch = [&](cudaStream_t s) {
    if (read) {
      read_offset_kernel<T><<<grid, block, 0, s>>>(ws.a.data(), ws.b.data(), ws.c.data(), n, offset);
    } else {
      write_offset_kernel<T><<<grid, block, 0, s>>>(ws.a.data(), ws.b.data(), ws.c.data(), n, offset);
    }
  };
  auto expected = [=](std::size_t i) {
    return read ? read_offset_expected<T>(i, n, offset) : write_offset_expected<T>(i, n, offset);
  };
  ctx.verify_and_time(l2_state::cold, offset_bytes(n, offset, sizeof(T)), launch,
                      array_check(ctx, ws.c.data(), n, expected, "c", poison_values(ws.c.data(), n)));
}

// Quick: offsets 0 and 1 of f32 at 1 GiB show the effect; every other row is cheap.
constexpr suite_tier tier_of(std::size_t offset, std::uint64_t bytes, bool f32) {
  return f32 && bytes == sizes[2] && offset <= 1 ? suite_tier::quick : suite_tier::standard;
}

template <class T>
void add_cases(family_builder& f, bool read) {
  for (std::size_t offset : offsets) {
    for (std::uint64_t bytes : sizes) {
      f.add({{"type", type_token<T>}, {"offset", std::to_string(offset)}, {"l2", "cold"}, {"bytes", format_size(bytes)}},
            tier_of(offset, bytes, sizeof(T) == 4), [=](bench_context& ctx) { run_offset<T>(ctx, read, offset, bytes); });
    }
  }
}

template <bool Read>
void make_cases(family_builder& f) {
  add_cases<float>(f, Read);
  add_cases<double>(f, Read);
}

const family_registrar read_offset_family{"global/read_offset", &make_cases<true>,
    "misaligned global reads: an offset into each warp's segment", family_needs::gpu};
const family_registrar write_offset_family{"global/write_offset", &make_cases<false>,
    "misaligned global writes: an offset into each warp's segment", family_needs::gpu};

}  // namespace
}  // namespace membench::global
