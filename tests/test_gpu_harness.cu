// Harness pieces that need a GPU. Without one, main returns 77 and CTest reports a skip.
#include <gtest/gtest.h>

#include <cstdio>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/stats.hpp"
#include "harness/core/driver_api.hpp"
#include "harness/core/harness_kernels.hpp"
#include "harness/core/resources.hpp"
#include "harness/core/verify.hpp"
#include "harness/device/device_info.hpp"
#include "harness/measure/calibration.hpp"
#include "harness/measure/device_timers.hpp"
#include "harness/measure/measurement.hpp"
#include "harness/session/session.hpp"
#include "kernels/common/chase.cuh"
#include "kernels/common/fill.cuh"
#include "kernels/common/pattern.hpp"

namespace membench {
namespace {

TEST(GpuResources, BuffersAllocateMoveAndFree) {
  device_buffer<float> a(1024);
  ASSERT_NE(a.data(), nullptr);
  device_buffer<float> b(std::move(a));
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(b.size(), 1024u);
  EXPECT_EQ(b.bytes(), 4096u);
  pinned_buffer<int> p(16);
  mapped_buffer<int> m(16);
  EXPECT_NE(m.device_data(), nullptr);
  managed_buffer<double> g(16);
  g.data()[3] = 1.5;
  EXPECT_EQ(g.data()[3], 1.5);
}

TEST(GpuVerify, AcceptsCorrectDataAndNamesTheFirstMismatch) {
  stream s;
  const std::size_t n = (std::size_t{80} << 20) / 4;  // more than one staging chunk
  device_buffer<std::uint32_t> w(n);
  pinned_buffer<std::byte> staging(std::size_t{64} << 20);
  const device_reader reader{s.get(), {staging.data(), staging.size()}};
  fill_words(w.data(), n, 7, s.get());
  auto expected = [](std::size_t i) { return pattern_word(i, 7); };
  EXPECT_NO_THROW(verify_device_array(reader, w.data(), n, expected, "w"));
  const std::size_t bad = n - 3;
  MEMBENCH_CUDA_CHECK(cudaMemsetAsync(w.data() + bad, 0, 4, s.get()));
  try {
    verify_device_array(reader, w.data(), n, expected, "w");
    FAIL() << "a corrupted element passed verification";
  } catch (const verification_error& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(bad)), std::string::npos) << e.what();
  }
}

TEST(GpuVerify, ReadDeviceValueWaitsForTheRowsStream) {
  stream s;  // non-blocking: a legacy-stream cudaMemcpy would not wait for it
  device_buffer<std::uint64_t> v(1);
  MEMBENCH_CUDA_CHECK(cudaMemset(v.data(), 0, sizeof(std::uint64_t)));
  MEMBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  pinned_buffer<std::byte> staging(4096);
  stream_blocker blocker(0.2);  // holds the stream for 0.2 s, then gives up
  blocker.hold(s.get());
  MEMBENCH_CUDA_CHECK(cudaMemsetAsync(v.data(), 0x5a, sizeof(std::uint64_t), s.get()));
  EXPECT_EQ(read_device_value(device_reader{s.get(), {staging.data(), staging.size()}}, v.data()),
            0x5a5a5a5a5a5a5a5aULL);
  blocker.release();
}

TEST(GpuTiming, EventTimerAndL2FlushWork) {
  stream s;
  int dev = 0, l2 = 0;
  MEMBENCH_CUDA_CHECK(cudaGetDevice(&dev));
  MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  l2_flusher flusher(static_cast<std::size_t>(l2));
  EXPECT_GE(flusher.bytes(), 2u * static_cast<std::size_t>(l2));
  device_buffer<std::uint32_t> w(std::size_t{64} << 20);
  event_timer t;
  flusher.flush(s.get());
  t.start(s.get());
  fill_words(w.data(), w.size(), 1, s.get());
  t.stop(s.get());
  const double secs = t.seconds();
  EXPECT_GT(secs, 1e-6);
  EXPECT_LT(secs, 1.0);
}

TEST(GpuTiming, BlockerHoldsTheStreamUntilReleased) {
  stream s;
  stream_blocker blocker(5.0);
  cudaEvent_t e = nullptr;
  MEMBENCH_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  blocker.hold(s.get());
  MEMBENCH_CUDA_CHECK(cudaEventRecord(e, s.get()));
  EXPECT_EQ(cudaEventQuery(e), cudaErrorNotReady) << "the queued event must wait for the release";
  blocker.release();
  s.synchronize();
  EXPECT_EQ(cudaEventQuery(e), cudaSuccess);
  EXPECT_FALSE(blocker.timed_out());
  MEMBENCH_CUDA_CHECK(cudaEventDestroy(e));
}

