// clock and the profile's clock line: the three readings of the SM clock, their resolutions,
// and agreement decided only beyond them.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "clock/clock.hpp"
#include "profile/profile.hpp"
#include "core/model.hpp"
#include "views/sm_clock.hpp"

namespace membench::report {
namespace {

// A run with a compute/sm_clock row: the event clock, its median's interval, the probe and NVML;
// `more` adds members to the row (", \"converged\": 0").
result_file clock_run(const std::string& path, double event_mhz, double probe_mhz, double nvml_mhz,
                      double ci_low_us = 16943.0, double ci_high_us = 16945.0, const std::string& more = "") {
  const std::string name = "compute/sm_clock/cycles:32M";
  return parse_results(
      fmt::format(R"({{"context": {{"gpu_name": "H", "gpu_uuid": "GPU-1", "nvml_max_sm_clock_mhz": "1980"}},
      "benchmarks": [{{"name": "{0}/manual_time", "run_name": "{0}/manual_time", "run_type": "iteration",
      "real_time": 16944, "time_unit": "us", "event_sm_clock_mhz": {1}, "sm_clock_mhz": {2},
      "nvml_sm_clock_mhz": {3}, "ci_low_us": {4}, "ci_high_us": {5}{6}}}]}})",
                  name, event_mhz, probe_mhz, nvml_mhz, ci_low_us, ci_high_us, more),
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

// A reading that cannot be a finding says so: an inverted interval has no half-width (never
// a negative one), an unconverged row and a slope beyond the GPU's maximum are named.
TEST(ReportClock, AReadingThatIsNoFindingIsNamed) {
  const result_file inverted = clock_run("a.json", 1980, 1996, 1980, 16960, 16950);
  const sm_clock_readings i = read_sm_clock({&inverted});
  EXPECT_TRUE(std::isnan(i.event_half_pct));
  EXPECT_EQ(sm_clock_line(i), "events 1980.0 (no interval), probe 1996 (its step about 0.8 %), NVML 1980");
  const result_file unconverged = clock_run("a.json", 1980, 1996, 1980, 16943, 16945, R"(, "converged": 0)");
  EXPECT_EQ(read_sm_clock({&unconverged}).problem, "unconverged");
  EXPECT_NE(sm_clock_line(read_sm_clock({&unconverged})).find("; no finding: unconverged"), std::string::npos);
  const result_file beyond = clock_run("a.json", 5e6, 1996, 1980);
  EXPECT_NE(read_sm_clock({&beyond}).problem.find("maximum 1980 MHz"), std::string::npos);
  const result_file within = clock_run("a.json", 2010, 1996, 1980);
  EXPECT_EQ(read_sm_clock({&within}).problem, "") << "within 1.02 x the maximum: its rounding";
  // A finding of a later file before a row that is none.
  const result_file clean = clock_run("b.json", 1979.5, 1996, 1980);
  EXPECT_EQ(read_sm_clock({&unconverged, &clean}).file, "b.json");
}

// The clock is the GPU's: a reading in the second build's files is the profile's reading.
TEST(ReportClock, TheProfileReadsTheClockOfEveryBuild) {
  const std::string dir = std::string(MEMBENCH_REPORT_DATA) + "../../../reports/h100/2026-11-24_21dad57/";
  std::vector<result_file> files{load_results(dir + "membench.json"), load_results(dir + "membench_ca.json")};
  const result_file clock = clock_run("c.json", 1979.52, 1996, 1980);
  files[1].results.push_back(clock.results.front());
  files[1].build_index();
  const std::vector<gpu_profile> p = build_profiles(files);
  ASSERT_EQ(p.size(), 1u);
  std::string line;
  for (const auto& [what, value] : p[0].identity) {
    if (what == "SM clock, three readings (MHz)") line = value;
  }
  EXPECT_TRUE(line.starts_with("events 1979.5")) << line;
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
