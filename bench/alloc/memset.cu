// A3: the memset APIs (The CUDA Handbook 5.2.5 "Memset APIs", Table 5.2). Fill rate of
// cudaMemsetAsync (bytes only), the driver API's cuMemsetD8/D16/D32Async (1-, 2- and 4-byte
// words) and a memset kernel of 4- or 16-byte stores (GPUmemset / GlobalWrites), on 1 MiB to
// 1 GiB (alloc/memset); and their 2D forms cudaMemset2DAsync, cuMemsetD2D8/16/32Async and a
// row-walking kernel on a cudaMallocPitch array of 4000-byte rows (alloc/memset_2d; the
// padding past each row must stay untouched). The `width` key is the word size of the fill.
// The driver API is reached through cudaGetDriverEntryPointByVersion, never linked: the
// executables must start where there is no libcuda.so.1 (listing benchmarks in CI). The
// stream-ordered (Async) forms run on the benchmark's stream; the Handbook's synchronous
// forms are the same fills on the legacy stream.
//
// Expected: the memset APIs are kernels themselves (Handbook). Where the driver can widen a
// fill to wide stores (large aligned 1D buffers) every API should approach the DRAM write
// rate whatever its word size, like the 16-byte kernel (the 4-byte kernel issues four times
// the stores and may fall short); the Handbook's byte-wise vs word-wise gap should show where
// the driver cannot widen: 2D rows of 4000 bytes (not a multiple of 128), where 1- and 2-byte
// fills may fall back to narrow stores. At 1 MiB the launch, not the fill, is the time.
// Timing: as any launch (timing:blocking), L2 flushed before each sample.
// Bytes per launch: memset_bytes (the filled bytes; padding not counted). pct_peak: of DRAM
// from 256 MiB up.
// Verification: the buffer is poisoned, filled once, then every 32-bit word is compared
// with the fill value of its width (0xA5, 0xA5C3, 0xA5C3E1F0, four words for 16 bytes),
// and, in 2D, each row's padding with the poison.
// Tiers: quick has cudaMemsetAsync against the 16-byte kernel at 256 MiB (1D) and at 65536
// rows (2D): the API against the widest stores, at DRAM; the default tier has every row
// at 1 MiB and 256 MiB (1D) and at 256 and 65536 rows (2D); 1 GiB and 262144 rows (the same
// DRAM rates, 1 GiB to verify) are in the full tier only.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/core/driver_api.hpp"
#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/alloc/memset.cuh"

