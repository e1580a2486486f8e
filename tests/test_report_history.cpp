// membench-report's history, its exports, the views of any Google Benchmark file, and the
// views files behind `membench-report views`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/model.hpp"
#include "views/view_sets.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

const std::string data = MEMBENCH_REPORT_DATA;  // tests/data/report/

// One run of two benchmarks with tight intervals; `scale` slows the second one down.
result_file run_at(const char* date, const char* commit, double scale, const std::string& path) {
  return parse_results(fmt::format(R"({{"context": {{"date": "{}", "membench_git_commit": "{}",
      "membench_cache_mode": "default"}}, "benchmarks": [
    {{"name": "global/read/bytes:1G", "run_type": "iteration", "repetition_index": 0, "real_time": 300,
      "time_unit": "us", "gb_per_s": 3579, "ci_low_us": 299.7, "ci_high_us": 300.3}},
    {{"name": "global/copy/bytes:1G", "run_type": "iteration", "repetition_index": 0, "real_time": {},
      "time_unit": "us", "gb_per_s": {}, "ci_low_us": {}, "ci_high_us": {}}}]}})",
                                   date, commit, 500 * scale, 4295 / scale, 499.5 * scale, 500.5 * scale),
                       path);
}

// An undecided step is marked, never shown as a same: here the copy row is 10 % slower
// in time at a 9 % lower clock.
TEST(ReportHistory, MarksAnUnsureStep) {
  std::vector<result_file> files{run_at("2026-11-22T10:00:00+00:00", "c1", 1, "a.json"),
                                 run_at("2026-11-22T11:00:00+00:00", "c2", 1.10, "b.json")};
  for (const double clock : {1980.0, 1800.0}) {
    result_file& f = files[clock > 1900 ? 0 : 1];
    for (result& r : f.results) r.runs.at(0).sm_clock_mhz = clock;
  }
  history_options o;
  o.value = "time";
  o.charts = true;
  const document d = view_history(files, o);
  const auto& row = d.tables.at(1).rows.at(0);
  EXPECT_EQ(row[2].text, "550.0 (unsure)");
  EXPECT_EQ(row[2].mood, tone::muted);
  ASSERT_EQ(d.tables[1].charts.size(), 1u);
  EXPECT_EQ(d.tables[1].charts[0].marks.at(0).at(1), tone::muted);
  EXPECT_NE(d.notes.back().find("0 changes between consecutive runs (lower is better); 1 unsure"), std::string::npos)
      << d.notes.back();
}

TEST(ReportHistory, OrdersRunsByDateThenCommit) {
  const std::vector<result_file> files{run_at("2026-11-22T10:00:00+00:00", "bbb", 1, "late.json"),
                                       run_at("2026-11-22T11:30:00+02:00", "aaa", 1, "early.json"),  // 09:30 UTC
                                       run_at("2026-11-22T10:00:00+00:00", "aab", 1, "same_time.json")};
  const auto order = history_order(files);
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0]->path, "early.json");
  EXPECT_EQ(order[1]->path, "same_time.json") << "the same time: by commit";
  EXPECT_EQ(order[2]->path, "late.json");
}

TEST(ReportHistory, MarksTheRunWhereABenchmarkChanged) {
  const std::vector<result_file> files{run_at("2026-11-22T10:00:00+00:00", "c1", 1, "a.json"),
                                       run_at("2026-11-22T11:00:00+00:00", "c2", 1.002, "b.json"),
                                       run_at("2026-11-22T12:00:00+00:00", "c3", 1.10, "c.json")};
  history_options o;
  o.value = "time";
  const document d = view_history(files, o);
  ASSERT_EQ(d.tables.size(), 2u);
  const table& copy = d.tables[1];
  EXPECT_EQ(copy.title, "global/copy");
  ASSERT_EQ(copy.header.size(), 4u);
  EXPECT_EQ(copy.header[1], "2026-11-22 10:00 c1");
  const auto& row = copy.rows.at(0);
  EXPECT_EQ(row[2].text, "501.0") << "0.2 %: no mark";
  EXPECT_EQ(row[3].text, "550.0 (slower)");
  EXPECT_EQ(row[3].mood, tone::bad);
  ASSERT_EQ(copy.charts.size(), 1u);
  EXPECT_EQ(copy.charts[0].marks[0], (std::vector<tone>{tone::plain, tone::plain, tone::bad}));
  EXPECT_EQ(copy.charts[0].x_ticks[2], "c3") << "charts name runs by commit";
  EXPECT_EQ(d.tables[0].rows.at(0)[3].text, "300.0") << "read did not change";
}

TEST(ReportExport, BencherMetricFormat) {
  const result_file f = run_at("2026-11-22T10:00:00+00:00", "c1", 1, "a.json");
  const auto j = nlohmann::json::parse(export_bmf(f, {}));
  const auto& latency = j.at("global/copy/bytes:1G").at("latency");
  EXPECT_DOUBLE_EQ(latency.at("value").get<double>(), 500e3) << "nanoseconds";
  EXPECT_DOUBLE_EQ(latency.at("lower_value").get<double>(), 499.5e3);
  EXPECT_DOUBLE_EQ(latency.at("upper_value").get<double>(), 500.5e3);
  EXPECT_DOUBLE_EQ(j.at("global/copy/bytes:1G").at("gb_per_s").at("value").get<double>(), 4295);
}

TEST(ReportExport, GithubActionBenchmarkSmallerIsBetter) {
  const result_file f = run_at("2026-11-22T10:00:00+00:00", "c1", 1, "a.json");
  const auto j = nlohmann::json::parse(export_gab(f, {.filter = "copy"}));
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0].at("name"), "global/copy/bytes:1G");
  EXPECT_EQ(j[0].at("unit"), "us");
  EXPECT_DOUBLE_EQ(j[0].at("value").get<double>(), 500);
  EXPECT_EQ(j[0].at("range"), "± 0.5");
}

