// B3: staging tiles through shared memory, four ways. A persistent grid (one block of 256
// threads per SM) streams an array through shared memory in 16 KiB tiles and consumes each
// tile with the same cheap position-weighted checksum, so the copy path is what differs:
//   sync   plain loads to registers, stores to shared memory, __syncthreads (stages:2 keeps
//          the next tile's loads in flight in registers: the pre-Ampere double buffer);
//   ldgsts cp.async.cg, 16 bytes per thread (LDGSTS), one commit group per tile;
//   bulk   one thread issues one 16 KiB cp.async.bulk per tile (1D TMA, UBLKCP), completing
//          on its stage's mbarrier (expect_tx, try_wait.parity);
//   tensor the same with cp.async.bulk.tensor.2d (UTMALDG) and a CUtensorMap encoded on the
//          host through the driver entry point (rows of 1 KiB, 256 x 16 boxes: one box is one
//          tile, so every method fills shared memory with the same bytes).
// stages:S is S buffers per block, all S in flight while the block waits; a buffer is refilled
// after the barrier that ends its consumption. One block per SM makes the stages the only
// latency hiding beyond one tile: at most S x 16 KiB in flight per SM (Little's law).
// Sizes: 16M stays in the L2 (read 64 times per launch), 1G comes from HBM (one pass). Both
// are l2:warm (never flushed): 16M is the L2-resident case, and a flush would not change a set
// 20 times the L2.
// Expected (H100 SXM): at 1G one stage ~2.1 TB/s whatever the method (16 KiB per SM per HBM
// round trip), two stages ~2.9, four ~3.05-3.1 TB/s (about 92 % of peak) for ldgsts, bulk and
// tensor alike; sync with two buffers ~2.2 (its register prefetch covers one tile and the
// stores wait for it). At 16M ~3.5 TB/s with one stage, ~5-5.5 TB/s with two or four.
// The dlcm build matters only to sync (plain loads); cp.async.cg and the TMA copies bypass L1.
// Verification: every block's checksum against the host's (one checksum per tile), after the
// block results are poisoned: a stage read before it landed or after it was refilled, or a
// wrong box, is a mismatch.
// Bytes per launch: staging_bytes = passes x tiles x 16 KiB, the bytes read.
// Architecture: ldgsts needs sm_80, bulk and tensor sm_90; other GPUs skip those rows.
// Tiers: quick has tensor with 4 stages and sync with 1 at 16M (the TMA pipeline and the
// plain copy the profile page sets it against, cheap to verify); the default tier has every row.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/parallel.hpp"
#include "harness/core/driver_api.hpp"
#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/async/staging.cuh"
#include "kernels/common/fill.cuh"

