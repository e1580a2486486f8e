// clock and the profile's clock line: the three readings of the SM clock, their resolutions,
// and agreement decided only beyond them.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "clock/clock.hpp"
#include "core/model.hpp"
#include "views/sm_clock.hpp"

namespace membench::report {
namespace {

// A run with a compute/sm_clock row: the event clock, its median's interval, the probe and NVML.
result_file clock_run(const std::string& path, double event_mhz, double probe_mhz, double nvml_mhz,
                      double ci_low_us = 16943.0, double ci_high_us = 16945.0) {
  const std::string name = "compute/sm_clock/cycles:32M";
  return parse_results(
      fmt::format(R"({{"context": {{"gpu_name": "H", "gpu_uuid": "GPU-1", "nvml_max_sm_clock_mhz": "1980"}},
      "benchmarks": [{{"name": "{0}/manual_time", "run_name": "{0}/manual_time", "run_type": "iteration",
      "real_time": 16944, "time_unit": "us", "event_sm_clock_mhz": {1}, "sm_clock_mhz": {2},
      "nvml_sm_clock_mhz": {3}, "ci_low_us": {4}, "ci_high_us": {5}}}]}})",
                  name, event_mhz, probe_mhz, nvml_mhz, ci_low_us, ci_high_us),
      path);
}

result_file no_clock_run(const std::string& path) {
  return parse_results(R"({"context": {"gpu_name": "H"}, "benchmarks": [{"name": "global/read/bytes:1M/manual_time",
      "run_name": "global/read/bytes:1M/manual_time", "run_type": "iteration", "real_time": 3, "time_unit": "us"}]})",
                       path);
}

TEST(ReportClock, TheEventIntervalIsTheSlopesOverTheCycles) {
  const result_file f = clock_run("a.json", 1980, 1996, 1980);
  const sm_clock_readings c = read_sm_clock({&f});
  EXPECT_EQ(c.row, "compute/sm_clock/cycles:32M");
  // sqrt(2) x 1 us (half of 2) x 2 x 1980 MHz / 32 Mi cycles, in percent.
  EXPECT_NEAR(c.event_half_pct, 100 * std::sqrt(2.0) * 1 * 2 * 1980 / 33554432.0, 1e-12);
  EXPECT_EQ(sm_clock_line(c), "events 1980.0 (+-0.017 %), probe 1996 (its step about 0.8 %), NVML 1980");
}

TEST(ReportClock, AgreementIsDecidedOnlyBeyondBothResolutions) {
  EXPECT_EQ(clock_agreement(1980, 0.02, 1996, probe_step_pct), "agree");  // +0.81 % inside 0.82 %
  EXPECT_EQ(clock_agreement(1980, 0.01, 2000, probe_step_pct), "differ by +1.01 %");
  EXPECT_EQ(clock_agreement(1980, 0.01, 1980, 100 * 0.5 / 1980), "agree");
  EXPECT_EQ(clock_agreement(1960, 0.01, 1980, 100 * 0.5 / 1980), "differ by +1.02 %");
  EXPECT_EQ(clock_agreement(NAN, 0.01, 1980, 0.1), "-");
  EXPECT_EQ(clock_agreement(1980, 0.01, 0, 0.1), "-");
}

TEST(ReportClock, ARowPerRunAndRunsWithoutTheRowNamed) {
  const std::vector<result_file> files = {clock_run("a.json", 1980, 1996, 1980), no_clock_run("b.json"),
                                          clock_run("c.json", 1950, 2000, 1980)};
  const document d = view_clock(files);
  ASSERT_EQ(d.tables.size(), 1u);
  ASSERT_EQ(d.tables[0].rows.size(), 2u);
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("b.json"), std::string::npos);
  const nlohmann::json j = nlohmann::json::parse(clock_json(files));
  ASSERT_EQ(j["files"].size(), 2u);
  EXPECT_EQ(j["files"][0]["nvml_vs_events"], "agree");
  EXPECT_EQ(j["files"][1]["nvml_vs_events"], "differ by +1.54 %");
  EXPECT_EQ(j["files"][0]["uuid"], "GPU-1");
  EXPECT_DOUBLE_EQ(j["files"][0]["nvml_max_mhz"].get<double>(), 1980);
}

TEST(ReportClock, NoRunWithTheRowIsAnError) {
  const std::vector<result_file> files = {no_clock_run("b.json")};
  EXPECT_THROW(view_clock(files), input_error);
  EXPECT_THROW(clock_json(files), input_error);
}

}  // namespace
}  // namespace membench::report
