// G3: peak global-memory bandwidth (The CUDA Handbook 5.2.10, GlobalReads/GlobalWrites/
// GlobalCopy<T, n>). Read, write and copy kernels over the element width (1..16 bytes),
// the unroll (independent accesses in flight per thread), the block size, and two grid
// styles: gridstride (a resident grid loops over the buffer) and perthread (one block per
// tile, no loop). In-suite vendor references from the same run: cudaMemcpyAsync
// device-to-device and cudaMemsetAsync.
//
// Expected: 16-byte accesses with a few in flight reach the DRAM peak and at least match
// cudaMemcpy; 1- and 2-byte accesses are limited by load/store instructions per byte, not
// by DRAM. Bytes per launch: bandwidth_bytes (read n*w plus 4 B per block for the checksum
// partials, write n*w, copy 2*n*w); memcpy 2*size, memset size.
// Size: 1 GiB per buffer, 20x the H100/H200 L2, so every row is a DRAM figure.
// Tiers: quick has widths 4 and 16 at unroll 8, block 512 (within 4 % of each op's best
// on the H100 and H200) in both styles, and both references; the default tier has unroll 1
// and 8 at blocks 256 and 1024 for every width and style (each row verifies 1 GiB on the host).
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/parallel.hpp"
#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/global/bandwidth.cuh"

namespace membench::global {
namespace {

constexpr std::uint64_t buffer_bytes = std::uint64_t{1} << 30;
constexpr std::array<unsigned, 4> block_sizes{128, 256, 512, 1024};
constexpr std::size_t max_partials = buffer_bytes / 128;  // perthread, 1-byte elements, 128 threads, unroll 1
constexpr unsigned char memset_byte = 0xA5;
constexpr int quick_unroll = 8;
constexpr unsigned quick_block = 512;

struct bandwidth_workspace {
  device_buffer<std::uint32_t> in, out, partials;
  std::optional<std::uint32_t> checksum;  // expected read checksum, computed on first use
};

// One pair of 1 GiB buffers for every row of the five experiments.
bandwidth_workspace& get_workspace(bench_context& ctx) {
  return ctx.workspace<bandwidth_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(2 * buffer_bytes + 4 * max_partials);
    const std::size_t words = buffer_bytes / 4;
    bandwidth_workspace w{device_buffer<std::uint32_t>(words), device_buffer<std::uint32_t>(words),
                          device_buffer<std::uint32_t>(max_partials), std::nullopt};
    fill_words(w.in.data(), words, bandwidth_seed, ctx.stream());
    return w;
  });
}

std::uint32_t expected_checksum(bandwidth_workspace& ws) {
  if (!ws.checksum) {
    ws.checksum = parallel_sum_u32(ws.in.size(), [](std::size_t i) { return pattern_word(i, bandwidth_seed); });
  }
  return *ws.checksum;
}

launch_fn poison_output(bandwidth_workspace& ws) { return poison_words(ws.out.data(), ws.out.size(), poison_seed); }

output_check copy_of_input(bench_context& ctx, bandwidth_workspace& ws) {
  return array_check(ctx, ws.out.data(), ws.out.size(), [](std::size_t i) { return pattern_word(i, bandwidth_seed); },
                     "out (copy of in)", poison_output(ws));
}

template <class Kernel>
unsigned grid_for(Kernel kernel, bool grid_stride, std::uint64_t tiles, unsigned block, const device_info& dev) {
  return grid_stride ? grid_stride_blocks(kernel, block, tiles, dev) : static_cast<unsigned>(tiles);
}

template <class T, int Unroll, bool GridStride>
void run_bandwidth(bench_context& ctx, bw_op op, unsigned block) {
  bandwidth_workspace& ws = get_workspace(ctx);
  const std::size_t n = buffer_bytes / sizeof(T);
  T* in = reinterpret_cast<T*>(ws.in.data());
  T* out = reinterpret_cast<T*>(ws.out.data());
  const std::uint64_t tiles = blocks_for(n, block, Unroll);
  unsigned grid = 0;
  switch (op) {
    case bw_op::read: grid = grid_for(read_kernel<T, Unroll, GridStride>, GridStride, tiles, block, ctx.device()); break;
    case bw_op::write: grid = grid_for(write_kernel<T, Unroll, GridStride>, GridStride, tiles, block, ctx.device()); break;
    case bw_op::copy: grid = grid_for(copy_kernel<T, Unroll, GridStride>, GridStride, tiles, block, ctx.device()); break;
  }
  auto launch = [&](cudaStream_t s) {
    switch (op) {
      case bw_op::read: read_kernel<T, Unroll, GridStride><<<grid, block, 0, s>>>(in, n, ws.partials.data()); break;
      case bw_op::write: write_kernel<T, Unroll, GridStride><<<grid, block, 0, s>>>(out, n); break;
      case bw_op::copy: copy_kernel<T, Unroll, GridStride><<<grid, block, 0, s>>>(in, out, n); break;
    }
  };
  output_check check;
  switch (op) {
    case bw_op::read:  // nothing to poison: every block writes its partial
      check.verify = [&] {
        verify_checksum(sum_device_words(ctx.stream(), ws.partials.data(), grid), expected_checksum(ws),
                        "sum of the block partials");
      };
      break;
    case bw_op::write:
      check = array_check(ctx, out, n, [](std::size_t i) { return write_element<T>(i); }, "out", poison_output(ws));
      break;
    case bw_op::copy: check = copy_of_input(ctx, ws); break;
  }
  ctx.verify_and_time(l2_state::cold, bandwidth_bytes(op, n, sizeof(T), op == bw_op::read ? grid : 0), launch, check);
  ctx.set_counter(schema::counter("grid_blocks"), grid);
}

