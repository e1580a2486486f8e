// What the report tool reads besides a results file's rows, read as a careless operator or a
// hostile user would hand it: copies and aliases of one run, one UUID on two hosts, a file of
// peer rows alone, a file that cannot be read among good ones, documents that give a key
// twice or never end, and baselines that could vouch for anything.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "fleet/fleet.hpp"
#include "fleet/fleet_stages.hpp"
#include "core/input_text.hpp"
#include "read/reader.hpp"
#include "views/views.hpp"
#include "test_report_support.hpp"

namespace membench::report {
namespace {

using test_support::timed;

// One run of GPU `uuid` on `host`: rows global/a/n:0..3 and global/b/n:0..3, 0.1 % apart a run.
result_file run_file(const std::string& uuid, int k, const std::string& host = "node", double factor = 1) {
  result_file f;
  f.path = fmt::format("{}_{}.json", uuid, k);
  f.context = {{"gpu_uuid", uuid},       {"gpu_name", "NVIDIA H200"}, {"gpu_global_mem_bytes", "150109880320"},
               {"gpu_sm_count", "132"},  {"nvml_max_sm_clock_mhz", "1980"}, {"membench_cache_mode", "default"},
               {"host_name", host},      {"host_boot_id", host + "-boot"},
               {"date", fmt::format("2026-12-01T00:00:{:02d}", k)}};
  int r = 0;
  for (const char* fam : {"a", "b"}) {
    for (int i = 0; i < 4; ++i, ++r) {
      result x;
      x.set_name(fmt::format("global/{}/n:{}", fam, i));
      x.time_us = 100.0 * (1 + r) * factor * (1 + 0.001 * ((k * 7 + r * 3 + static_cast<int>(uuid.back())) % 5 - 2)) *
                  (1 + 1e-5 * static_cast<int>(uuid.back()));  // no two GPUs' runs alike
      x.runs.push_back(timed(x.time_us));
      f.results.push_back(std::move(x));
    }
  }
  f.build_index();
  return f;
}

std::vector<result_file> fleet_files(int gpus, int runs) {
  std::vector<result_file> out;
  for (int g = 0; g < gpus; ++g) {
    for (int k = 0; k < runs; ++k) out.push_back(run_file(fmt::format("GPU-{:04d}", g), k));
  }
  return out;
}

TEST(ReportInputs, ACopyOfARunCountsOnce) {
  std::vector<result_file> files = fleet_files(4, 3);
  files.push_back(files[0]);
  files.back().path = "dir/./" + files[0].path;  // the same file by another path
  std::vector<std::string> notes;
  const std::vector<fleet> fleets = group_fleets(files, false, &notes);
  ASSERT_EQ(fleets.size(), 1u);
  EXPECT_EQ(fleets[0].gpus[0].files.size(), 3u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("counted once"), std::string::npos) << notes[0];
  EXPECT_EQ(view_fleet(files, {}).exit_code(), 0) << "a copy is said, not a reason to stop";
}

// Merged, the runs of an 8 % slower GPU on another host hid among the healthy GPU's.
TEST(ReportInputs, OneUuidOnTwoHostsIsTwoGpus) {
  std::vector<result_file> files = fleet_files(4, 3);
  for (int k = 0; k < 3; ++k) files.push_back(run_file("GPU-0000", 10 + k, "elsewhere", 1.08));
  const std::vector<fleet> fleets = group_fleets(files, false);
  ASSERT_EQ(fleets[0].gpus.size(), 5u);
  const std::vector<std::string> labels = gpu_labels(fleets[0]);
  EXPECT_NE(labels[0], labels[4]);
  EXPECT_NE(labels[4].find("@elsewhere"), std::string::npos) << labels[4];
  EXPECT_EQ(view_fleet(files, {}).exit_code(), 1) << "the slow one is found";
}

TEST(ReportInputs, AFileOfPeerRowsAloneIsNoRunOfAGpu) {
  std::vector<result_file> files = fleet_files(4, 3);
  result_file peers = run_file("GPU-0000", 20);
  peers.results.resize(1);
  peers.results[0].set_name("peer/copy/src:0/dst:1/bytes:64M");
  peers.build_index();
  files.push_back(peers);
  std::vector<std::string> notes;
  const std::vector<fleet> fleets = group_fleets(files, false, &notes);
  EXPECT_EQ(fleets[0].gpus[0].files.size(), 3u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("peer matrix"), std::string::npos) << notes[0];
}

// One truncated or leftover file no longer stops the report on every GPU; the fleet is then
// not all vouched for: undecided (exit 3) at best, and said.
TEST(ReportInputs, AnUnreadableFileLeavesTheOthersJudged) {
  const std::vector<result_file> files = fleet_files(4, 3);
  const fleet_outcome out = view_fleet(files, {}, nullptr, {"x.fresh.json: not valid JSON"});
  EXPECT_EQ(out.gpus, 4);
  EXPECT_EQ(out.exit_code(), 3);
  ASSERT_FALSE(out.findings.empty());
  EXPECT_NE(out.findings.back().find("x.fresh.json"), std::string::npos);
}

TEST(ReportInputs, DocumentsAreReadWithinALimitAndNeverBlock) {
  EXPECT_THROW(read_input_text("/dev/zero", "/dev/zero", std::size_t{1} << 20), input_error);
  EXPECT_THROW(read_input_text("/", "/"), input_error) << "a folder";
  EXPECT_THROW(read_input_text("/no/such/file", "/no/such/file"), input_error);
  const std::string fifo = ::testing::TempDir() + "membench_input_fifo";
  std::remove(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(read_input_text(fifo, fifo), "") << "no writer: read as empty, not waited on";
  std::remove(fifo.c_str());
}

TEST(ReportInputs, AKeyGivenTwiceIsRefusedAtAnyDepth) {
  EXPECT_THROW(parse_strict_json<nlohmann::json>(R"({"a": 1, "a": 2})", "x"), input_error);
  EXPECT_THROW(parse_strict_json<nlohmann::ordered_json>(R"({"v": [{"b": 1, "c": {"d": 1, "d": 1}}]})", "x"), input_error);
  EXPECT_NO_THROW(parse_strict_json<nlohmann::json>(R"({"a": {"k": 1}, "b": {"k": 2}, "k": [{"k": 1}, {"k": 2}]})", "x"))
      << "one key in several objects is no repeat";
  EXPECT_THROW(parse_strict_json<nlohmann::json>(R"({"a": )", "x"), input_error);
}

// A baseline that could vouch for any GPU: too few GPUs, absurd centres, no fleet.
TEST(ReportInputs, ABaselineThatCouldVouchForAnythingIsRefused) {
  fleet_options opt;
  opt.make_baseline = true;
  const std::string good = view_fleet(fleet_files(4, 3), opt).baseline;
  ASSERT_NO_THROW(parse_baseline(good, "b.json"));
  auto refused = [&](auto&& change) {
    nlohmann::json j = nlohmann::json::parse(good);
    change(j);
    EXPECT_THROW(parse_baseline(j.dump(), "b.json"), input_error) << j.dump().substr(0, 200);
  };
  refused([](nlohmann::json& j) { j["fleets"][0]["gpus"] = nlohmann::json::array({j["fleets"][0]["gpus"][0]}); });
  refused([](nlohmann::json& j) { j["fleets"][0]["rows"][0]["centre_us"] = 1e300; });
  refused([](nlohmann::json& j) { j["fleets"][0]["scopes"][0]["centre"] = 50; });
  refused([](nlohmann::json& j) { j["fleets"][0]["scopes"][0]["between_sd"] = 40; });
  refused([](nlohmann::json& j) { j["fleets"] = nlohmann::json::array(); });
  refused([](nlohmann::json& j) { j["thresholds_pct"]["family"] = 2000; });
  std::string twice = good;
  twice.replace(twice.find("\"version\""), 9, "\"version\": 3, \"version\"");
  EXPECT_THROW(parse_baseline(twice, "b.json"), input_error);
}

// A time its own kept samples contradict: refused, where a test on the samples would judge
// other data than the time shown.
TEST(ReportInputs, ATimeOutsideItsSamplesIsRefused) {
  const std::string row = R"({{"context": {{}}, "benchmarks": [{{"name": "a/manual_time", "run_name": "a/manual_time",
    "run_type": "iteration", "iterations": 1, "real_time": {}, "time_unit": "us", "samples_us": [100, 101, 102]}}]}})";
  EXPECT_NO_THROW(read_results(fmt::format(fmt::runtime(row), 101), "x.json", compare_reads(), read_schedule::whole));
  EXPECT_THROW(read_results(fmt::format(fmt::runtime(row), 110), "x.json", compare_reads(), read_schedule::whole), input_error);
  EXPECT_THROW(read_results(fmt::format(fmt::runtime(row), 90), "x.json", compare_reads(), read_schedule::whole), input_error);
}


