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
#include <array>
#include <optional>
#include <string>

#include "harness/harness_kernels.hpp"
#include "harness/parallel.hpp"
#include "harness/registry.hpp"
#include "harness/verify.hpp"
#include "kernels/global/bandwidth.cuh"

namespace membench::global {
namespace {

constexpr std::uint64_t buffer_bytes = std::uint64_t{1} << 30;
constexpr std::array<unsigned, 4> block_sizes{128, 256, 512, 1024};
constexpr std::size_t max_partials = buffer_bytes / 128;  // perthread, 1-byte elements, 128 threads, unroll 1
constexpr unsigned char memset_byte = 0xA5;

struct bandwidth_workspace {
  device_buffer<std::uint32_t> in, out, partials;
  std::optional<std::uint32_t> checksum;  // expected read checksum, computed on first use
};

bandwidth_workspace& get_workspace(bench_context& ctx) {
  return ctx.workspace<bandwidth_workspace>("global/bandwidth/" + std::to_string(buffer_bytes), [&] {
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

void verify_copy_of_input(bench_context& ctx, bandwidth_workspace& ws) {
  verify_device_array(ctx.stream(), ws.out.data(), ws.out.size(),
                      [](std::size_t i) { return pattern_word(i, bandwidth_seed); }, "out (copy of in)");
}

void poison_output(bench_context& ctx, bandwidth_workspace& ws) {
  fill_words(ws.out.data(), ws.out.size(), poison_seed, ctx.stream());
}

template <class Kernel>
unsigned grid_for(Kernel kernel, bool grid_stride, std::uint64_t tiles, unsigned block, const device_info& dev) {
  if (!grid_stride) return static_cast<unsigned>(tiles);
  int per_sm = 0;
  MEMBENCH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, static_cast<int>(block), 0));
  const std::uint64_t resident = std::uint64_t(per_sm > 0 ? per_sm : 1) * static_cast<std::uint64_t>(dev.sm_count);
  return static_cast<unsigned>(resident < tiles ? resident : tiles);
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
  ctx.verify_once([&] {
    if (op != bw_op::read) poison_output(ctx, ws);
    launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    switch (op) {
      case bw_op::read:
        verify_checksum(sum_device_words(ctx.stream(), ws.partials.data(), grid), expected_checksum(ws),
                        "sum of the block partials");
        break;
      case bw_op::write:
        verify_device_array(ctx.stream(), out, n, [](std::size_t i) { return write_element<T>(i); }, "out");
        break;
      case bw_op::copy: verify_copy_of_input(ctx, ws); break;
    }
  });
  ctx.set_counter("grid_blocks", grid);
  ctx.time_launches(l2_state::cold, bandwidth_bytes(op, n, sizeof(T), op == bw_op::read ? grid : 0), launch);
}

constexpr const char* op_token(bw_op op) {
  return op == bw_op::read ? "read" : op == bw_op::write ? "write" : "copy";
}

template <class T, int Unroll>
void add_unroll(std::vector<bench_case>& cases, bw_op op) {
  for (unsigned block : block_sizes) {
    for (bool grid_stride : {true, false}) {
      bench_name name{"global", op_token(op),
                      {{"width", std::to_string(sizeof(T))}, {"unroll", std::to_string(Unroll)},
                       {"block", std::to_string(block)}, {"style", grid_stride ? "gridstride" : "perthread"},
                       {"l2", "cold"}, {"bytes", format_size(buffer_bytes)}}};
      cases.push_back(make_case(name, [=](bench_context& ctx) {
        if (grid_stride) {
          run_bandwidth<T, Unroll, true>(ctx, op, block);
        } else {
          run_bandwidth<T, Unroll, false>(ctx, op, block);
        }
      }));
    }
  }
}

template <class T>
void add_width(std::vector<bench_case>& cases, bw_op op) {
  add_unroll<T, 1>(cases, op);
  add_unroll<T, 2>(cases, op);
  add_unroll<T, 4>(cases, op);
  add_unroll<T, 8>(cases, op);
}

template <bw_op Op>
std::vector<bench_case> make_cases() {
  std::vector<bench_case> cases;
  add_width<std::uint8_t>(cases, Op);
  add_width<std::uint16_t>(cases, Op);
  add_width<std::uint32_t>(cases, Op);
  add_width<std::uint64_t>(cases, Op);
  add_width<word16>(cases, Op);
  return cases;
}

std::vector<bench_case> make_reference_cases() {
  std::vector<bench_case> cases;
  const std::vector<name_param> params{{"l2", "cold"}, {"bytes", format_size(buffer_bytes)}};
  cases.push_back(make_case(bench_name{"global", "memcpy_d2d", params}, [](bench_context& ctx) {
    bandwidth_workspace& ws = get_workspace(ctx);
    auto launch = [&](cudaStream_t s) {
      MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.out.data(), ws.in.data(), buffer_bytes, cudaMemcpyDeviceToDevice, s));
    };
    ctx.verify_once([&] {
      poison_output(ctx, ws);
      launch(ctx.stream());
      verify_copy_of_input(ctx, ws);
    });
    ctx.time_launches(l2_state::cold, 2 * buffer_bytes, launch);
  }));
  cases.push_back(make_case(bench_name{"global", "memset", params}, [](bench_context& ctx) {
    bandwidth_workspace& ws = get_workspace(ctx);
    auto launch = [&](cudaStream_t s) { MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.out.data(), memset_byte, buffer_bytes, s)); };
    ctx.verify_once([&] {
      poison_output(ctx, ws);
      launch(ctx.stream());
      verify_device_array(ctx.stream(), ws.out.data(), ws.out.size(), [](std::size_t) { return 0xA5A5A5A5u; }, "out");
    });
    ctx.time_launches(l2_state::cold, buffer_bytes, launch);
  }));
  return cases;
}

const family_registrar read_family{"global/read", &make_cases<bw_op::read>};
const family_registrar write_family{"global/write", &make_cases<bw_op::write>};
const family_registrar copy_family{"global/copy", &make_cases<bw_op::copy>};
// Registered as one family so both references sit together in the listing.
const family_registrar reference_family{"global/memcpy_d2d", &make_reference_cases};

}  // namespace
}  // namespace membench::global
