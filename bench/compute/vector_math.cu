// H5: the Russian lecture's two GPU-vs-CPU examples (GeForce 650M vs Core i7-3610QM).
// Example 1, vector add c = a + b; example 2, the transcendental kernel
// c_i = sum_{j=0}^{99} cos(sqrt(a_i) * tanh(b_i)) * sqrt(j) (the code's loop bound and tanhf;
// the slide's formula writes j = 1..100 and tan). Each on the GPU, kernel only
// (transfers:without) or with the H2D copies of a and b and the D2H copy of c on the same
// stream (transfers:with; pinned host memory, cudaMemcpyAsync), from one kernel source built
// precise (math_precise.cu) and with --use_fast_math (math_fast.cu); and on the CPU with the
// same element functions, one thread (cpu1) or `omp parallel for` over every core (cpu_omp).
// Every term re-evaluates cos(sqrt(a) tanh(b)), as the lecture's kernel did (its sum lived in
// global memory that could alias the inputs): see transcendental_element.
//
// Expected, as the lecture found: transfers dominate the simple kernel (25.6M elements:
// 107.8 ms with copies against 24 ms on one CPU thread and 18 ms on eight, rates 0.22 and
// 0.17; the kernel alone took 11.7 ms, rate 1.54 against eight threads), while the
// compute-heavy kernel wins big with or without them (60.2 s on one thread, 15.1 s with
// OpenMP; 219 ms with copies, 121 ms kernel only: rates 275 / 496 against one thread and
// 69 / 124 against OpenMP; fast math cut the kernel to 64.6 ms, 156 ms with copies). On
// Hopper the add's kernel runs at DRAM speed (~3 TB/s) and its copies at PCIe speed
// (~50 GB/s): with transfers the GPU should again be no faster than OpenMP. The
// transcendental kernel is bound by the SFU and FMA pipes; 64K elements fill a quarter of an
// H100's thread slots, so these rows understate what a full GPU does per element.
// Counters: `speedup_vs_cpu1` and `speedup_vs_cpu_omp` = the CPU row's median / this row's
// (the lecture's "Rate"); `kernel_pct` (transfers:with) = the kernel-only row's median as a
// share of this row's; `elems_per_s` everywhere; `cpu_threads` on CPU rows.
// CPU references: the CPU rows of a size are registered before its GPU rows, so they have run
// when the GPU rows need their medians; when a filter left them out, the GPU row samples the
// CPU loop itself on the host clock (reference_host_seconds).
// Bytes per call: vector_math_bytes = 12 n (a and b read, c written). The transfers:with rows
// count the same 12 n, which is also what crosses PCIe (8 n down, 4 n up); their pct_peak
// (vector add) is of the PCIe link. Transcendental rows report no pct_peak (compute bound).
// Sizes (elements per vector): vector add 1M and 16M; transcendental 64K with the lecture's
// 100 terms, so that a one-thread CPU sample stays near 0.25 s (kernels/compute/vector_math.hpp).
// Checks: vector add exact; transcendental within transcendental_tolerance of a double
// reference (precise: <= 0.015 on sums up to 661; fast: tanh.approx's 2^-11 makes it up to 10);
// a fast row whose results all lie within the precise bound fails: the build lost its flag.
// Tiers: quick has vector add at 1M on the GPU (precise, with and without transfers), and
// transcendental on the GPU without transfers (precise and fast) and with them (precise);
// the default tier adds the CPU rows and every other 1M and 64K row; the 16M vector add
// rows (a one-thread CPU loop of 10 ms a call) only the full tier.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "common/parallel.hpp"
#include "compute/cpu_math.hpp"
#include "compute/math_variants.hpp"
#include "harness/family/family.hpp"
#include "kernels/compute/vector_math.hpp"