TEST(GpuTiming, BlockerGivesUpAfterItsTimeout) {
  stream s;
  stream_blocker blocker(0.01);
  blocker.hold(s.get());
  s.synchronize();  // no release: only the timeout ends the kernel
  EXPECT_TRUE(blocker.timed_out());
  blocker.release();
}

TEST(GpuTiming, ClockProbeReadsAPlausibleSmClock) {
  stream s;
  clock_probe probe;
  int dev = 0, khz = 0;
  MEMBENCH_CUDA_CHECK(cudaGetDevice(&dev));
  MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
  probe.record(s.get());
  s.synchronize();
  EXPECT_GT(probe.mhz(), 100.0);
  EXPECT_LT(probe.mhz(), 1.1 * khz / 1000.0) << "no faster than the maximum SM clock";
}

// One thread walks a chain of `loads` lines `step` bytes apart with L2-only loads; returns
// cycles per load. A dependent chain defeats prefetching: each load waits for the last.
__global__ void chase_kernel(const unsigned* chain, unsigned loads, unsigned* out, long long* cycles) {
  unsigned idx = 0;
  const long long t0 = clock64();
  for (unsigned i = 0; i < loads; ++i) idx = __ldcg(chain + idx);
  *cycles = clock64() - t0;
  *out = idx;
}

double chase_cycles(const unsigned* chain, unsigned loads, cudaStream_t s) {
  device_buffer<unsigned> out(1);
  device_buffer<long long> cycles(1);
  chase_kernel<<<1, 1, 0, s>>>(chain, loads, out.data(), cycles.data());
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  long long c = 0;
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(&c, cycles.data(), sizeof c, cudaMemcpyDeviceToHost, s));
  MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s));
  return static_cast<double>(c) / loads;
}

