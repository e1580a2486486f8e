// Harness pieces that need a GPU. Without one, main returns 77 and CTest reports a skip.
#include <gtest/gtest.h>

#include <cstdio>

#include "harness/harness_kernels.hpp"
#include "harness/resources.hpp"
#include "harness/timing.hpp"
#include "harness/verify.hpp"
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
  fill_words(w.data(), n, 7, s.get());
  auto expected = [](std::size_t i) { return pattern_word(i, 7); };
  EXPECT_NO_THROW(verify_device_array(s.get(), w.data(), n, expected, "w"));
  const std::size_t bad = n - 3;
  MEMBENCH_CUDA_CHECK(cudaMemsetAsync(w.data() + bad, 0, 4, s.get()));
  try {
    verify_device_array(s.get(), w.data(), n, expected, "w");
    FAIL() << "a corrupted element passed verification";
  } catch (const verification_error& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(bad)), std::string::npos) << e.what();
  }
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

TEST(GpuDeviceScope, RestoresTheDevice) {
  int before = -1, after = -1;
  MEMBENCH_CUDA_CHECK(cudaGetDevice(&before));
  { device_scope scope(0); }
  MEMBENCH_CUDA_CHECK(cudaGetDevice(&after));
  EXPECT_EQ(before, after);
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