// A copy whose GPU, host or date was edited is still the run it copies: counted once, never a
// second GPU or a second run.
TEST(ReportInputs, ACopyWithItsGpuOrDateEditedIsStillOneRun) {
  std::vector<result_file> files = fleet_files(4, 3);
  result_file forged = files[0];
  forged.path = "forged.json";
  forged.context["gpu_uuid"] = "GPU-9999";
  forged.context["date"] = "2026-12-02T00:00:00";
  files.push_back(forged);
  std::vector<std::string> notes;
  const std::vector<fleet> fleets = group_fleets(files, false, &notes);
  EXPECT_EQ(fleets[0].gpus.size(), 4u);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("forged.json: the same run as"), std::string::npos) << notes[0];
}

// Twice as fast as its reference on all its rows is no healthy chip of the stratum (another
// model, a baseline of other GPUs, timing that measured nothing): undecided, not within.
TEST(ReportInputs, AGpuTwiceAsFastAsItsReferenceIsNotVouchedFor) {
  std::vector<result_file> files = fleet_files(4, 3);
  for (int k = 0; k < 3; ++k) files.push_back(run_file("GPU-0009", k, "node", 1e-3));
  const fleet_outcome out = view_fleet(files, {});
  EXPECT_EQ(out.exit_code(), 3);
  EXPECT_EQ(out.undecided, 1);
}

