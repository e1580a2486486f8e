// A2: pitched 2D arrays (The CUDA Handbook 5.2.2 "Pitched Allocations", Figure 5.1). A 2D
// array of 4-byte elements allocated with cudaMallocPitch (layout:pitched: the driver pads
// each row to its pitch, recorded as `pitch_bytes`) or with cudaMalloc of rows x row_bytes
// (layout:packed: no padding, so row r starts at r * row_bytes). Rows of 251, 1001 and 4097
// elements (odd: packed rows start misaligned, `misaligned_rows_pct` of them off a 128-byte
// boundary) and of 1024 elements (aligned: both layouts are the same), 1024 and 65536 rows.
// What moves the rows: a row-walking copy kernel (each block walks rows, its threads the
// row's elements; api:kernel), cudaMemcpy2DAsync device to device (api:memcpy_2d/dir:d2d)
// and from packed rows in pinned host memory (api:memcpy_2d/dir:h2d).
//
// Expected: pitched rows keep every row's first request aligned, so the kernel runs at the
// aligned width's rate; packed odd rows split most warps' 128-byte requests over five 32-byte
// sectors instead of four. L2 serves the overlap with the neighbouring request, so on Hopper
// the cost should be a few percent (as for G1's offsets), far less than on the Handbook's
// GPUs. cudaMemcpy2D pays for narrow rows either way; host copies run at the PCIe rate
// whatever the layout.
// Timing: the kernel with the blocking method; copies with plain events on the benchmark's
// stream (timing:events, fallback:copy_engine), as every copy in the suite.
// Bytes per launch: pitched_bytes (2 x rows x row_bytes device to device, rows x row_bytes
// host to device; padding not counted). pct_peak: of DRAM for 65536 rows (device to device),
// of the PCIe link for host copies; none for 1024 rows (L2-sized).
// Verification: the destination allocation is poisoned, one launch, then every word is
// compared: the source's element in each row, the untouched poison in the padding.
// Tiers: quick has the kernel on pitched against packed rows of 1001 elements, 65536 rows
// (the misaligned rows' cost at DRAM, 250 MiB arrays); the default tier has every row but
// those of 4097 elements by 65536 rows, which only repeat the effect on 1 GiB arrays (and
// a GiB of pinned host rows) and are in the full tier.
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/host_memory.hpp"
#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "host/pcie_options.hpp"
#include "kernels/alloc/pitched.cuh"

namespace membench::alloc {
namespace {

// A 2D array in device memory: cudaMallocPitch (pitched) or cudaMalloc of rows x row_bytes
// (packed). Move-only; freed with cudaFree.
class array_2d {
 public:
  array_2d(pitched_layout layout, std::size_t row_bytes, std::size_t rows) : rows_(rows) {
    void* p = nullptr;
    if (layout == pitched_layout::pitched) {
      MEMBENCH_CUDA_CHECK(cudaMallocPitch(&p, &pitch_, row_bytes, rows));
    } else {
      MEMBENCH_CUDA_CHECK(cudaMalloc(&p, row_bytes * rows));
      pitch_ = row_bytes;
    }
    p_ = static_cast<std::uint32_t*>(p);
  }
  array_2d(array_2d&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), pitch_(std::exchange(o.pitch_, 0)), rows_(std::exchange(o.rows_, 0)) {}
  array_2d& operator=(array_2d&&) = delete;
  array_2d(const array_2d&) = delete;
  array_2d& operator=(const array_2d&) = delete;
  ~array_2d() {
    if (p_ != nullptr) MEMBENCH_CUDA_LOG(cudaFree(p_));
  }
  std::uint32_t* data() const noexcept { return p_; }
  std::size_t pitch() const noexcept { return pitch_; }
  std::size_t pitch_words() const noexcept { return pitch_ / pitched_elem_bytes; }
  std::size_t words() const noexcept { return pitch_words() * rows_; }

