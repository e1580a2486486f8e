#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "harness/process/json_out.hpp"
#include "harness/process/rerun.hpp"

namespace membench {
namespace {

TEST(Rerun, ExactFilterSelectsOnlyTheNames) {
  const std::string f = exact_filter({"global/read/bytes:16K", "global/copy/bytes:1G"});
  const std::regex re(f, std::regex::extended);
  EXPECT_TRUE(std::regex_search("global/read/bytes:16K/manual_time", re));
  EXPECT_TRUE(std::regex_search("global/copy/bytes:1G/manual_time", re));
  EXPECT_FALSE(std::regex_search("global/read/bytes:16K0/manual_time", re)) << "prefix of a longer name";
  EXPECT_FALSE(std::regex_search("xglobal/read/bytes:16K/manual_time", re));
  EXPECT_FALSE(std::regex_search("global/write/bytes:16K/manual_time", re));
}

TEST(Rerun, ArgsReplaceFilterAndOutput) {
  const auto a = rerun_args({"membench", "--benchmark_filter=read", "--max-ci=1", "--benchmark_out=r.json",
                             "--benchmark_out_format=json", "--fault-demo"},
                            {"global/read/bytes:16K"}, "r.json.fresh.json");
  const std::vector<std::string> expected{"membench", "--max-ci=1", "--fault-demo",
                                          "--benchmark_filter=" + exact_filter({"global/read/bytes:16K"}),
                                          "--benchmark_out=r.json.fresh.json", "--benchmark_out_format=json"};
  EXPECT_EQ(a, expected);
  EXPECT_EQ(output_path({"x", "--benchmark_out=a.json"}), "a.json");
  EXPECT_EQ(output_path({"x"}), "");
}

TEST(Rerun, FreshProcessOnlyWhereItsRowsCanBeMerged) {
  EXPECT_FALSE(fresh_process_obstacle({"m"}).has_value());
  EXPECT_FALSE(fresh_process_obstacle({"m", "--benchmark_out=a.json"}).has_value());
  EXPECT_FALSE(fresh_process_obstacle({"m", "--benchmark_out=a.json", "--benchmark_out_format=json"}).has_value());
  EXPECT_TRUE(fresh_process_obstacle({"m", "--benchmark_format=json"}).has_value()) << "two documents on stdout";
  EXPECT_TRUE(fresh_process_obstacle({"m", "--benchmark_out=a.csv", "--benchmark_out_format=csv"}).has_value());
  EXPECT_EQ(flag_value({"m", "--benchmark_format=csv", "--benchmark_format=json"}, "--benchmark_format"), "json");
}

// Files named after the test: ctest runs tests in parallel, each in its own process.
std::string temp_path(const char* what) {
  return ::testing::TempDir() + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" + what;
}

class MergeTest : public ::testing::Test {
 protected:
  std::string main_path = temp_path("main.json");
  std::string part_path = temp_path("part.json");
  void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
  void TearDown() override {
    std::remove(main_path.c_str());
    std::remove(part_path.c_str());
  }
};

TEST_F(MergeTest, ReplacesNotRunRowsInPlace) {
  write(main_path, R"({"context": {"x": "1"}, "benchmarks": [
    {"name": "a/manual_time", "run_name": "a/manual_time", "real_time": 1},
    {"name": "f/manual_time", "run_name": "f/manual_time", "error_occurred": true, "error_message": "fault"},
    {"name": "b/manual_time", "run_name": "b/manual_time", "error_occurred": true, "error_message": "not run"},
    {"name": "c/manual_time", "run_name": "c/manual_time", "error_occurred": true, "error_message": "not run"}]})");
  write(part_path, R"({"context": {"membench_fresh_processes": "1", "membench_fresh_process_1_after": "b2"},
    "benchmarks": [
    {"name": "b/manual_time", "run_name": "b/manual_time", "real_time": 2},
    {"name": "c/manual_time", "run_name": "c/manual_time", "real_time": 3}]})");
  merge_rerun(main_path, part_path, {"b", "c"}, "f (cudaErrorIllegalAddress)");
  const auto j = nlohmann::json::parse(std::ifstream(main_path));
  const auto& rows = j["benchmarks"];
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["name"], "a/manual_time");
  EXPECT_EQ(rows[1]["error_message"], "fault");
  EXPECT_EQ(rows[2]["real_time"], 2);
  EXPECT_EQ(rows[3]["real_time"], 3);
  EXPECT_EQ(j["context"]["membench_fresh_processes"], "2");
  EXPECT_EQ(j["context"]["membench_fresh_process_1_after"], "f (cudaErrorIllegalAddress)");
  EXPECT_EQ(j["context"]["membench_fresh_process_2_after"], "b2") << "the fresh process's own rerun";
}

TEST_F(MergeTest, MalformedPartNamesTheFile) {
  write(main_path, R"({"context": {}, "benchmarks": []})");
  write(part_path, R"({"context": {}, "benchmarks": [)");
  try {
    merge_rerun(main_path, part_path, {"b"}, "f");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(part_path), std::string::npos) << e.what();
  }
}

TEST_F(MergeTest, AnnotatesContextAndKeptSamples) {
  write(main_path, R"({"context": {"x": "1"}, "benchmarks": [
    {"name": "a/manual_time", "run_name": "a/manual_time", "run_type": "iteration", "repetition_index": 0, "real_time": 1},
    {"name": "a/manual_time", "run_name": "a/manual_time", "run_type": "iteration", "repetition_index": 1, "real_time": 2},
    {"name": "a/manual_time_median", "run_name": "a/manual_time", "run_type": "aggregate", "real_time": 1.5},
    {"name": "b/manual_time", "run_name": "b/manual_time", "run_type": "iteration", "real_time": 3}]})");
  annotate_output(main_path, {{"membench_event_overhead_end_us", "1.250"}},
                  {{"a", {{1e-6, 2e-6}, {3e-6}}}});
  const auto j = nlohmann::json::parse(std::ifstream(main_path));
  EXPECT_EQ(j["context"]["x"], "1");
  EXPECT_EQ(j["context"]["membench_event_overhead_end_us"], "1.250");
  const auto& rows = j["benchmarks"];
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["samples_us"], nlohmann::json({1.0, 2.0}));
  EXPECT_EQ(rows[1]["samples_us"], nlohmann::json({3.0})) << "each repetition its own samples";
  EXPECT_FALSE(rows[2].contains("samples_us")) << "aggregates have none";
  EXPECT_FALSE(rows[3].contains("samples_us")) << "no samples kept for b";
  EXPECT_EQ(rows[3]["real_time"], 3);
}

TEST_F(MergeTest, AnnotateNamesAnUnusableFile) {
  write(main_path, R"({"context": {}, "benchmarks": [)");
  try {
    annotate_output(main_path, {}, {});
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(main_path), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace membench