namespace membench::alloc {
namespace {

// ---- the driver API, looked up at run time -------------------------------------------------

struct driver_memset {
  PFN_cuMemsetD8Async_v3020 d8 = nullptr;
  PFN_cuMemsetD16Async_v3020 d16 = nullptr;
  PFN_cuMemsetD32Async_v3020 d32 = nullptr;
  PFN_cuMemsetD2D8Async_v3020 d2d8 = nullptr;
  PFN_cuMemsetD2D16Async_v3020 d2d16 = nullptr;
  PFN_cuMemsetD2D32Async_v3020 d2d32 = nullptr;
};

/// Looked up on first use (a CUDA context exists by then), once per process.
const driver_memset& driver() {
  static const driver_memset fns = [] {
    driver_memset d;
    d.d8 = driver_entry<PFN_cuMemsetD8Async_v3020>("cuMemsetD8Async", 3020);
    d.d16 = driver_entry<PFN_cuMemsetD16Async_v3020>("cuMemsetD16Async", 3020);
    d.d32 = driver_entry<PFN_cuMemsetD32Async_v3020>("cuMemsetD32Async", 3020);
    d.d2d8 = driver_entry<PFN_cuMemsetD2D8Async_v3020>("cuMemsetD2D8Async", 3020);
    d.d2d16 = driver_entry<PFN_cuMemsetD2D16Async_v3020>("cuMemsetD2D16Async", 3020);
    d.d2d32 = driver_entry<PFN_cuMemsetD2D32Async_v3020>("cuMemsetD2D32Async", 3020);
    return d;
  }();
  return fns;
}

/// Driver results become cuda_error (the codes of the two APIs agree for the errors that
/// poison a context, so the runner's poisoning check still works). throws cuda_error
void check_cu(CUresult r, const char* call) {
  if (r != CUDA_SUCCESS) throw cuda_error(static_cast<cudaError_t>(r), driver_failure(r, call));
}

// ---- buffers -------------------------------------------------------------------------------

struct cuda_free {
  void operator()(void* p) const noexcept { MEMBENCH_CUDA_LOG(cudaFree(p)); }
};

struct memset_workspace {
  std::unique_ptr<std::uint32_t, cuda_free> buf;
  std::size_t pitch = 0;  ///< bytes from one row to the next (1D: the whole buffer is one row)
  std::size_t words = 0;  ///< 32-bit words in the allocation, padding included
};

/// One buffer of `rows` rows of `row_bytes`: cudaMallocPitch for 2D, cudaMalloc for 1D.
memset_workspace make_buffer(bench_context& ctx, bool two_d, std::uint64_t rows, std::uint64_t row_bytes) {
  ctx.require_device_bytes(rows * ((row_bytes + 511) / 512 * 512));  // pitches pad to at most 512 bytes
  void* p = nullptr;
  std::size_t pitch = row_bytes;
  if (two_d) {
    MEMBENCH_CUDA_CHECK(cudaMallocPitch(&p, &pitch, row_bytes, rows));
  } else {
    MEMBENCH_CUDA_CHECK(cudaMalloc(&p, row_bytes));
  }
  memset_workspace w{std::unique_ptr<std::uint32_t, cuda_free>(static_cast<std::uint32_t*>(p)), pitch,
                     pitch * rows / sizeof(std::uint32_t)};
  if (pitch % 16 != 0) throw std::runtime_error("cudaMallocPitch returned a pitch of " + std::to_string(pitch) +
                                                " bytes, not a multiple of 16");
  return w;
}

// One row: `rows` rows of `row_bytes` (1D: one row of the whole size).
void run_memset(bench_context& ctx, memset_variant v, bool two_d, std::uint64_t rows, std::uint64_t row_bytes) {
  // 1D rows name `bytes`, 2D rows `row_bytes` and `rows`: one key serves both.
  auto& ws = ctx.workspace<memset_workspace>({"bytes", "row_bytes", "rows"},
                                             [&] { return make_buffer(ctx, two_d, rows, row_bytes); });
  std::uint32_t* base = ws.buf.get();
  const std::size_t pitch = ws.pitch;
  const auto dptr = static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(base));
  const driver_memset* drv = v.api == memset_api::memset || v.api == memset_api::kernel ? nullptr : &driver();
  const uint4 value128 = make_uint4(memset_value128[0], memset_value128[1], memset_value128[2], memset_value128[3]);

  unsigned grid = 0;
  if (v.api == memset_api::kernel) {
    const std::uint64_t words = row_bytes / v.width;  // per row
    // Resident blocks loop over rows (2D) or block-sized tiles of words (1D).
    const std::uint64_t tiles = two_d ? rows : (words + memset_block - 1) / memset_block;
    if (two_d) {
      grid = v.width == 4 ? grid_stride_blocks(memset_2d_kernel<std::uint32_t>, memset_block, tiles, ctx.device())
                          : grid_stride_blocks(memset_2d_kernel<uint4>, memset_block, tiles, ctx.device());
    } else {
      grid = v.width == 4 ? grid_stride_blocks(memset_kernel<std::uint32_t>, memset_block, tiles, ctx.device())
                          : grid_stride_blocks(memset_kernel<uint4>, memset_block, tiles, ctx.device());
    }
  }

