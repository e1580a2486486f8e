// Fault demonstration, off by default (--fault-demo): a 16 KiB copy whose first thread
// reads an illegal or a misaligned address. Both errors are sticky: the CUDA context is
// lost, the row becomes an error naming the cause, rows already run keep their results,
// and membench runs the rest in a fresh process (see README, "Faults").
// Tiers: both rows are quick, so --fault-demo shows them in every suite.
#include <array>
#include <string>
#include <utility>

#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "kernels/common/types.hpp"
#include "kernels/global/fault.cuh"

namespace membench::global {
namespace {

constexpr std::uint64_t bytes = std::uint64_t{16} << 10;
constexpr unsigned block = 256;

struct fault_workspace {
  device_buffer<float> in, out;
};

void run_fault(bench_context& ctx, fault_cause cause) {
  const std::size_t n = bytes / sizeof(float);
  auto& ws = ctx.workspace<fault_workspace>({}, [&] {
    fault_workspace w{device_buffer<float>(n), device_buffer<float>(n)};
    fill_values(w.in.data(), n, fault_seed, ctx.stream());
    return w;
  });
  const auto grid = static_cast<unsigned>(blocks_for(n, block));
  const std::uintptr_t bad = fault_address(reinterpret_cast<std::uintptr_t>(ws.in.data()), cause);
  auto launch = [&](cudaStream_t s) { fault_kernel<<<grid, block, 0, s>>>(ws.in.data(), ws.out.data(), n, bad); };
  ctx.verify_and_time(l2_state::warm, fault_bytes(n), launch,
                      array_check(ctx, ws.out.data(), n, [](std::size_t i) { return fault_expected(i); }, "out",
                                  poison_values(ws.out.data(), n)));
}

void make_cases(family_builder& f) {
  for (auto [cause, token] : std::array<std::pair<fault_cause, const char*>, 2>{
           {{fault_cause::illegal_address, "illegal_address"}, {fault_cause::misaligned_address, "misaligned_address"}}}) {
    f.add({{"cause", token}, {"bytes", format_size(bytes)}}, suite_tier::quick,
          [cause](bench_context& ctx) { run_fault(ctx, cause); });
  }
}

const family_registrar fault_family{"global/fault", &make_cases,
    "a kernel that faults, to show a fault is an error row (--fault-demo)", family_needs::gpu, /*opt_in=*/true};

}  // namespace
}  // namespace membench::global