// A bound is a number that brackets the value, or absent: an interval without its upper end
// gives none, an inverted one no negative range, one beside the median is widened to it.
TEST(ReportExport, BoundsAreBothEndsAroundTheValueOrNone) {
  const auto one = [](const std::string& ends) {
    return parse_results(R"({"context": {}, "benchmarks": [{"name": "k/a", "run_type": "iteration",
        "real_time": 100, "time_unit": "us")" + ends + "}]}", "a.json");
  };
  const result_file no_upper = one(R"(, "ci_low_us": 99.9)");
  EXPECT_FALSE(nlohmann::json::parse(export_bmf(no_upper, {})).at("k/a").at("latency").contains("upper_value"));
  EXPECT_FALSE(nlohmann::json::parse(export_gab(no_upper, {}))[0].contains("range"));
  const result_file inverted = one(R"(, "ci_low_us": 102, "ci_high_us": 98)");
  EXPECT_FALSE(nlohmann::json::parse(export_gab(inverted, {}))[0].contains("range"));
  const result_file beside = one(R"(, "ci_low_us": 101, "ci_high_us": 102)");
  const auto latency = nlohmann::json::parse(export_bmf(beside, {})).at("k/a").at("latency");
  EXPECT_DOUBLE_EQ(latency.at("lower_value").get<double>(), 100e3) << "widened to the value";
  EXPECT_DOUBLE_EQ(latency.at("upper_value").get<double>(), 102e3);
}

// A latency is better lower: the notes of history and builds say so of ns_per_load.
TEST(ReportViews, LatencyAndCyclesAreBetterLower) {
  for (const char* v : {"time", "t_median_us", "ns_per_load", "cycles_per_load", "noise_pct", "slowdown"})
    EXPECT_TRUE(lower_is_better(v)) << v;
  for (const char* v : {"gb_per_s", "pct_peak", "speedup", "gflop_per_s", "no_such_counter"})
    EXPECT_FALSE(lower_is_better(v)) << v;
}

TEST(ReportViews, AnyGoogleBenchmarkFileLaysOutEachExperiment) {
  const result_file f = load_results(data + "plain_gbench.json");
  const document d = view_table({f}, {});
  ASSERT_EQ(d.tables.size(), 3u);
  EXPECT_EQ(d.tables[0].title, "BM_memcpy");
  EXPECT_EQ(d.tables[0].header[0], "arg0");
  EXPECT_EQ(d.tables[1].title, "BM_sort");
  EXPECT_EQ(d.tables[1].header, (std::vector<std::string>{"size", "reversed:0", "reversed:1"}));
  EXPECT_EQ(d.tables[1].unit, "us (median sample)") << "time-only rows: the value is time";
  table_options o;
  o.rows = "bytes";
  try {
    (void)view_table({f}, o);
    FAIL();
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("(keys: arg0, build, experiment, file, gpu, repeats, reversed, size, space)"),
              std::string::npos)
        << e.what();
  }
  o.rows = "arg0";
  o.value = "gb_per_s";
  try {
    (void)view_table({f}, o);
    FAIL();
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("(--value: time, bytes_per_second)"), std::string::npos) << e.what();
  }
}

TEST(ReportViewSets, ParseResolveAndExpand) {
  const auto specs = parse_view_specs(R"({"views": [
    {"name": "one", "output": "one.md", "if_rows": "^global/",
     "inputs": {"suite": ["host.json", "membench*.json"], "peer": {"any_of": ["peer.json"], "optional": true}},
     "steps": [{"text": "# One"}, ["table", "$suite", "--format", "md"], ["gpus", "$peer"]]}]})",
                                      "views.json");
  ASSERT_EQ(specs.size(), 1u);
  const view_spec& v = specs[0];
  EXPECT_EQ(v.output, "one.md");
  ASSERT_EQ(v.inputs.size(), 2u);
  EXPECT_TRUE(v.inputs[1].second.optional);
  const auto dir = std::filesystem::temp_directory_path() / "membench_view_sets_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const char* f : {"membench_cg.json", "membench.json"}) std::ofstream(dir / f) << "{}";
  const auto suite = resolve_input(dir.string(), v.inputs[0].second);
  EXPECT_EQ(suite, (std::vector<std::string>{"membench.json", "membench_cg.json"})) << "a glob, sorted";
  EXPECT_TRUE(resolve_input(dir.string(), v.inputs[1].second).empty());
  const std::map<std::string, std::vector<std::string>> inputs{{"suite", suite}, {"peer", {}}};
  EXPECT_EQ(expand_step(v.steps[1], inputs),
            (std::vector<std::string>{"table", "membench.json", "membench_cg.json", "--format", "md"}));
  EXPECT_FALSE(expand_step(v.steps[2], inputs).has_value()) << "an optional input the folder lacks";
  EXPECT_EQ(v.steps[0].text, "# One");
  EXPECT_EQ(find_views_file((dir / "sub").string()), find_views_file(dir.string()));
  std::ofstream(dir / "views.json") << "{}";
  EXPECT_EQ(find_views_file(dir.string()), (dir / "views.json").string());
  std::filesystem::remove_all(dir);
  EXPECT_THROW((void)parse_view_specs(R"({"views": [{"name": "x", "output": "x.md", "steps": []}]})", "v.json"),
               input_error);
  EXPECT_THROW((void)expand_step(view_step{{"table", "$nothing"}, ""}, inputs), input_error);
}

}  // namespace
}  // namespace membench::report