namespace membench::compute {
namespace {

enum class experiment { vector_add, transcendental };

/// The `on` key.
enum class where { gpu, cpu1, cpu_omp };
const char* to_string(where w) {
  switch (w) {
    case where::gpu: return "gpu";
    case where::cpu1: return "cpu1";
    case where::cpu_omp: return "cpu_omp";
  }
  return "?";
}

std::vector<name_param> row_params(where on, math_mode math, bool transfers, std::uint64_t n) {
  std::vector<name_param> params{{"on", to_string(on)}};
  if (on == where::gpu) {
    params.push_back({"math", to_string(math)});
    params.push_back({"transfers", transfers ? "with" : "without"});
  }
  params.push_back({"elems", format_size(n)});
  return params;
}

std::vector<name_param> cpu_row_params(where on, std::uint64_t n) { return row_params(on, math_mode::precise, false, n); }

/// The rows a GPU row's counters compare with (same experiment and size, same run).
struct gpu_references {
  std::string kernel_only, cpu1, cpu_omp;
};

/// Inputs and result in pinned host memory (copied by the transfers:with rows, read and
/// written by the CPU rows) and in device memory. Shared by every row of one experiment and
/// size.
struct vector_workspace {
  pinned_buffer<float> ha, hb, hc;
  device_buffer<float> a, b, c;
};

/// The workspace type of one experiment: the two families' rows of one size must not share.
template <experiment E>
struct experiment_workspace : vector_workspace {};

float input_a(experiment e, std::uint64_t i) { return e == experiment::vector_add ? vector_add_a(i) : transcendental_a(i); }
float input_b(experiment e, std::uint64_t i) { return e == experiment::vector_add ? vector_add_b(i) : transcendental_b(i); }

vector_workspace make_workspace(bench_context& ctx, experiment e, std::uint64_t n) {
  ctx.require_device_bytes(3 * n * sizeof(float));
  vector_workspace w{pinned_buffer<float>(n), pinned_buffer<float>(n), pinned_buffer<float>(n),
                     device_buffer<float>(n), device_buffer<float>(n), device_buffer<float>(n)};
  parallel_parts(
      n,
      [&](std::size_t b, std::size_t end, std::size_t) {
        for (std::size_t i = b; i < end; ++i) {
          w.ha.data()[i] = input_a(e, i);
          w.hb.data()[i] = input_b(e, i);
        }
      },
      std::size_t{1} << 16);
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(w.a.data(), w.ha.data(), w.a.bytes(), cudaMemcpyHostToDevice, ctx.stream()));
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(w.b.data(), w.hb.data(), w.b.bytes(), cudaMemcpyHostToDevice, ctx.stream()));
  return w;
}

template <experiment E>
vector_workspace& typed_workspace(bench_context& ctx, std::uint64_t n) {
  return ctx.workspace<experiment_workspace<E>>({"elems"}, [&] { return experiment_workspace<E>{make_workspace(ctx, E, n)}; });
}

vector_workspace& workspace_for(bench_context& ctx, experiment e, std::uint64_t n) {
  return e == experiment::vector_add ? typed_workspace<experiment::vector_add>(ctx, n)
                                     : typed_workspace<experiment::transcendental>(ctx, n);
}

using launcher = void (*)(const float*, const float*, float*, std::size_t, cudaStream_t);
launcher kernel_of(experiment e, math_mode m) {
  if (e == experiment::vector_add) return m == math_mode::precise ? &math_precise::launch_vector_add : &math_fast::launch_vector_add;
  return m == math_mode::precise ? &math_precise::launch_transcendental : &math_fast::launch_transcendental;
}

void run_cpu(experiment e, cpu_threads threads, const vector_workspace& ws, std::size_t n) {
  if (e == experiment::vector_add) {
    cpu_vector_add(ws.ha.data(), ws.hb.data(), ws.hc.data(), n, threads);
  } else {
    cpu_transcendental(ws.ha.data(), ws.hb.data(), ws.hc.data(), n, threads);
  }
}

