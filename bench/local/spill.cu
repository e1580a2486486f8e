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
// Tiers: quick has both storages at 64 elements; the default tier has every row. (The
// local rows move between processes with where their local memory lands: at 8 elements 619
// to 713 us on H100s; at 64, after the rest of the quick tier, 607-625 or 660-665 us, and
// 596 us in a process of this family alone. Compare them on several runs a side.)
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "kernels/local/spill.cuh"

namespace membench::local {
namespace {

struct spill_workspace {
  device_buffer<std::uint32_t> in, out;
};

std::vector<name_param> spill_params(bool local, unsigned elems) {
  return {{"storage", local ? "local" : "registers"}, {"elems", std::to_string(elems)}};
}

// `in_registers`: the name of the registers row of the same size, the slowdown's reference.
template <unsigned N, bool Local>
void run_spill(bench_context& ctx, const std::string& in_registers) {
  auto& ws = ctx.workspace<spill_workspace>({}, [&] {
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
  launch_options opt;
  opt.l2 = l2_state::warm;
  opt.report_pct_peak = false;  // registers and L1-resident local memory: no DRAM figure
  const double median =
      ctx.verify_and_time(opt, spill_bytes(spill_threads, N), launch_of(spill_kernel<N, Local>),
                          array_check(ctx, ws.out.data(), spill_threads, [](std::size_t t) { return spill_expected<N>(t); },
                                      "out", poison_bytes(ws.out.data(), spill_threads * 4)));
  cudaFuncAttributes attr{};
  MEMBENCH_CUDA_CHECK(cudaFuncGetAttributes(&attr, spill_kernel<N, Local>));
  ctx.set_counter(schema::counter("slowdown"),
                  median / ctx.reference_seconds(in_registers, opt, launch_of(spill_kernel<N, false>)));
  ctx.set_counter(schema::counter("local_bytes"), static_cast<double>(attr.localSizeBytes));
  ctx.set_counter(schema::counter("num_regs"), attr.numRegs);
  ctx.set_counter(schema::counter("rounds"), spill_rounds(N));
}

template <unsigned N>
void add_cases(family_builder& f) {
  const std::string in_registers = f.name(spill_params(false, N));
  const suite_tier tier = N == 64 ? suite_tier::quick : suite_tier::standard;
  f.add(spill_params(false, N), tier, [in_registers](bench_context& ctx) { run_spill<N, false>(ctx, in_registers); });
  f.add(spill_params(true, N), tier, [in_registers](bench_context& ctx) { run_spill<N, true>(ctx, in_registers); });
}

void make_cases(family_builder& f) {
  add_cases<8>(f);
  add_cases<16>(f);
  add_cases<32>(f);
  add_cases<64>(f);
}

const family_registrar spill_family{"local/spill", &make_cases,
    "local memory: an array indexed at run time against one kept in registers", family_needs::gpu};

}  // namespace
}  // namespace membench::local