// Each write and copy row checks its 1 GiB output on the host once (~0.13 s): the default
// tier keeps unroll 1 and 8 at blocks 256 and 1024, every width and style (40 rows per op).
constexpr suite_tier tier_of(std::size_t width, int unroll, unsigned block) {
  if ((width == 4 || width == 16) && unroll == quick_unroll && block == quick_block) return suite_tier::quick;
  return (unroll == 1 || unroll == 8) && (block == 256 || block == 1024) ? suite_tier::standard : suite_tier::full;
}

template <class T, int Unroll>
void add_unroll(family_builder& f, bw_op op) {
  for (unsigned block : block_sizes) {
    for (bool grid_stride : {true, false}) {
      f.add({{"width", std::to_string(sizeof(T))}, {"unroll", std::to_string(Unroll)}, {"block", std::to_string(block)},
             {"style", grid_stride ? "gridstride" : "perthread"}, {"l2", "cold"}, {"bytes", format_size(buffer_bytes)}},
            tier_of(sizeof(T), Unroll, block), [=](bench_context& ctx) {
              if (grid_stride) {
                run_bandwidth<T, Unroll, true>(ctx, op, block);
              } else {
                run_bandwidth<T, Unroll, false>(ctx, op, block);
              }
            });
    }
  }
}

template <class T>
void add_width(family_builder& f, bw_op op) {
  add_unroll<T, 1>(f, op);
  add_unroll<T, 2>(f, op);
  add_unroll<T, 4>(f, op);
  add_unroll<T, 8>(f, op);
}

template <bw_op Op>
void make_cases(family_builder& f) {
  add_width<std::uint8_t>(f, Op);
  add_width<std::uint16_t>(f, Op);
  add_width<std::uint32_t>(f, Op);
  add_width<std::uint64_t>(f, Op);
  add_width<word16>(f, Op);
}

// The vendor references: one row each, named like the kernels' rows without a configuration.
std::vector<name_param> reference_params() { return {{"l2", "cold"}, {"bytes", format_size(buffer_bytes)}}; }

void make_memcpy_cases(family_builder& f) {
  f.add(reference_params(), suite_tier::quick, [](bench_context& ctx) {
    bandwidth_workspace& ws = get_workspace(ctx);
    auto launch = [&](cudaStream_t s) {
      MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.out.data(), ws.in.data(), buffer_bytes, cudaMemcpyDeviceToDevice, s));
    };
    ctx.verify_and_time(l2_state::cold, 2 * buffer_bytes, launch, copy_of_input(ctx, ws));
  });
}

void make_memset_cases(family_builder& f) {
  f.add(reference_params(), suite_tier::quick, [](bench_context& ctx) {
    bandwidth_workspace& ws = get_workspace(ctx);
    auto launch = [&](cudaStream_t s) { MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.out.data(), memset_byte, buffer_bytes, s)); };
    ctx.verify_and_time(l2_state::cold, buffer_bytes, launch,
                        array_check(ctx, ws.out.data(), ws.out.size(), [](std::size_t) { return 0xA5A5A5A5u; }, "out",
                                    poison_output(ws)));
  });
}

const family_registrar read_family{"global/read", &make_cases<bw_op::read>,
    "peak global-memory bandwidth: a read kernel", family_needs::gpu};
const family_registrar write_family{"global/write", &make_cases<bw_op::write>,
    "peak global-memory bandwidth: a write kernel", family_needs::gpu};
const family_registrar copy_family{"global/copy", &make_cases<bw_op::copy>,
    "peak global-memory bandwidth: a copy kernel", family_needs::gpu};
const family_registrar memcpy_family{"global/memcpy_d2d", &make_memcpy_cases,
    "device-to-device cudaMemcpy, the vendor reference for the copy kernel", family_needs::gpu};
const family_registrar memset_family{"global/memset", &make_memset_cases,
    "cudaMemsetAsync, the vendor reference for the write kernel", family_needs::gpu};

}  // namespace
}  // namespace membench::global