  auto launch = [=](cudaStream_t s) {
    switch (v.api) {
      case memset_api::memset:
        if (two_d) {
          MEMBENCH_CUDA_CHECK(cudaMemset2DAsync(base, pitch, memset_value8, row_bytes, rows, s));
        } else {
          MEMBENCH_CUDA_CHECK(cudaMemsetAsync(base, memset_value8, row_bytes, s));
        }
        break;
      case memset_api::memset_d8:
        if (two_d) {
          check_cu(drv->d2d8(dptr, pitch, memset_value8, row_bytes, rows, s), "cuMemsetD2D8Async");
        } else {
          check_cu(drv->d8(dptr, memset_value8, row_bytes, s), "cuMemsetD8Async");
        }
        break;
      case memset_api::memset_d16:
        if (two_d) {
          check_cu(drv->d2d16(dptr, pitch, memset_value16, row_bytes / 2, rows, s), "cuMemsetD2D16Async");
        } else {
          check_cu(drv->d16(dptr, memset_value16, row_bytes / 2, s), "cuMemsetD16Async");
        }
        break;
      case memset_api::memset_d32:
        if (two_d) {
          check_cu(drv->d2d32(dptr, pitch, memset_value32, row_bytes / 4, rows, s), "cuMemsetD2D32Async");
        } else {
          check_cu(drv->d32(dptr, memset_value32, row_bytes / 4, s), "cuMemsetD32Async");
        }
        break;
      case memset_api::kernel:
        if (v.width == 4) {
          if (two_d) {
            memset_2d_kernel<std::uint32_t><<<grid, memset_block, 0, s>>>(base, pitch / 4, row_bytes / 4, rows, memset_value32);
          } else {
            memset_kernel<std::uint32_t><<<grid, memset_block, 0, s>>>(base, row_bytes / 4, memset_value32);
          }
        } else {
          auto* base16 = reinterpret_cast<uint4*>(base);
          if (two_d) {
            memset_2d_kernel<uint4><<<grid, memset_block, 0, s>>>(base16, pitch / 16, row_bytes / 16, rows, value128);
          } else {
            memset_kernel<uint4><<<grid, memset_block, 0, s>>>(base16, row_bytes / 16, value128);
          }
        }
        break;
    }
  };

  const unsigned width = v.width;
  const std::uint64_t pitch_words = pitch / 4, row_words = row_bytes / 4;
  auto expected = [=](std::size_t i) {
    return two_d ? memset_2d_expected(i, pitch_words, row_words, width) : memset_word(width, i);
  };
  launch_options opt;
  opt.l2 = l2_state::cold;
  opt.report_pct_peak = memset_bytes(rows, row_bytes) >= memset_dram_bytes;
  ctx.verify_and_time(opt, memset_bytes(rows, row_bytes), launch,
                      array_check(ctx, base, ws.words, expected, two_d ? "2D fill (rows and padding)" : "fill",
                                  poison_words(base, ws.words, memset_poison_seed)));
  if (two_d) ctx.set_counter(schema::counter("pitch_bytes"), static_cast<double>(pitch));
  if (grid != 0) ctx.set_counter(schema::counter("grid_blocks"), grid);
}

// Quick: the byte-wise API against the widest stores, at DRAM; the largest size is full only.
constexpr suite_tier tier_of(memset_variant v, bool dram, bool largest) {
  if (largest) return suite_tier::full;
  const bool headline = (v.api == memset_api::memset || (v.api == memset_api::kernel && v.width == 16)) && dram;
  return headline ? suite_tier::quick : suite_tier::standard;
}

void make_cases(family_builder& f) {
  for (std::uint64_t bytes : memset_sizes) {
    for (memset_variant v : memset_variants) {
      f.add({{"api", to_string(v.api)}, {"width", std::to_string(v.width)}, {"bytes", format_size(bytes)}},
            tier_of(v, bytes == memset_sizes[1], bytes == memset_sizes.back()),
            [=](bench_context& ctx) { run_memset(ctx, v, false, 1, bytes); });
    }
  }
}

void make_2d_cases(family_builder& f) {
  for (std::uint64_t rows : memset_2d_rows) {
    for (memset_variant v : memset_variants) {
      f.add({{"api", to_string(v.api)},
             {"width", std::to_string(v.width)},
             {"row_bytes", format_size(memset_2d_row_bytes)},
             {"rows", std::to_string(rows)}},
            tier_of(v, rows == memset_2d_rows[1], rows == memset_2d_rows.back()),
            [=](bench_context& ctx) { run_memset(ctx, v, true, rows, memset_2d_row_bytes); });
    }
  }
}

const family_registrar memset_family{"alloc/memset", &make_cases,
    "the memset APIs' fill rate (runtime, driver, a kernel) by size and word", family_needs::gpu};
const family_registrar memset_2d_family{"alloc/memset_2d", &make_2d_cases,
    "the 2D memset APIs on pitched rows", family_needs::gpu};

}  // namespace
}  // namespace membench::alloc
