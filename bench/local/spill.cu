// S3: local memory (Professional CUDA C ch. 4: arrays indexed at run time live in local
// memory). Each of 2^18 threads keeps an array of `elems` 32-bit words and updates it
// 2048 times (2048 / elems rounds of a[i] = 5 a[i] + a[(i + rot) mod elems] + round), then
// writes a fold of it, checked against the host reference. storage:registers knows `rot`
// at compile time, so every index is a constant and the array stays in registers;
// storage:local takes `rot` as an argument, so the array needs addresses: local memory.
// ptxas -v on sm_90 (CUDA 13.0): local rows have a stack frame of 4 * elems bytes (32..256)
// and 0 spill bytes, register rows 0 bytes of stack; the registers per thread are 21, 41,
// 79 and 195 for 8..64 elements (29, 64, 128, 195 for the local kernels). Both are recorded
// with every row: local_bytes (cudaFuncAttributes::localSizeBytes) and num_regs.
//
// Expected: the local version pays a local load (and store) per update, served by L1 while
// the resident threads' arrays fit in it and by L2 beyond, so it falls further behind as
// elems grows; `slowdown` is its time over the register row of the same size in this run.
// Bytes per launch: spill_bytes = threads * (8 + updates * 12): the input and output words
// plus the array traffic as if the array lived in memory (two loads and a store per
// update), the same for both rows so their rates compare.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/harness_kernels.hpp"
#include "harness/registry.hpp"
#include "harness/verify.hpp"
#include "kernels/local/spill.cuh"

namespace membench::local {
namespace {

struct spill_workspace {
  device_buffer<std::uint32_t> in, out;
};

bench_name spill_name(bool local, unsigned elems) {
  return bench_name{"local", "spill", {{"storage", local ? "local" : "registers"}, {"elems", std::to_string(elems)}}};
}

template <unsigned N, bool Local>
void run_spill(bench_context& ctx) {
  auto& ws = ctx.workspace<spill_workspace>("local/spill", [&] {
    ctx.require_device_bytes(2 * spill_threads * 4);
    spill_workspace w{device_buffer<std::uint32_t>(spill_threads), device_buffer<std::uint32_t>(spill_threads)};
    fill_words(w.in.data(), spill_threads, spill_seed, ctx.stream());
    return w;
  });
  const auto grid = static_cast<unsigned>(spill_threads / spill_block);
  auto launch_of = [&](auto kernel) {
    return [&ws, grid, kernel](cudaStream_t s) {
      kernel<<<grid, spill_block, 0, s>>>(ws.in.data(), ws.out.data(), spill_rotation, spill_rounds(N));
    };
  };
  const auto launch = launch_of(spill_kernel<N, Local>);
  ctx.verify_once([&] {
    MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.out.data(), 0, spill_threads * 4, ctx.stream()));
    launch(ctx.stream());
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    verify_device_array(ctx.stream(), ws.out.data(), spill_threads, [](std::size_t t) { return spill_expected<N>(t); },
                        "out");
  });
  cudaFuncAttributes attr{};
  MEMBENCH_CUDA_CHECK(cudaFuncGetAttributes(&attr, spill_kernel<N, Local>));
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;  // registers and L1-resident local memory: no DRAM figure
  const double median = ctx.time_launches(opt, spill_bytes(spill_threads, N), launch);
  const double in_registers =
      ctx.reference_seconds(spill_name(false, N).str(), opt, launch_of(spill_kernel<N, false>));
  ctx.set_counter("slowdown", median / in_registers);
  ctx.set_counter("local_bytes", static_cast<double>(attr.localSizeBytes));
  ctx.set_counter("num_regs", attr.numRegs);
  ctx.set_counter("rounds", spill_rounds(N));
}

template <unsigned N>
void add_cases(std::vector<bench_case>& cases) {
  cases.push_back(make_case(spill_name(false, N), [](bench_context& ctx) { run_spill<N, false>(ctx); }));
  cases.push_back(make_case(spill_name(true, N), [](bench_context& ctx) { run_spill<N, true>(ctx); }));
}

std::vector<bench_case> make_cases() {
  std::vector<bench_case> cases;
  add_cases<8>(cases);
  add_cases<16>(cases);
  add_cases<32>(cases);
  add_cases<64>(cases);
  return cases;
}

const family_registrar spill_family{"local/spill", &make_cases};

}  // namespace
}  // namespace membench::local