// One rank per GPU, its place in the worst-first list both outputs give, strata mixed: the
// JSON ranked within each stratum while the table counted over every GPU.
TEST(ReportInputs, AGpusRankIsTheSameInTheJsonAndTheTable) {
  std::vector<result_file> files;
  for (const char* build : {"default", "cg"}) {
    for (int g = 0; g < 5; ++g) {
      for (int k = 0; k < 3; ++k) {
        // A copy of a run counts once: the cg build's runs are 1 % slower, each its own.
        files.push_back(run_file(fmt::format("GPU-{}{:03d}", build[0], g), k, "node",
                                 (g == 4 ? 1.08 : 1.0) * (build[0] == 'c' ? 1.01 : 1.0)));
        files.back().context["membench_cache_mode"] = build;
      }
    }
  }
  fleet_options opt;
  opt.allow_mixed = true;
  const fleet_outcome text = view_fleet(files, opt);
  opt.as_json = true;
  const nlohmann::json j = nlohmann::json::parse(view_fleet(files, opt).json);
  std::map<std::string, std::string> json_rank;
  for (const nlohmann::json& g : j.at("gpus")) json_rank[g.at("uuid")] = fmt::format("{}", g.at("rank").get<int>());
  const table* worst_first = nullptr;
  for (const table& t : text.doc.tables) {
    if (t.title == "GPUs, worst first") worst_first = &t;
  }
  ASSERT_NE(worst_first, nullptr);
  ASSERT_EQ(worst_first->rows.size(), 10u);
  for (const auto& row : worst_first->rows) EXPECT_EQ(json_rank.at(row.at(1).text), row.at(0).text) << row.at(1).text;
}

TEST(ReportInputs, PairsTakeOnlyWhatTheCommandLineTakes) {
  const std::string pair = R"([{{"base": {{"file": "a.json", "row": "x", "scale": {}}}, "new": {{"file": "b.json", "row": "x"}}{}}}])";
  EXPECT_NO_THROW(parse_row_pairs(fmt::format(fmt::runtime(pair), 2, ", \"threshold\": 5, \"margin\": 150"), "p"))
      << "two rows: one 2.5x the other";
  EXPECT_THROW(parse_row_pairs(fmt::format(fmt::runtime(pair), 1, ", \"marg\": 5"), "p"), input_error) << "a misspelt key";
  EXPECT_THROW(parse_row_pairs(fmt::format(fmt::runtime(pair), 1e308, ""), "p"), input_error);
  EXPECT_THROW(parse_row_pairs(fmt::format(fmt::runtime(pair), 1, ", \"threshold\": -1"), "p"), input_error);
  EXPECT_THROW(parse_row_pairs(fmt::format(fmt::runtime(pair), 1, ", \"threshold\": 1e9"), "p"), input_error);
  EXPECT_THROW(parse_row_pairs(fmt::format(fmt::runtime(pair), 1, ", \"margin\": 1e9"), "p"), input_error);
  // A boolean is no percent: json would read true as 1, a threshold nobody asked for.
  EXPECT_THROW(parse_row_pairs(fmt::format(fmt::runtime(pair), 1, ", \"threshold\": true"), "p"), input_error);
  EXPECT_THROW(parse_row_pairs(fmt::format(fmt::runtime(pair), "true", ""), "p"), input_error) << "a boolean scale";
  // A key beside "pairs" is the misspelling one level up: the pairs would be judged at 5 %.
  const std::string one = R"({"base": {"file": "a.json", "row": "x"}, "new": {"file": "b.json", "row": "x"}})";
  EXPECT_NO_THROW(parse_row_pairs("{\"pairs\": [" + one + "]}", "p"));
  EXPECT_THROW(parse_row_pairs("{\"pairs\": [" + one + "], \"threshold\": 50}", "p"), input_error);
}

// A sample that is no number would be dropped, the row judged on its interval alone, unsaid.
TEST(ReportInputs, ASampleThatIsNoNumberIsRefused) {
  const std::string row = R"({{"context": {{}}, "benchmarks": [{{"name": "a/manual_time", "run_name": "a/manual_time",
    "run_type": "iteration", "iterations": 1, "real_time": 101, "time_unit": "us", "samples_us": {}}}]}})";
  for (const char* samples : {"[100, \"x\", 102]", "[100, true]", "[100, {}]", "\"oops\"", "{}"})
    EXPECT_THROW(read_results(fmt::format(fmt::runtime(row), samples), "x.json", compare_reads(), read_schedule::whole),
                 input_error)
        << samples;
}

}  // namespace
}  // namespace membench::report
