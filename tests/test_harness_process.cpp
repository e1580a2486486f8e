#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <regex>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/family/family.hpp"
#include "harness/process/cpu_affinity.hpp"
#include "harness/process/devices.hpp"
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

TEST_F(MergeTest, HostLinkRowsJoinTheirGpusFileInRegistrationOrder) {
  write(main_path, R"({"context": {"membench_host_link": "skip"}, "benchmarks": [
    {"name": "compute/vector_add/transfers:without/manual_time", "run_name": "compute/vector_add/transfers:without/manual_time", "real_time": 1},
    {"name": "compute/vector_add/math:fast/manual_time", "run_name": "compute/vector_add/math:fast/manual_time", "real_time": 3},
    {"name": "global/read/bytes:1M/manual_time", "run_name": "global/read/bytes:1M/manual_time", "real_time": 4},
    {"name": "shared/latency/bytes:16K/manual_time", "run_name": "shared/latency/bytes:16K/manual_time", "real_time": 7}]})");
  write(part_path, R"({"context": {"membench_host_link": "only"}, "benchmarks": [
    {"name": "compute/vector_add/transfers:with/manual_time", "run_name": "compute/vector_add/transfers:with/manual_time", "real_time": 2},
    {"name": "host/copy/bytes:16M/manual_time", "run_name": "host/copy/bytes:16M/manual_time", "real_time": 5},
    {"name": "host/copy/bytes:16M/manual_time_median", "run_name": "host/copy/bytes:16M/manual_time", "real_time": 5.5},
    {"name": "host/streams/streams:4/manual_time", "run_name": "host/streams/streams:4/manual_time", "real_time": 6},
    {"name": "zz/unknown/row/manual_time", "run_name": "zz/unknown/row/manual_time", "real_time": 8}]})");
  merge_host_link_rows(main_path, part_path,
                       {"compute/vector_add/transfers:without", "compute/vector_add/transfers:with",
                        "compute/vector_add/math:fast", "global/read/bytes:1M", "host/streams/streams:4",
                        "host/copy/bytes:16M", "shared/latency/bytes:16K"});
  const auto j = nlohmann::json::parse(std::ifstream(main_path));
  std::vector<double> order;
  for (const auto& row : j["benchmarks"]) order.push_back(row["real_time"]);
  EXPECT_EQ(order, (std::vector<double>{1, 2, 3, 4, 6, 5, 5.5, 7, 8}))
      << "as one process registers them, a family's rows from both files among each other; a name not "
         "registered last";
  EXPECT_EQ(j["context"]["membench_host_link"], "alone");
  EXPECT_FALSE(std::ifstream(part_path).good()) << "the host-link file is folded in, not left beside it";
}

TEST_F(MergeTest, AHostLinkFileThatIsNotJsonLeavesTheGpusFileAsItWas) {
  const std::string before = R"({"context": {}, "benchmarks": [{"name": "a/x/manual_time", "real_time": 1}]})";
  write(main_path, before);
  write(part_path, R"({"context": {}, "benchmarks": )");
  EXPECT_THROW(merge_host_link_rows(main_path, part_path, {"a/x"}), std::runtime_error);
  std::stringstream text;
  text << std::ifstream(main_path).rdbuf();
  EXPECT_EQ(text.str(), before);
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

TEST_F(MergeTest, AnnotatesKeptBatchSamplesOnlyWhereTheRepetitionHasThem) {
  write(main_path, R"({"context": {}, "benchmarks": [
    {"name": "a/manual_time", "run_name": "a/manual_time", "run_type": "iteration", "repetition_index": 0, "real_time": 1},
    {"name": "a/manual_time", "run_name": "a/manual_time", "run_type": "iteration", "repetition_index": 1, "real_time": 2}]})");
  annotate_output(main_path, {}, {{"a", {{1e-6}, {2e-6}}}}, {{"a", {{}, {5e-7, 6e-7}}}});
  const auto j = nlohmann::json::parse(std::ifstream(main_path));
  const auto& rows = j["benchmarks"];
  EXPECT_FALSE(rows[0].contains("batch_samples_us")) << "no batch figure in repetition 0";
  EXPECT_EQ(rows[1]["batch_samples_us"], nlohmann::json({0.5, 0.6}));
  EXPECT_EQ(rows[1]["samples_us"], nlohmann::json({2.0}));
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

