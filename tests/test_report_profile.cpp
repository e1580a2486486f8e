// profile and the schema's headlines; builds colours only what compare's test calls.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "views/headline.hpp"
#include "core/model.hpp"
#include "profile/profile.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

const std::string data = MEMBENCH_REPORT_DATA;  // tests/data/report/
const std::string h100_run = data + "../../../reports/h100/2026-11-24_21dad57/membench.json";

std::set<std::string> listed_families(const std::string& list) {
  std::ifstream in(data + "../" + list);
  std::set<std::string> out;
  for (std::string name; std::getline(in, name);) {
    const std::size_t second = name.find('/', name.find('/') + 1);
    if (second != std::string::npos) out.insert(name.substr(0, second));
  }
  return out;
}

TEST(ReportHeadlines, EveryFamilyHasOneAndEveryOneAFamily) {
  std::set<std::string> families = listed_families("benchmark_list.txt");
  for (const std::string& f : listed_families("fault_demo_list.txt")) families.insert(f);
  ASSERT_GT(families.size(), 40u);
  for (const std::string& f : families) EXPECT_NE(schema::find_headline(f), nullptr) << f << " has no headline";
  for (const schema::headline& h : schema::headlines())
    EXPECT_TRUE(families.count(std::string(h.family))) << h.family << ": no such family in membench's list";
}

// One row of `family` with these counters and label, read as membench-report reads it.
result one_row(const std::string& name, const std::string& label, const std::string& counters) {
  const std::string text = fmt::format(
      R"({{"context": {{"gpu_name": "T", "gpu_peak_dram_gbps": "1000"}}, "benchmarks": [{{"name": "{}/manual_time",
      "run_name": "{}/manual_time", "run_type": "iteration", "real_time": 10, "time_unit": "us", "label": "{}"{}}}]}})",
      name, name, label, counters);
  return parse_results(text, "t.json").results.front();
}

double pct_of(const result& r) { return price_row(r, *headline_of(r), 1000).pct; }

TEST(ReportHeadlines, NoRowIsPricedAgainstACeilingItDoesNotReach) {
  // A working set in the L1 that the harness priced at 765 % of DRAM: no ceiling.
  EXPECT_TRUE(std::isnan(pct_of(one_row("global/working_set/map:fixed/l2:warm/bytes:16K", "",
                                        R"(, "gb_per_s": 7658, "pct_peak": 765.8)"))));
  // Atomics are done in the L2: not priced against DRAM either.
  EXPECT_TRUE(std::isnan(pct_of(one_row("global/atomic/type:f32/pattern:coalesced/bytes:1M", "",
                                        R"(, "gb_per_s": 900, "pct_peak": 90)"))));
  // A DRAM family's row that names PCIe is not priced against DRAM ...
  EXPECT_TRUE(std::isnan(pct_of(one_row("global/read/bytes:1G", "peak:pcie", R"(, "gb_per_s": 50, "pct_peak": 80)"))));
  // ... and one the harness did not price (no pct_peak: a 4M read in the L2) neither.
  EXPECT_TRUE(std::isnan(pct_of(one_row("global/read/bytes:4M", "", R"(, "gb_per_s": 5000)"))));
  EXPECT_NEAR(pct_of(one_row("global/read/bytes:1G", "", R"(, "gb_per_s": 900, "pct_peak": 90)")), 90, 1e-9);
  const result h2d = one_row("host/copy/dir:h2d/host:pinned/api:memcpy/bytes:256M", "peak:pcie",
                             R"(, "gb_per_s": 55, "pct_peak": 87)");
  EXPECT_EQ(price_row(h2d, *headline_of(h2d), 1000).ceiling, "pcie");
  EXPECT_NEAR(pct_of(one_row("cache/l1_bandwidth/width:4/bytes:64K", "", R"(, "bytes_per_clk_per_sm": 96)")), 75, 1e-9);
}

TEST(ReportProfile, FlagsRowsThatAreNoFinding) {
  const result_file f = parse_results(
      R"({"context": {"gpu_name": "T", "membench_empty_kernel_us": "2"}, "benchmarks": [
      {"name": "shared/latency/bytes:1K/manual_time", "run_name": "shared/latency/bytes:1K/manual_time",
       "run_type": "iteration", "real_time": 100, "time_unit": "us", "label": "timing:blocking work:kernel unconverged:budget",
       "ns_per_load": 11, "converged": 0, "samples": 40},
      {"name": "shared/latency/bytes:4K/manual_time", "run_name": "shared/latency/bytes:4K/manual_time",
       "run_type": "iteration", "real_time": 3, "time_unit": "us", "label": "timing:blocking work:kernel",
       "ns_per_load": 11, "converged": 1, "samples": 40}]})",
      "t.json");
  EXPECT_NE(flag_of(f.results[0], f).find("unconverged"), std::string::npos);
  EXPECT_NE(flag_of(f.results[1], f).find("floor"), std::string::npos) << "3 us is within 3x a 2 us empty launch";
  const std::string md = render_profile_markdown(build_profiles({f}), {});
  EXPECT_NE(md.find("| shared | _11.00_ |"), std::string::npos) << md;
}