/// Checks n results in host memory against the host reference. throws verification_error
void check_results(experiment e, math_mode m, const float* c, std::size_t n, const char* what) {
  if (e == experiment::vector_add) {
    verify_host_array(c, n, [](std::size_t i) { return vector_add_expected(i); }, what);
    return;
  }
  verify_host_array(c, n, [m](std::size_t i) { return transcendental_expected(i, m); }, what);
  if (m != math_mode::fast) return;
  // tanh.approx alone moves almost every sum past the precise bound; none past it means the
  // kernel ran precise math: math_fast.cu was built without --use_fast_math.
  std::size_t beyond = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(c[i] == transcendental_expected(i, math_mode::precise))) ++beyond;
  }
  if (beyond == 0) {
    throw verification_error(std::string(what) + ": all " + std::to_string(n) +
                             " fast-math results lie within the precise error bound: was bench/compute/math_fast.cu "
                             "compiled with --use_fast_math?");
  }
}

void run_cpu_row(bench_context& ctx, experiment e, where on, std::uint64_t n) {
  auto& ws = workspace_for(ctx, e, n);
  const cpu_threads threads = on == where::cpu1 ? cpu_threads::one : cpu_threads::omp;
  auto call = [&ws, e, threads, n] { run_cpu(e, threads, ws, n); };
  ctx.verify_once([&] {
    std::memset(ws.hc.data(), 0xFF, ws.hc.bytes());  // NaN: never within any bound
    call();
    check_results(e, math_mode::precise, ws.hc.data(), n, "c computed on the CPU");
  });
  const double median = ctx.time_host(host_options{}, vector_math_bytes(n), call);
  ctx.set_counter(schema::counter("elems_per_s"), static_cast<double>(n) / median);
  ctx.set_counter(schema::counter("cpu_threads"), threads == cpu_threads::one ? 1.0 : static_cast<double>(cpu_omp_threads()));
}

void run_gpu_row(bench_context& ctx, experiment e, math_mode m, bool transfers, std::uint64_t n, const gpu_references& refs) {
  auto& ws = workspace_for(ctx, e, n);
  const launcher kernel = kernel_of(e, m);
  const std::size_t bytes = n * sizeof(float);
  const launch_fn kernel_only = [&ws, kernel, n](cudaStream_t s) { kernel(ws.a.data(), ws.b.data(), ws.c.data(), n, s); };
  // The lecture's sequence on one stream: a and b down, the kernel, c back.
  const launch_fn with_copies = [&ws, &kernel_only, bytes](cudaStream_t s) {
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.a.data(), ws.ha.data(), bytes, cudaMemcpyHostToDevice, s));
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.b.data(), ws.hb.data(), bytes, cudaMemcpyHostToDevice, s));
    kernel_only(s);
    MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.hc.data(), ws.c.data(), bytes, cudaMemcpyDeviceToHost, s));
  };
  auto poison = [&ws, transfers, bytes](cudaStream_t s) {
    std::memset(ws.hc.data(), 0xFF, bytes);  // NaN poison on both sides of the result
    MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.c.data(), 0xFF, bytes, s));
    if (transfers) {
      // Poisoned device inputs: only this row's own copies can make the results right.
      MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.a.data(), 0xFF, bytes, s));
      MEMBENCH_CUDA_CHECK(cudaMemsetAsync(ws.b.data(), 0xFF, bytes, s));
    } else {
      // Restore the inputs: a failed transfers:with check leaves them poisoned.
      MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.a.data(), ws.ha.data(), bytes, cudaMemcpyHostToDevice, s));
      MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.b.data(), ws.hb.data(), bytes, cudaMemcpyHostToDevice, s));
    }
  };
  auto verify = [&] {
    if (!transfers) {  // the kernel-only launch leaves c on the device: fetch it
      MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(ws.hc.data(), ws.c.data(), bytes, cudaMemcpyDeviceToHost, ctx.stream()));
      MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    }
    check_results(e, m, ws.hc.data(), n, transfers ? "c copied back by the row" : "c");
  };

  launch_options kernel_opt;
  kernel_opt.l2 = l2_state::cold;
  kernel_opt.report_pct_peak = e == experiment::vector_add;  // the add is DRAM bound; the sum is not
  launch_options copy_opt;
  copy_opt.l2 = l2_state::warm;  // the inputs come from the host: no device cache state to set
  copy_opt.copy_engine = true;   // copies: plain events, as the lecture timed them
  copy_opt.host_work = true;     // the events span the host's enqueueing of four operations
  if (e == experiment::vector_add) {
    copy_opt.peak_gbps = ctx.pcie() ? ctx.pcie()->gbps() : 0.0;
    copy_opt.peak_name = "pcie";
  } else {
    copy_opt.report_pct_peak = false;
  }
  const double t = ctx.verify_and_time(transfers ? copy_opt : kernel_opt, vector_math_bytes(n),
                                       transfers ? with_copies : kernel_only, output_check{poison, verify});
  ctx.set_counter(schema::counter("elems_per_s"), static_cast<double>(n) / t);
  if (transfers) {
    const double t_kernel = ctx.reference_seconds(refs.kernel_only, kernel_opt, kernel_only);
    ctx.set_counter(schema::counter("kernel_pct"), 100 * t_kernel / t);
  }
  // The CPU rows of this size ran first; when a filter left them out, timed here on the host clock.
  auto cpu_seconds = [&](const std::string& name, cpu_threads threads) {
    return ctx.reference_host_seconds(name, [&ws, e, threads, n] { run_cpu(e, threads, ws, n); });
  };
  ctx.set_counter(schema::counter("speedup_vs_cpu1"), cpu_seconds(refs.cpu1, cpu_threads::one) / t);
  ctx.set_counter(schema::counter("speedup_vs_cpu_omp"), cpu_seconds(refs.cpu_omp, cpu_threads::omp) / t);
}