 private:
  std::uint32_t* p_ = nullptr;
  std::size_t pitch_ = 0;
  std::size_t rows_ = 0;
};

struct pitched_workspace {
  array_2d in, out;
  std::optional<host_buffer> host;  // packed rows in pinned memory, made by the first h2d row
  unsigned grid = 0;
};

void run_pitched(bench_context& ctx, pitched_op op, pitched_layout layout, std::uint64_t row_bytes, std::uint64_t rows) {
  const std::uint64_t cols = row_bytes / pitched_elem_bytes;
  auto& ws = ctx.workspace<pitched_workspace>({"layout", "row_bytes", "rows"}, [&] {
    // Pitches are padded to at most 512 bytes on current GPUs.
    ctx.require_device_bytes(2 * rows * ((row_bytes + 511) / 512 * 512));
    pitched_workspace w{array_2d(layout, row_bytes, rows), array_2d(layout, row_bytes, rows), std::nullopt,
                        grid_stride_blocks(pitched_kernel, pitched_block, rows, ctx.device())};
    // The source: its own poison in the padding, the elements in the rows.
    fill_words(w.in.data(), w.in.words(), pitched_seed ^ 0xFFFFu, ctx.stream());
    pitched_fill_kernel<<<w.grid, pitched_block, 0, ctx.stream()>>>(w.in.data(), w.in.pitch_words(), cols, rows);
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    return w;
  });
  if (op == pitched_op::memcpy_h2d && !ws.host) {
    ws.host.emplace(host_kind::pinned, rows * row_bytes);
    host::fill_host(reinterpret_cast<std::uint32_t*>(ws.host->data()), rows * cols,
                    [cols](std::size_t i) { return pitched_value(i / cols, i % cols, cols); });
  }
  if (ws.in.pitch() != ws.out.pitch()) {
    throw std::runtime_error("cudaMallocPitch gave two arrays of one shape different pitches: " +
                             std::to_string(ws.in.pitch()) + " and " + std::to_string(ws.out.pitch()));
  }
  std::uint32_t* in = ws.in.data();
  std::uint32_t* out = ws.out.data();
  const std::size_t pitch = ws.out.pitch();
  const std::uint64_t pitch_words = ws.out.pitch_words();
  const unsigned grid = ws.grid;
  const void* host = ws.host ? static_cast<const void*>(ws.host->data()) : nullptr;
  auto launch = [=](cudaStream_t s) {
    switch (op) {
      case pitched_op::kernel: pitched_kernel<<<grid, pitched_block, 0, s>>>(in, out, pitch_words, cols, rows); break;
      case pitched_op::memcpy_d2d:
        MEMBENCH_CUDA_CHECK(cudaMemcpy2DAsync(out, pitch, in, pitch, row_bytes, rows, cudaMemcpyDeviceToDevice, s));
        break;
      case pitched_op::memcpy_h2d:
        MEMBENCH_CUDA_CHECK(cudaMemcpy2DAsync(out, pitch, host, row_bytes, row_bytes, rows, cudaMemcpyHostToDevice, s));
        break;
    }
  };
  const bool dram = rows >= pitched_dram_rows;
  launch_options opt;
  if (op == pitched_op::memcpy_h2d) {
    opt = host::over_pcie(ctx);
  } else {
    opt.l2 = l2_state::cold;
    opt.copy_engine = op == pitched_op::memcpy_d2d;
    opt.report_pct_peak = dram;
  }
  ctx.verify_and_time(opt, pitched_bytes(op, rows, row_bytes), launch,
                      array_check(ctx, out, ws.out.words(),
                                  [pitch_words, cols](std::size_t i) { return pitched_expected(i, pitch_words, cols); },
                                  "destination array (elements and padding)",
                                  poison_words(out, ws.out.words(), pitched_poison_seed)));
  ctx.set_counter(schema::counter("pitch_bytes"), static_cast<double>(pitch));
  ctx.set_counter(schema::counter("padding_bytes_per_row"), static_cast<double>(pitch - row_bytes));
  ctx.set_counter(schema::counter("misaligned_rows_pct"),
                  100.0 * static_cast<double>(misaligned_rows(rows, pitch, row_alignment)) / static_cast<double>(rows));
  if (op == pitched_op::kernel) ctx.set_counter(schema::counter("grid_blocks"), grid);
}

constexpr std::uint64_t quick_row_bytes = 4004;

constexpr suite_tier tier_of(pitched_op op, std::uint64_t row_bytes, std::uint64_t rows) {
  if (row_bytes == pitched_row_bytes.back() && rows == pitched_rows.back()) return suite_tier::full;
  const bool headline = op == pitched_op::kernel && row_bytes == quick_row_bytes && rows == pitched_dram_rows;
  return headline ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  // Array shape outermost: the rows sharing a workspace run back to back.
  for (std::uint64_t row_bytes : pitched_row_bytes) {
    for (std::uint64_t rows : pitched_rows) {
      for (pitched_layout layout : all_pitched_layouts) {
        for (pitched_op op : all_pitched_ops) {
          f.add({{"api", api_token(op)},
                 {"dir", dir_token(op)},
                 {"layout", to_string(layout)},
                 {"row_bytes", format_size(row_bytes)},
                 {"rows", std::to_string(rows)}},
                tier_of(op, row_bytes, rows),
                [=](bench_context& ctx) { run_pitched(ctx, op, layout, row_bytes, rows); });
        }
      }
    }
  }
}

const family_registrar pitched_family{"alloc/pitched", &make_cases,
    "pitched 2D arrays: cudaMallocPitch rows against unpadded ones", family_needs::gpu};

}  // namespace
}  // namespace membench::alloc