TEST(ReportProfile, TheCommittedH100RunReadsAsTheHierarchy) {
  const result_file run = load_results(h100_run);
  const std::vector<gpu_profile> gpus = build_profiles({run});
  ASSERT_EQ(gpus.size(), 1u);
  const gpu_profile& g = gpus.front();
  ASSERT_GE(g.ladder.size(), 5u);
  // L1 < L2 near < L2 far < DRAM, every rung a finding.
  for (std::size_t i : {0, 2, 3, 4}) EXPECT_TRUE(g.ladder[i].flag.empty()) << g.ladder[i].label << ": " << g.ladder[i].flag;
  EXPECT_LT(g.ladder[0].value, g.ladder[2].value);
  EXPECT_LT(g.ladder[2].value, g.ladder[3].value);
  EXPECT_LT(g.ladder[3].value, g.ladder[4].value);
  for (const profile_value& v : g.levels) {
    if (v.label == "DRAM read") { EXPECT_EQ(v.ceiling, "dram"); }
    if (v.label == "L2") { EXPECT_TRUE(std::isnan(v.pct)) << "no published L2 bandwidth"; }
    if (!std::isnan(v.pct)) { EXPECT_LE(v.pct, 100) << v.label << ": the wrong ceiling"; }
  }
  for (const profile_lesson& l : g.lessons) EXPECT_FALSE(l.effect.empty()) << l.title << ": " << l.effect_flag;
  const std::string html = render_profile_html(gpus);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("http://", html.find("<body")), html.find("http://www.w3.org/2000/svg", html.find("<body")));
}

TEST(ReportProfile, ThreeBuildsOfOneGpuShareItsPage) {
  const std::string dir = data + "../../../reports/h100/2026-11-24_21dad57/";
  std::vector<result_file> files;
  for (const char* name : {"membench.json", "membench_ca.json", "membench_cg.json"}) files.push_back(load_results(dir + name));
  const std::vector<gpu_profile> gpus = build_profiles(files);
  ASSERT_EQ(gpus.size(), 1u) << "three builds of one GPU are one page";
  const gpu_profile& g = gpus.front();
  EXPECT_EQ(g.builds.builds, (std::vector<std::string>{"default", "ca", "cg"}));
  ASSERT_EQ(g.builds.rows.size(), g.ladder.size() + g.levels.size());
  // The ladder and levels are the default build's alone, as with its file alone.
  const std::vector<gpu_profile> one = build_profiles(file_refs(std::vector<const result_file*>{&files.front()}));
  EXPECT_EQ(one.front().builds.builds.size(), 0u);
  EXPECT_EQ(render_profile_markdown(one, {}).find("builds side by side"), std::string::npos);
  for (std::size_t i = 0; i < g.ladder.size(); ++i) EXPECT_EQ(g.ladder[i].row, one.front().ladder[i].row);
  for (const build_row& r : g.builds.rows) {
    ASSERT_EQ(r.values.size(), 3u);
    ASSERT_EQ(r.ratios.size(), 2u);
    for (std::size_t k = 1; k < 3; ++k) {
      // Each build's figure is the same benchmark as the default's, and its ratio that of the values.
      if (r.values[0].row.empty() || r.values[k].row.empty()) continue;
      EXPECT_EQ(r.values[k].row, r.values[0].row);
      EXPECT_NEAR(r.ratios[k - 1].value, r.values[k].value / r.values[0].value, 1e-9);
    }
  }
  const std::string md = render_profile_markdown(gpus, {});
  EXPECT_NE(md.find("| figure | unit | default | ca | cg | ca/default | cg/default |"), std::string::npos) << md;
  const std::string html = render_profile_html(gpus);
  EXPECT_NE(html.find("<table class=\"builds\">"), std::string::npos);
  EXPECT_NE(html.find("<title>build ratios</title>"), std::string::npos);
}

TEST(ReportProfile, BuildHeatmapShadesOnlyWhatTheTestCalls) {
  build_comparison b;
  b.builds = {"default", "ca", "cg"};
  build_row r;
  r.unit = "ns";
  r.values.resize(3);
  r.values[0].label = "L1";
  // A 2x change the test did not call stays white; an unsure one is outlined and says so.
  r.ratios = {{"2.000", 2.0, tone::plain}, {"1.300 unsure", 1.3, tone::plain}};
  b.rows.push_back(r);
  r.ratios = {{"8.700", 8.7, tone::bad}, {"0.500", 0.5, tone::good}};
  b.rows.push_back(r);
  const std::string svg = profile_builds_svg(b);
  EXPECT_NE(svg.find("fill=\"#ffffff\" class=\"bc\"/><text x=\"299.0\" y=\"36.0\" class=\"bt\">2.000</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("class=\"bu\"/><text x=\"419.0\" y=\"36.0\" class=\"bt bn\">1.300 unsure</text>"), std::string::npos) << svg;
  EXPECT_NE(svg.find("8.700 slower"), std::string::npos) << svg;
  EXPECT_NE(svg.find("0.500 faster"), std::string::npos) << svg;
  const std::string md = profile_builds_markdown(b);
  EXPECT_NE(md.find("| 2.000 | _1.300 unsure_ |"), std::string::npos) << md;
  EXPECT_NE(md.find("| **8.700 slower** | **0.500 faster** |"), std::string::npos) << md;
}

TEST(ReportViews, BuildsColoursOnlyWhatTheTestCalls) {
  // 10 % apart, no evidence of a spread: no finding.
  auto file = [](const char* build, double us) {
    return parse_results(fmt::format(R"({{"context": {{"membench_cache_mode": "{}"}}, "benchmarks": [
      {{"name": "global/read/bytes:1G/manual_time", "run_name": "global/read/bytes:1G/manual_time",
       "run_type": "iteration", "real_time": {}, "time_unit": "us", "gb_per_s": {}}}]}})",
                                     build, us, 1e6 / us),
                         fmt::format("{}.json", build));
  };
  const document d = view_builds({file("default", 1000), file("cg", 1100)}, {});
  const cell& ratio = d.tables.at(0).rows.at(0).at(3);
  EXPECT_NEAR(ratio.value, 1 / 1.1, 1e-3);
  EXPECT_EQ(ratio.mood, tone::plain) << ratio.text;
  EXPECT_NE(ratio.text.find("unsure"), std::string::npos) << ratio.text;
}

}  // namespace
}  // namespace membench::report
