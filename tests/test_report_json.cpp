// membench-report's JSON for programs: compare --format json, compare --pairs and rows,
// on the H200 fixtures and the findings fixture (tests/findings/run_a.json). The CLI
// outputs are golden files (tests/report/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "core/model.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

using json = nlohmann::json;
const std::string data = MEMBENCH_REPORT_DATA;  // tests/data/report/

// The record of the row `name` in rows' answer for one file.
json row_named(const json& rows, const std::string& name) {
  for (const json& r : rows.at("files").at(0).at("rows")) {
    if (r.at("name") == name) return r;
  }
  ADD_FAILURE() << "no row " << name;
  return {};
}

TEST(ReportJson, CompareSaysWhatTheDocumentSaysInFullPrecision) {
  const result_file base = load_results(data + "h200_default.json");
  const result_file cg = load_results(data + "h200_cg.json");
  const compare_outcome c = view_compare(base, cg, {.filter = "read_reuse", .as_json = true});
  EXPECT_TRUE(c.doc.tables.empty()) << "JSON instead of the document";
  const json j = json::parse(c.json);
  EXPECT_EQ(j.at("summary").at("slower"), c.slower);
  EXPECT_EQ(j.at("summary").at("unsure"), c.unsure);
  EXPECT_EQ(j.at("summary").at("correction").at("method"), "bh");
  int slower = 0;
  for (const json& r : j.at("benchmarks")) {
    if (r.at("state") != "decided") continue;
    slower += r.at("verdict") == "slower";
    const double b = r.at("base").at("median_us"), n = r.at("new").at("median_us");
    EXPECT_DOUBLE_EQ(r.at("change").get<double>(), n / b - 1) << "not rounded";
    EXPECT_LT(r.at("interval").at("low").get<double>(), r.at("interval").at("high").get<double>());
    if (r.at("verdict") == "unsure") {
      EXPECT_EQ(r.at("reason"), "not converged");
    }
  }
  EXPECT_EQ(slower, 1);
}

TEST(ReportJson, PairsCompareRowsOfAnyNameOrFileWithTheirOwnThreshold) {
  const std::string off0 = "global/read_offset/type:f32/offset:0/l2:cold/bytes:1G";
  const std::string off1 = "global/read_offset/type:f32/offset:1/l2:cold/bytes:1G";
  const std::string text = json::array(
      {{{"base", {{"file", "d"}, {"row", off0}}}, {"new", {{"file", "d"}, {"row", off1}}}, {"threshold", 1}},
       {{"base", {{"file", "d"}, {"row", off0}, {"scale", 2}}}, {"new", {{"file", "cg"}, {"row", off0}}}}}).dump();
  const std::vector<row_pair> pairs = parse_row_pairs(text, "pairs.json");
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_DOUBLE_EQ(pairs[0].threshold_pct, 1);
  EXPECT_TRUE(std::isnan(pairs[1].threshold_pct)) << "--threshold then";
  std::vector<result_file> files{load_results(data + "h200_default.json"), load_results(data + "h200_cg.json")};
  files[0].path = "d";
  files[1].path = "cg";
  compare_options each_alone;
  each_alone.family = correction::none;
  each_alone.as_json = true;
  const json j = json::parse(view_compare_pairs(pairs, files, each_alone).json);
  const json& renamed = j.at("benchmarks").at(0);
  EXPECT_EQ(renamed.at("base").at("name"), off0);
  EXPECT_EQ(renamed.at("new").at("name"), off1);
  EXPECT_EQ(renamed.at("verdict"), "slower") << "offset 1 is about 3 % slower: beyond 1 %, not 5 %";
  EXPECT_EQ(renamed.at("threshold_pct").get<double>(), 1);
  const json& scaled = j.at("benchmarks").at(1);
  EXPECT_DOUBLE_EQ(scaled.at("base").at("scale").get<double>(), 2);
  EXPECT_DOUBLE_EQ(scaled.at("base").at("median_us").get<double>(), 2 * files[0].find(off0)->time_us);
  EXPECT_EQ(scaled.at("new").at("files").at(0), "cg");
  EXPECT_EQ(scaled.at("verdict"), "faster") << "half the time of twice the row";
  EXPECT_EQ(j.at("summary").at("correction").at("method"), "none");
}