namespace membench::async {
namespace {

constexpr std::array<std::uint64_t, 2> sizes{std::uint64_t{16} << 20, std::uint64_t{1} << 30};
constexpr std::array<staging_method, 4> methods{staging_method::sync, staging_method::ldgsts, staging_method::bulk,
                                                staging_method::tensor};
constexpr std::array<int, 3> stage_counts{1, 2, 4};

// ---- cuTensorMapEncodeTiled, looked up at run time (libcuda is never linked) ----------------

struct driver_tensor_map {
  PFN_cuTensorMapEncodeTiled_v12000 encode_tiled = nullptr;
};

/// Looked up on first use (a CUDA context exists by then), once per process.
const driver_tensor_map& driver() {
  static const driver_tensor_map fns = [] {
    driver_tensor_map d;
    d.encode_tiled = driver_entry<PFN_cuTensorMapEncodeTiled_v12000>("cuTensorMapEncodeTiled", 12000);
    return d;
  }();
  return fns;
}

/// The map of the tensor method over `bytes` at `base`. Encoding is host work: nothing is
/// launched. throws std::runtime_error naming the CUresult
CUtensorMap encode_tensor_map(void* base, std::uint64_t bytes) {
  const staging_tensor_geometry g = make_staging_tensor_geometry(bytes);
  const cuuint64_t dims[2] = {g.dims[0], g.dims[1]};
  const cuuint64_t strides[1] = {g.row_stride};  // of dimension 1; dimension 0 is packed
  const cuuint32_t box[2] = {g.box[0], g.box[1]};
  const cuuint32_t element_strides[2] = {1, 1};
  CUtensorMap map{};
  const CUresult r = driver().encode_tiled(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, base, dims, strides, box,
                                           element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                           CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) throw std::runtime_error(driver_failure(r, "cuTensorMapEncodeTiled"));
  return map;
}

// ---- the rows --------------------------------------------------------------------------------

using staging_kernel_fn = void (*)(const uint4*, CUtensorMap, staging_shape, std::uint32_t*);

template <staging_method M>
staging_kernel_fn kernel_for_stages(int stages) {
  switch (stages) {
    case 1: return staging_kernel<M, 1>;
    case 2: return staging_kernel<M, 2>;
    default: return staging_kernel<M, 4>;
  }
}

staging_kernel_fn kernel_for(staging_method m, int stages) {
  switch (m) {
    case staging_method::sync: return stages == 1 ? staging_kernel<staging_method::sync, 1> : staging_kernel<staging_method::sync, 2>;
    case staging_method::ldgsts: return kernel_for_stages<staging_method::ldgsts>(stages);
    case staging_method::bulk: return kernel_for_stages<staging_method::bulk>(stages);
    case staging_method::tensor: return kernel_for_stages<staging_method::tensor>(stages);
  }
  return nullptr;
}

/// The 16 bytes of slot i of the input: words 4i to 4i + 3.
MEMBENCH_HD uint4 staging_slot(std::uint64_t i) {
  return make_uint4(staging_word(4 * i), staging_word(4 * i + 1), staging_word(4 * i + 2), staging_word(4 * i + 3));
}

struct staging_workspace {
  device_buffer<uint4> in;
  device_buffer<std::uint32_t> partials;  ///< one per block, for the most blocks any row launches
  std::vector<std::uint32_t> tile_sums;   ///< the reference's checksum of every tile
};

std::string arch_token(int arch) { return "sm_" + std::to_string(arch); }

void run_staging(bench_context& ctx, staging_method method, int stages, std::uint64_t bytes) {
  const int need = staging_min_arch(method);
  if (ctx.device().arch() < need) {
    throw infeasible(std::string("needs ") + arch_token(need) + (need >= 90 ? " (TMA)" : " (cp.async)") +
                     "; this GPU is " + arch_token(ctx.device().arch()));
  }
  const staging_kernel_fn kernel = kernel_for(method, stages);
  // The device code of a method below its architecture is compiled out: a build that has only
  // older code for this GPU (PTX JIT) would run an empty kernel.
  cudaFuncAttributes attr{};
  MEMBENCH_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  if (attr.ptxVersion < need) {
    throw infeasible(std::string("this build has only ") + arch_token(attr.ptxVersion) + " code for the kernel; " +
                     to_token(method) + " needs " + arch_token(need));
  }
  const std::uint32_t smem = staging_smem_bytes(stages);
  if (smem > ctx.device().smem_per_block_optin_bytes) {
    throw infeasible("needs " + std::to_string(smem) + " bytes of shared memory per block; this GPU allows " +
                     std::to_string(ctx.device().smem_per_block_optin_bytes));
  }
  MEMBENCH_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  const int per_sm = resident_blocks_per_sm(kernel, staging_block, smem);
  if (per_sm < 1) throw infeasible("a block of " + std::to_string(smem) + " bytes of shared memory cannot be resident");
  const auto max_grid = static_cast<std::uint64_t>(ctx.device().sm_count) * staging_blocks_per_sm;
  const auto grid = static_cast<std::uint64_t>(ctx.device().sm_count) *
                    std::min<std::uint64_t>(staging_blocks_per_sm, static_cast<std::uint64_t>(per_sm));
  const staging_shape shape = make_staging_shape(bytes);

  auto& ws = ctx.workspace<staging_workspace>({"bytes"}, [&] {
    ctx.require_device_bytes(bytes + max_grid * sizeof(std::uint32_t));
    staging_workspace w{device_buffer<uint4>(bytes / 16), device_buffer<std::uint32_t>(max_grid),
                        std::vector<std::uint32_t>(shape.tiles)};
    fill_device<staging_slot>(w.in.data(), bytes / 16, ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    parallel_parts(
        shape.tiles,
        [&w](std::size_t b, std::size_t e, std::size_t) {
          for (std::size_t tile = b; tile < e; ++tile) w.tile_sums[tile] = staging_tile_checksum(tile);
        },
        1);
    return w;
  });
  CUtensorMap map{};
  if (method == staging_method::tensor) map = encode_tensor_map(ws.in.data(), bytes);

  const uint4* in = ws.in.data();
  std::uint32_t* partials = ws.partials.data();
  auto launch = [=](cudaStream_t s) {
    kernel<<<static_cast<unsigned>(grid), staging_block, smem, s>>>(in, map, shape, partials);
  };
  auto verify = [&ctx, &ws, shape, grid] {
    std::vector<std::uint32_t> expected(grid);
    for (std::uint64_t b = 0; b < grid; ++b) expected[b] = staging_block_expected(shape, ws.tile_sums, b, grid);
    verify_device_array(ctx.reader(), ws.partials.data(), grid, [&](std::size_t b) { return expected[b]; },
                        "block checksums");
  };
  launch_options opt{};
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = bytes > ctx.device().l2_bytes;  // of DRAM: meaningless for an L2-resident set
  ctx.verify_and_time(opt, staging_bytes(shape), launch, {poison_words(partials, grid, 0xBAD3), verify});
  ctx.set_counter(schema::counter("grid_blocks"), static_cast<double>(grid));
  ctx.set_counter(schema::counter("passes"), static_cast<double>(shape.passes));
}

void make_cases(family_builder& f) {
  // Sizes outermost: the rows of one size share its array and its reference.
  for (std::uint64_t bytes : sizes) {
    for (staging_method m : methods) {
      for (int stages : stage_counts) {
        if (!staging_case_exists(m, stages)) continue;
        // Quick: the tensor copy and the plain synchronous one it is set against.
        const bool headline = (m == staging_method::tensor && stages == 4) || (m == staging_method::sync && stages == 1);
        const bool quick = headline && bytes == sizes.front();
        f.add({{"method", to_token(m)}, {"stages", std::to_string(stages)}, {"bytes", format_size(bytes)}},
              quick ? suite_tier::quick : suite_tier::standard,
              [=](bench_context& ctx) { run_staging(ctx, m, stages, bytes); });
      }
    }
  }
}

const family_registrar staging_family{"async/staging", &make_cases,
    "tiles staged through shared memory four ways: plain loads, cp.async, bulk copies (TMA)", family_needs::sm90};

}  // namespace
}  // namespace membench::async