TEST(Devices, ParsesAllOrDistinctIndices) {
  const auto all = std::get<device_request>(parse_devices("all"));
  EXPECT_TRUE(all.all);
  const auto list = std::get<device_request>(parse_devices("0,2,3"));
  EXPECT_FALSE(list.all);
  EXPECT_EQ(list.indices, (std::vector<int>{0, 2, 3}));
  for (const char* bad : {"", "0,,2", "x", "-1", "1.5", "0,", "all,1"}) {
    EXPECT_TRUE(std::holds_alternative<std::string>(parse_devices(bad))) << bad;
  }
  const auto twice = parse_devices("1,0,1");
  ASSERT_TRUE(std::holds_alternative<std::string>(twice));
  EXPECT_NE(std::get<std::string>(twice).find("device 1 is listed twice"), std::string::npos);
}

TEST(Devices, ResolvesAgainstTheDevicesPresent) {
  EXPECT_EQ(std::get<std::vector<int>>(resolve_devices({true, {}}, 4)), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(std::get<std::vector<int>>(resolve_devices({false, {2, 0}}, 4)), (std::vector<int>{2, 0}));
  const auto missing = resolve_devices({false, {0, 7}}, 2);
  ASSERT_TRUE(std::holds_alternative<std::string>(missing));
  EXPECT_NE(std::get<std::string>(missing).find("no device 7; 2 CUDA device(s) present (0..1)"), std::string::npos);
}

TEST(Devices, EachGpuGetsItsOwnJsonNamedByIndexAndUuid) {
  const std::string uuid = "GPU-4f8a1c2e-0b6d-9e3f-1a2b-3c4d5e6f7081";
  EXPECT_EQ(device_output_path("r/membench.json", 1, uuid), "r/membench.gpu1-" + uuid + ".json");
  EXPECT_EQ(device_output_path("out", 0, uuid), "out.gpu0-" + uuid);
  EXPECT_EQ(device_output_path("./r.d/out", 2, uuid), "./r.d/out.gpu2-" + uuid) << "a dot in a folder is no extension";
}

TEST(Devices, EachProcessRunsItsDeviceWithItsOutput) {
  const auto a = device_args({"membench", "--devices=all", "--suite=quick", "--device=3", "--benchmark_out=x.json",
                              "--progress=auto", "--benchmark_filter=^global/", "--host-link=alone"},
                             2, "x.gpu2-U.json", "never", "skip");
  EXPECT_EQ(a, (std::vector<std::string>{"membench", "--suite=quick", "--benchmark_filter=^global/", "--device=2",
                                         "--peers=none", "--host-link=skip", "--benchmark_out=x.gpu2-U.json",
                                         "--progress=never"}));
  const auto b = device_args({"membench", "--peers=0-1", "--peers-only", "--suite=quick"}, 1, "", "always", "together");
  EXPECT_EQ(b, (std::vector<std::string>{"membench", "--suite=quick", "--device=1", "--peers=none",
                                         "--host-link=together", "--progress=always"}))
      << "no peer row runs beside the other GPUs' processes";
}

TEST(Devices, TheHostLinkRowsOfAGpuHaveAFileUntilMerged) {
  const std::string uuid = "GPU-4f8a1c2e-0b6d-9e3f-1a2b-3c4d5e6f7081";
  EXPECT_EQ(host_link_output_path("r/membench.json", 1, uuid), "r/membench.gpu1-" + uuid + ".host.json");
  EXPECT_EQ(host_link_output_path("./r.d/out", 0, uuid), "./r.d/out.gpu0-" + uuid + ".host");
}

TEST(Devices, ThePeerMatrixRunsAloneWithItsOwnJson) {
  EXPECT_EQ(peers_output_path("r/membench.json"), "r/membench.peers.json");
  EXPECT_EQ(peers_output_path("out"), "out.peers");
  EXPECT_EQ(peers_output_path("./r.d/out"), "./r.d/out.peers");
  const auto a = peer_process_args({"membench", "--devices=all", "--suite=quick", "--peers=all", "--device=3",
                                    "--benchmark_out=x.json", "--progress=auto", "--benchmark_filter=^peer/copy/"},
                                   0, "0-1,1-0", "x.peers.json", "never");
  EXPECT_EQ(a, (std::vector<std::string>{"membench", "--suite=quick", "--benchmark_filter=^peer/copy/", "--device=0",
                                         "--peers=0-1,1-0", "--peers-only", "--benchmark_out=x.peers.json",
                                         "--progress=never"}));
}

TEST(Devices, OneExitCodeForAll) {
  EXPECT_EQ(combined_exit_code({0, 0}), 0);
  EXPECT_EQ(combined_exit_code({0, 1}), 1) << "a failed row on one GPU fails the run";
  EXPECT_EQ(combined_exit_code({1, 5, 0}), 5);
  EXPECT_EQ(combined_exit_code({1, 130, 5}), 130) << "a stopped run says so";
}


TEST(CpuAffinity, ParsesAndFormatsTheKernelsCpuList) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list("5,1,1-2"), (std::vector<int>{1, 2, 5})) << "sorted, each once";
  for (const char* bad : {"", ",", "1,", "3-1", "a", "1-", "-2", "0-99999"}) EXPECT_FALSE(parse_cpu_list(bad)) << bad;
  EXPECT_EQ(format_cpu_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(format_cpu_list({}), "");
  EXPECT_EQ(format_cpu_list(*parse_cpu_list("0-15,32")), "0-15,32");
}