// A record says the percents it was judged at as given (7, not 7 / 100 * 100 = 7.000000000000001),
// and a GB/s only where it is a rate: a row's -3000 GB/s is none, nor a change under -100 %.
TEST(ReportJson, CompareRecordsSayTheGivenPercentsAndNoNegativeRate) {
  const result_file base = load_results(data + "h200_default.json");
  result_file next = load_results(data + "h200_default_rerun.json");
  for (result& r : next.results) {
    if (r.name.find("memcpy_d2d") == std::string::npos) continue;
    std::vector<counter_set::value_type> v;
    for (const auto& [name, x] : r.counters) v.emplace_back(name, name == "gb_per_s" ? -3000 : x);
    r.counters = counter_set(std::move(v));
  }
  compare_options opt;
  opt.filter = "memcpy";
  opt.threshold_pct = 7;
  opt.margin_pct = 3.5;
  opt.show_all = true;
  opt.as_json = true;
  const compare_outcome c = view_compare(base, next, opt);
  const json j = json::parse(c.json);
  int seen = 0;
  for (const json& r : j.at("benchmarks")) {
    EXPECT_EQ(r.at("threshold_pct").get<double>(), 7);
    EXPECT_EQ(r.at("margin_pct").get<double>(), 3.5);
    if (r.at("benchmark").get<std::string>().find("memcpy_d2d") == std::string::npos) continue;
    ++seen;
    EXPECT_TRUE(r.at("new_gb_per_s").is_null()) << r.at("new_gb_per_s");
    EXPECT_TRUE(r.at("gb_per_s_change").is_null());
  }
  EXPECT_GT(seen, 0);
}

TEST(ReportJson, PairsRefuseMalformedInput) {
  EXPECT_THROW((void)parse_row_pairs("{", "p"), input_error);
  EXPECT_THROW((void)parse_row_pairs("{\"base\": 1}", "p"), input_error) << "neither a list nor {pairs: [...]}";
  EXPECT_THROW((void)parse_row_pairs(R"([{"base": {"file": "a"}, "new": {"file": "a", "row": "x"}}])", "p"),
               input_error)
      << "a side without a row";
  EXPECT_THROW(
      (void)parse_row_pairs(R"([{"base": {"file": "a", "row": "x", "scale": 0}, "new": {"file": "a", "row": "x"}}])", "p"),
      input_error);
  const std::vector<row_pair> one = parse_row_pairs(R"({"pairs": [{"base": {"file": "a", "row": "x"},
                                                                     "new": {"file": "b", "row": "x"}}]})", "p");
  EXPECT_THROW((void)view_compare_pairs(one, {}, {}), input_error) << "a file the pairs name was not loaded";
}

TEST(ReportJson, RowsSayEachRowsIntervalAndWhyItIsNotUsable) {
  const json j = json::parse(rows_json({load_results(data + "../../findings/run_a.json")}, "^k/"));
  EXPECT_DOUBLE_EQ(j.at("files").at(0).at("ci_level_pct").get<double>(), 95);
  const json fast = row_named(j, "k/fast");
  EXPECT_TRUE(fast.at("usable"));
  EXPECT_EQ(fast.at("interval"), json({{"low_us", 99.0}, {"high_us", 101.0}, {"from", "ci"}}));
  EXPECT_DOUBLE_EQ(fast.at("counters").at("gb_per_s").get<double>(), 10);
  // 50 us, noise 2 %, 16 samples: 50 exp(+-1.959964 sqrt(pi/2) 0.02 / 4)
  const json noise = row_named(j, "k/noise").at("interval");
  EXPECT_EQ(noise.at("from"), "noise");
  EXPECT_NEAR(noise.at("low_us").get<double>(), 49.390, 1e-3);
  EXPECT_NEAR(noise.at("high_us").get<double>(), 50.618, 1e-3);
  auto kinds = [&](const std::string& name) {
    const json row = row_named(j, name);
    std::string out;
    for (const json& p : row.at("problems")) out += p.at("kind").get<std::string>() + " ";
    return out;
  };
  EXPECT_EQ(kinds("k/unconverged"), "unconverged ");
  EXPECT_EQ(kinds("k/throttled"), "throttled ");
  EXPECT_EQ(row_named(j, "k/throttled").at("problems").at(0).at("detail"), "sw_power_cap");
  EXPECT_EQ(kinds("k/old"), "unrecorded ");
  EXPECT_EQ(kinds("k/error"), "error ");
  EXPECT_TRUE(row_named(j, "k/error").at("interval").is_null());
  EXPECT_FALSE(row_named(j, "k/error").at("usable"));
}

}  // namespace
}  // namespace membench::report