// Quick: the precise GPU rows of the smallest size, plus the fast transcendental kernel
// (fast math changes the sum, not the add); the CPU rows measure the host (a one-thread
// transcendental sample varies by 30 % on a shared VM), so they start in the default tier.
// Full only: the 16M adds.
constexpr suite_tier tier_of(experiment e, where on, math_mode m, bool transfers, std::uint64_t n) {
  if (n > (std::uint64_t{1} << 20)) return suite_tier::full;
  if (on != where::gpu) return suite_tier::standard;
  const bool headline = m == math_mode::precise || (e == experiment::transcendental && !transfers);
  return headline ? suite_tier::quick : suite_tier::standard;
}

template <experiment E, std::size_t N>
void make_cases(family_builder& f, const std::array<std::uint64_t, N>& sizes) {
  for (std::uint64_t n : sizes) {
    // CPU rows first: the GPU rows' speedups use their medians. Kernel-only before with
    // transfers: the latter's kernel_pct uses the former's median.
    for (where on : {where::cpu1, where::cpu_omp}) {
      f.add(cpu_row_params(on, n), tier_of(E, on, math_mode::precise, false, n),
            [=](bench_context& ctx) { run_cpu_row(ctx, E, on, n); });
    }
    for (math_mode m : {math_mode::precise, math_mode::fast}) {
      const gpu_references refs{f.name(row_params(where::gpu, m, false, n)), f.name(cpu_row_params(where::cpu1, n)),
                                f.name(cpu_row_params(where::cpu_omp, n))};
      for (bool transfers : {false, true}) {
        f.add(row_params(where::gpu, m, transfers, n), tier_of(E, where::gpu, m, transfers, n),
              [=](bench_context& ctx) { run_gpu_row(ctx, E, m, transfers, n, refs); },
              transfers ? host_bound::yes : host_bound::no);  // its copies cross the host link
      }
    }
  }
}

void make_vector_add_cases(family_builder& f) { make_cases<experiment::vector_add>(f, vector_add_sizes); }
void make_transcendental_cases(family_builder& f) { make_cases<experiment::transcendental>(f, transcendental_sizes); }

const family_registrar vector_add_family{"compute/vector_add", &make_vector_add_cases,
    "vector addition on the GPU against the CPU", family_needs::gpu};
const family_registrar transcendental_family{"compute/transcendental", &make_transcendental_cases,
    "transcendental functions on the GPU against the CPU", family_needs::gpu};

}  // namespace
}  // namespace membench::compute