TEST(CpuAffinity, GpusOfOneNodeShareItsCpusEvenly) {
  const std::vector<int> allowed = *parse_cpu_list("0-31");
  const std::vector<int> node0 = *parse_cpu_list("0-15"), node1 = *parse_cpu_list("16-31");
  const auto shares = share_cpus({node0, node0, node1, node1}, allowed);
  ASSERT_EQ(shares.size(), 4u);
  EXPECT_EQ(format_cpu_list(shares[0]), "0-7");
  EXPECT_EQ(format_cpu_list(shares[1]), "8-15");
  EXPECT_EQ(format_cpu_list(shares[2]), "16-23");
  EXPECT_EQ(format_cpu_list(shares[3]), "24-31");
}

TEST(CpuAffinity, UnknownLocalityOrABindingFallsBackToWhatIsAllowed) {
  // NVML silent: the allowed CPUs split among all GPUs.
  const auto unknown = share_cpus({{}, {}, {}}, *parse_cpu_list("0-9"));
  EXPECT_EQ(format_cpu_list(unknown[0]), "0-2");
  EXPECT_EQ(format_cpu_list(unknown[1]), "3-5");
  EXPECT_EQ(format_cpu_list(unknown[2]), "6-9");
  // A Slurm binding to CPUs 4-7 that excludes the GPU's node: the binding wins.
  const auto bound = share_cpus({*parse_cpu_list("0-3")}, *parse_cpu_list("4-7"));
  EXPECT_EQ(format_cpu_list(bound[0]), "4-7");
  // More GPUs than CPUs: each still gets one.
  const auto few = share_cpus({{}, {}, {}}, {2, 3});
  for (const auto& s : few) EXPECT_EQ(s.size(), 1u);
}

}  // namespace
}  // namespace membench

namespace membench {
namespace {

TEST(FamilyList, SaysWhetherEachRunsHereAndWhy) {
  machine_offers h100{.gpu = true, .compute_major = 9, .compute_minor = 0, .peer = false, .managed = true};
  std::string why;
  EXPECT_TRUE(can_run(family_needs::sm90, h100, why));
  EXPECT_FALSE(can_run(family_needs::two_gpus, h100, why));
  EXPECT_EQ(why, "no two GPUs with peer access");
  machine_offers a100 = h100;
  a100.compute_major = 8;
  EXPECT_TRUE(can_run(family_needs::sm80, a100, why));
  EXPECT_FALSE(can_run(family_needs::sm90, a100, why));
  EXPECT_EQ(why, "compute capability below 9.0");
  EXPECT_FALSE(can_run(family_needs::gpu, machine_offers{}, why));
  EXPECT_EQ(why, "no GPU");
  const std::string list = format_family_list({{"cluster/dsm_latency", "DSM latency", family_needs::sm90, false},
                                               {"peer/copy", "peer copies", family_needs::two_gpus, false}},
                                              h100);
  EXPECT_NE(list.find("cluster/dsm_latency      yes   sm_90     DSM latency\n"), std::string::npos) << list;
  EXPECT_NE(list.find("peer/copy                no    two GPUs  peer copies [not here: no two GPUs with peer access]"),
            std::string::npos)
      << list;
}

}  // namespace
}  // namespace membench