TEST(GpuTiming, L2FlushEvicts) {
  // A 4 MiB chain (fits any L2) read warm, then after a flush: the flush must turn its L2
  // hits into DRAM misses, which take clearly longer.
  stream s;
  const device_info dev = query_device(0);
  constexpr unsigned step_words = 512, loads = 2048;  // 2 KiB apart: a new line and sector each load
  std::vector<unsigned> host(std::size_t{step_words} * loads);
  for (unsigned i = 0; i < loads; ++i) host[std::size_t{i} * step_words] = ((i * 97 + 1) % loads) * step_words;
  device_buffer<unsigned> chain(host.size());
  MEMBENCH_CUDA_CHECK(cudaMemcpy(chain.data(), host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  l2_flusher flusher(dev.l2_bytes);
  std::vector<double> warm, flushed;
  for (int rep = 0; rep < 5; ++rep) {
    (void)chase_cycles(chain.data(), loads, s.get());
    warm.push_back(chase_cycles(chain.data(), loads, s.get()));
    flusher.flush(s.get());
    flushed.push_back(chase_cycles(chain.data(), loads, s.get()));
  }
  const double w = median_of(warm), f = median_of(flushed);
  std::printf("dependent L2-only load: %.0f cycles warm, %.0f cycles after the flush\n", w, f);
  EXPECT_GT(f, 1.4 * w) << "the flush did not evict the chain from L2";
}

TEST(GpuTiming, CalibrationAndReferenceClockArePlausible) {
  stream s;
  const device_info dev = query_device(0);
  stream_blocker blocker(1.0);
  const auto c = calibrate_event_pair(blocker, s.get());
  ASSERT_TRUE(c.has_value()) << "the blocking kernel timed out: launches block the host here";
  EXPECT_GT(c->median_s, 0);
  EXPECT_LT(c->median_s, 20e-6) << "an event pair costs microseconds";
  EXPECT_LE(c->p10_s, c->median_s);
  EXPECT_GE(c->p90_s, c->median_s);
  EXPECT_GT(c->empty_kernel_s, 0) << "an empty kernel costs more than nothing";
  std::printf("event timer step %.4f us\n", c->resolution_s * 1e6);
  EXPECT_GT(c->resolution_s, 0) << "the sweep of spins moves the readings across steps";
  EXPECT_LT(c->resolution_s, 1.1e-6) << "the documented step is 0.5 us at most";
  EXPECT_LE(c->resolution_s, c->median_s);
  clock_probe probe;
  const double mhz = reference_sm_clock(probe, s.get(), dev.sm_count, 0.1);
  EXPECT_GT(mhz, 0.3 * dev.sm_clock_khz / 1000.0);
  EXPECT_LT(mhz, 1.1 * dev.sm_clock_khz / 1000.0);
}

// A session on device 0 with default options, and a fill of `words` words to time.
class GpuMeasure : public ::testing::Test {
 protected:
  void SetUp() override { sess.open(query_device(0)); }
  launch_fn fill_of(std::size_t words) {
    w = device_buffer<std::uint32_t>(words);
    launch_fn fill = [this, words](cudaStream_t st) { fill_words(w.data(), words, 3, st); };
    fill(s.get());
    return fill;
  }
  session sess{run_options{}};
  stream s;
  device_buffer<std::uint32_t> w;
};

TEST_F(GpuMeasure, TimingMethodsAgreeOnALongKernel) {
  // A ~200 us fill: blocking, plain events and the batch measurement see the same kernel;
  // events add the host's launch latency (a few us), nothing else may differ.
  const measure_env env = sess.environment();
  launch_options lo;
  lo.l2 = l2_state::warm;
  const launch_fn fill = fill_of((std::size_t{512} << 20) / 4);
  const sample_run blocking = measure_blocking(env, lo, fill, s.get());
  const sample_run events = measure_events(env, lo, fill, s.get());
  sample_run batch = blocking;
  measure_batch(env, lo, fill, s.get(), batch);
  const double b = median_of(blocking.samples), e = median_of(events.samples);
  ASSERT_TRUE(batch.batch_s.has_value());
  std::printf("fill of 512 MiB: blocking %.2f us, events %.2f us, batch %.2f us per launch\n", b * 1e6, e * 1e6,
              *batch.batch_s * 1e6);
  EXPECT_GT(b, 20e-6);
  EXPECT_NEAR(e, b, 0.02 * b + 8e-6);
  EXPECT_NEAR(*batch.batch_s, b, 0.03 * b);
  EXPECT_TRUE(blocking.converged) << blocking.unconverged;
}

TEST_F(GpuMeasure, BatchIsNeverSlowerThanColdForAShortKernel) {
  const measure_env env = sess.environment();
  launch_options lo;
  lo.l2 = l2_state::cold;
  const launch_fn fill = fill_of(4096);
  sample_run cold = measure_blocking(env, lo, fill, s.get());
  measure_batch(env, lo, fill, s.get(), cold);
  ASSERT_TRUE(cold.batch_s.has_value());
  const double c = median_of(cold.samples);
  std::printf("fill of 16 KiB: cold %.3f us, batch %.3f us per launch (%d launches)\n", c * 1e6,
              *cold.batch_s * 1e6, cold.batch_launches);
  EXPECT_GT(*cold.batch_s, 0);
  EXPECT_LE(*cold.batch_s, c * 1.05 + 0.1e-6);
  EXPECT_GE(cold.samples.size(), 10u);
  // The batch figure has samples and an interval of its own, tight enough to see 5 %.
  ASSERT_GE(cold.batch_samples.size(), 20u);
  EXPECT_EQ(cold.batch_samples.size(), cold.batch_clocks_mhz.size());
  const median_interval ci = median_ci(cold.batch_samples, 0.95);
  const double half_pct = 100 * (ci.high - ci.low) / 2 / *cold.batch_s;
  std::printf("batch interval [%.4f, %.4f] us (+-%.3f %%, %zu batches)\n", ci.low * 1e6, ci.high * 1e6, half_pct,
              cold.batch_samples.size());
  EXPECT_LE(ci.low, *cold.batch_s);
  EXPECT_GE(ci.high, *cold.batch_s);
  EXPECT_LT(half_pct, 1.0);
}

TEST_F(GpuMeasure, EventsAroundNothingAreAtTheTimerFloorAndAKernelIsNot) {
  const measure_env env = sess.environment();
  ASSERT_GT(env.timer_resolution_s, 0);
  launch_options host_call;
  host_call.l2 = l2_state::warm;
  host_call.blocks_host = true;  // plain events around a call that gives the GPU nothing to do
  const sample_run nothing = measure_launch(env, host_call, [](cudaStream_t) {}, s.get());
  std::printf("events around nothing: %.3f us (pair %.3f us)\n", median_of(nothing.samples) * 1e6,
              env.event_overhead_s * 1e6);
  EXPECT_TRUE(nothing.timer_floor);
  launch_options kernel;
  kernel.l2 = l2_state::warm;
  const sample_run fill = measure_launch(env, kernel, fill_of((std::size_t{64} << 20) / 4), s.get());
  EXPECT_FALSE(fill.timer_floor) << median_of(fill.samples) * 1e6 << " us";
}

TEST(GpuDeviceScope, RestoresTheDevice) {
  int before = -1, after = -1;
  MEMBENCH_CUDA_CHECK(cudaGetDevice(&before));
  { device_scope scope(0); }
  MEMBENCH_CUDA_CHECK(cudaGetDevice(&after));
  EXPECT_EQ(before, after);
}

TEST(GpuFamilyKernels, FillWritesTheElementFunction) {
  stream s;
  const std::size_t n = 100000;
  device_buffer<std::uint32_t> v(n);
  fill_device<pattern_word>(v.data(), n, s.get(), std::uint32_t{7});
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  std::vector<std::uint32_t> host(n);
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(host.data(), v.data(), n * 4, cudaMemcpyDeviceToHost, s.get()));
  s.synchronize();
  for (std::size_t i = 0; i < n; i += 997) ASSERT_EQ(host[i], pattern_word(i, 7)) << i;
  EXPECT_EQ(host[n - 1], pattern_word(n - 1, 7));
}

MEMBENCH_HD std::uint64_t test_tag(std::uint64_t i) { return i * 3 + 1; }

struct test_chase_state {
  std::uint64_t position, cycles;
};

TEST(GpuFamilyKernels, ChainBuildLaysOutTheHostWalkAndResetStartsIt) {
  // A chain laid out on the device, followed on the host from the reset position, visits the
  // nodes the host walk visits; the tag lands in the word after each link.
  stream s;
  const std::uint64_t spacing = 256, nodes = 300;
  const auto succ = chase_successors(static_cast<std::uint32_t>(nodes));
  device_buffer<std::uint64_t> chain(nodes * spacing / 8);
  device_buffer<std::uint32_t> dev_succ(nodes);
  device_buffer<test_chase_state> state(1);
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(dev_succ.data(), succ.data(), nodes * 4, cudaMemcpyHostToDevice, s.get()));
  chase_build_kernel<test_tag><<<2, 256, 0, s.get()>>>(chain.data(), dev_succ.data(), nodes, spacing);
  const auto base = reinterpret_cast<std::uint64_t>(chain.data());
  chase_reset_kernel<<<1, 1, 0, s.get()>>>(state.data(), base + chase_node_offset(5, spacing));
  MEMBENCH_CUDA_CHECK(cudaGetLastError());
  std::vector<std::uint64_t> host(chain.size());
  test_chase_state st{};
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(host.data(), chain.data(), chain.bytes(), cudaMemcpyDeviceToHost, s.get()));
  MEMBENCH_CUDA_CHECK(cudaMemcpyAsync(&st, state.data(), sizeof st, cudaMemcpyDeviceToHost, s.get()));
  s.synchronize();
  EXPECT_EQ(st.cycles, 0u);
  std::uint64_t p = st.position;
  for (std::uint64_t k = 0; k < 2 * nodes; ++k) p = host[(p - base) / 8];
  EXPECT_EQ(p, base + chase_node_offset(chase_walk(succ, 5, 2 * nodes), spacing));
  EXPECT_EQ(host[chase_node_offset(7, spacing) / 8 + 1], test_tag(7));
}

TEST(GpuDriverApi, FindsEntryPointsAndNamesResults) {
  MEMBENCH_CUDA_CHECK(cudaFree(nullptr));  // a context
  EXPECT_NE(driver_entry<PFN_cuGetErrorName_v6000>("cuGetErrorName", 6000), nullptr);
  EXPECT_THROW(driver_symbol("cuNoSuchEntryPoint", 12000), std::runtime_error);
  const std::string why = driver_failure(CUDA_ERROR_INVALID_VALUE, "cuMemsetD8Async");
  EXPECT_NE(why.find("cuMemsetD8Async failed: CUDA_ERROR_INVALID_VALUE"), std::string::npos) << why;
}

}  // namespace
}  // namespace membench

int main(int argc, char** argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device: skipping GPU tests\n");
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
