#include <gtest/gtest.h>

#include "harness/cli.hpp"
#include "harness/device_info.hpp"

namespace membench {
namespace {

TEST(Cli, DetectsListOnly) {
  EXPECT_TRUE(wants_list_only({"membench", "--benchmark_list_tests"}));
  EXPECT_TRUE(wants_list_only({"membench", "--benchmark_filter=x", "--benchmark_list_tests=true"}));
  EXPECT_FALSE(wants_list_only({"membench", "--benchmark_list_tests=false"}));
  EXPECT_FALSE(wants_list_only({"membench"}));
}

TEST(Cli, MinTimeSyntaxFollowsGoogleBenchmarkVersion) {
  EXPECT_EQ(single_iteration_arg("1.7.1"), "--benchmark_min_time=0");
  EXPECT_EQ(single_iteration_arg("1.8.3"), "--benchmark_min_time=1x");
  EXPECT_EQ(single_iteration_arg("2.0.0"), "--benchmark_min_time=1x");
  EXPECT_TRUE(has_arg_prefix({"a", "--benchmark_min_time=1"}, "--benchmark_min_time"));
  EXPECT_FALSE(has_arg_prefix({"a", "--benchmark_filter=x"}, "--benchmark_min_time"));
}

TEST(CheckBuild, AcceptsMatchingModeAndArchitecture) {
  EXPECT_FALSE(check_build("default", "90-real", {0, 90, 90, 40}).has_value());
  EXPECT_FALSE(check_build("default", "90-real", {0, 90, 90, 250}).has_value());  // no claim
  EXPECT_FALSE(check_build("ca", "80-real,90-real", {0, 90, 90, 38}).has_value());  // sm_90 reports cacheModeCA=0
  EXPECT_FALSE(check_build("ca", "80-real,90-real", {1, 90, 90, 38}).has_value());
  EXPECT_FALSE(check_build("cg", "90-real;100-real", {0, 100, 100, 260}).has_value());
}

TEST(CheckBuild, RejectsLoadsThatContradictTheMode) {
  EXPECT_TRUE(check_build("ca", "90-real", {0, 90, 90, 260}).has_value());
  EXPECT_TRUE(check_build("cg", "90-real", {0, 90, 90, 35}).has_value());
  EXPECT_TRUE(check_build("default", "90-real", {1, 90, 90, 35}).has_value());
  EXPECT_TRUE(check_build("cg", "90-real", {1, 90, 90, 260}).has_value());
}

TEST(CheckBuild, RejectsJitCompiledCode) {
  const auto problem = check_build("cg", "80-real", {0, 90, 80, 260});
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("JIT"), std::string::npos);
}

TEST(DeviceInfo, PeakBandwidthIsDoubleDataRate) {
  // H100 SXM: HBM3 at 2619 MHz on a 5120-bit bus.
  EXPECT_NEAR(theoretical_dram_gbps(2619000, 5120), 3352.32, 1e-6);
  EXPECT_EQ(theoretical_dram_gbps(0, 5120), 0.0);
}

TEST(DeviceInfo, CudaVersionFormat) {
  EXPECT_EQ(format_cuda_version(13000), "13.0");
  EXPECT_EQ(format_cuda_version(12040), "12.4");
}

TEST(DeviceInfo, ContextSaysWhenThereIsNoDevice) {
  build_info b{"cg", "90-real", "Release", "abc", "1.7.1", "GNU 12"};
  const auto entries = context_entries(std::nullopt, "no driver", b);
  bool saw_device = false, saw_mode = false;
  for (const auto& [k, v] : entries) {
    if (k == "gpu_device") saw_device = v == "none (no driver)";
    if (k == "membench_cache_mode") saw_mode = v == "cg";
  }
  EXPECT_TRUE(saw_device);
  EXPECT_TRUE(saw_mode);
}

TEST(DeviceInfo, ContextDescribesTheDevice) {
  device_info d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.mem_clock_khz = 2619000;
  d.mem_bus_bits = 5120;
  d.driver_version = 13000;
  const auto entries = context_entries(d, "", build_info{});
  std::map<std::string, std::string> m(entries.begin(), entries.end());
  EXPECT_EQ(m["gpu_name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(m["gpu_compute_capability"], "9.0");
  EXPECT_EQ(m["gpu_peak_dram_gbps"], "3352.3");
  EXPECT_EQ(m["cuda_driver_version"], "13.0");
}

}  // namespace
}  // namespace membench

#include "harness/nvml.hpp"
#include "harness/runner.hpp"

namespace membench {
namespace {

TEST(Timing, MethodNamesRoundTrip) {
  for (auto m : {timing_method::blocking, timing_method::events, timing_method::single})
    EXPECT_EQ(parse_timing_method(to_string(m)), m);
  EXPECT_FALSE(parse_timing_method("graph").has_value());
}

TEST(Nvml, DescribesClockReasons) {
  EXPECT_EQ(describe_clock_reasons(0), "none");
  EXPECT_EQ(describe_clock_reasons(clock_reason::sw_power_cap | clock_reason::hw_thermal), "sw_power_cap+hw_thermal");
  EXPECT_EQ(describe_clock_reasons(0x1000 | clock_reason::gpu_idle), "gpu_idle+0x1000");
  EXPECT_TRUE(clock_reason::throttling & clock_reason::sw_power_cap);
  EXPECT_FALSE(clock_reason::throttling & clock_reason::gpu_idle);
}

}  // namespace
}  // namespace membench
