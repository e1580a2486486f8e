// membench-report on fixtures: real H200 rows (tests/data/report/h200_*.json) and hand-made
// edge cases. Golden CLI outputs are checked in tests/CMakeLists.txt.
#include <algorithm>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/exit_codes.hpp"
#include "core/model.hpp"
#include "render/render.hpp"
#include "views/views.hpp"
#include "core/regex.hpp"

namespace membench::report {
namespace {

const std::string data = MEMBENCH_REPORT_DATA;  // tests/data/report/

void expect_input_error(const std::string& file, const std::string& needle) {
  try {
    (void)load_results(data + file);
    FAIL() << file << ": expected an input_error";
  } catch (const input_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(file), std::string::npos) << "the message names the file: " << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
}

TEST(ReportModel, MalformedInputsNameTheFileAndTheProblem) {
  expect_input_error("truncated.json", "not valid JSON");
  expect_input_error("wrong_types.json", "real_time");
  expect_input_error("missing_fields.json", "name");
  expect_input_error("not_benchmark_json.json", "not a Google Benchmark JSON object");
  expect_input_error("duplicates.json", "duplicate benchmark 'global/read/bytes:1G'");
  expect_input_error("no_such_file.json", "cannot open");
  EXPECT_THROW((void)parse_results("", "empty"), input_error);
  EXPECT_THROW((void)parse_results(R"({"benchmarks": {}})", "x"), input_error);
  EXPECT_THROW((void)parse_results(R"({"benchmarks": [{"name": 3}]})", "x"), input_error);
  // Repetition indices are 64-bit: 0 and 2^32 are two repetitions, not a duplicate.
  const result_file f = parse_results(R"({"benchmarks": [
    {"name": "a", "run_type": "iteration", "repetition_index": 0, "real_time": 1, "time_unit": "us"},
    {"name": "a", "run_type": "iteration", "repetition_index": 4294967296, "real_time": 3, "time_unit": "us"}]})", "x");
  EXPECT_EQ(f.results.at(0).runs.size(), 2u);
  EXPECT_THROW((void)parse_results(R"({"benchmarks": [
    {"name": "a", "repetition_index": 18446744073709551615, "real_time": 1, "time_unit": "us"}]})", "x"), input_error);
}

TEST(ReportModel, ConvertsTimeUnitsAndKeepsErrorRows) {
  const result_file f = load_results(data + "mixed_units_errors.json");
  ASSERT_EQ(f.results.size(), 5u);
  EXPECT_DOUBLE_EQ(f.results[0].time_us, 2.5);
  EXPECT_DOUBLE_EQ(f.results[1].time_us, 12.5);
  EXPECT_DOUBLE_EQ(f.results[2].time_us, 1200.0);
  EXPECT_TRUE(f.results[3].error && f.results[3].skipped);
  EXPECT_TRUE(f.results[4].error && !f.results[4].skipped);
  EXPECT_FALSE(f.results[4].value("time").has_value()) << "an error row never has a time";
  EXPECT_EQ(f.gpu(), "Hand-made GPU");
  EXPECT_DOUBLE_EQ(f.peak_gbps(), 1000.0);
}

TEST(ReportModel, AggregatesOnlyUsesTheMedianAndTheCv) {
  const result_file f = load_results(data + "aggregates_only.json");
  ASSERT_EQ(f.results.size(), 3u);
  EXPECT_DOUBLE_EQ(f.results[0].time_us, 2.5);
  EXPECT_DOUBLE_EQ(f.results[0].counters.at("gb_per_s"), 6.5);
  EXPECT_DOUBLE_EQ(f.results[0].rep_cv, 0.02);
  EXPECT_LT(f.results[1].rep_cv, 0) << "no cv row: unknown";
}

TEST(ReportModel, RealRowsParseWithTheirNames) {
  const result_file f = load_results(data + "h200_default.json");
  EXPECT_EQ(f.build(), "default");
  EXPECT_EQ(f.gpu(), "NVIDIA H200");
  const result* r = f.find("global/read_offset/type:f32/offset:4/l2:cold/bytes:1G");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->experiment(), "read_offset");
  EXPECT_EQ(r->param("offset"), "4");
  EXPECT_GT(r->value("gb_per_s").value_or(0), 1000.0);
  EXPECT_DOUBLE_EQ(*r->value("time"), r->time_us);
}

TEST(ReportModel, SortsSizesAndNumbersByValue) {
  EXPECT_TRUE(value_less("16K", "4M"));
  EXPECT_TRUE(value_less("4M", "1G"));
  EXPECT_TRUE(value_less("2", "16"));
  EXPECT_FALSE(value_less("16", "2"));
  EXPECT_TRUE(value_less("8", "f32")) << "numbers before text";
  EXPECT_TRUE(value_less("cold", "warm"));
  EXPECT_EQ(numeric_value("16K"), 16384.0);
  EXPECT_FALSE(numeric_value("f32").has_value());
  EXPECT_FALSE(numeric_value("nan").has_value()) << "would break the sort order";
}

TEST(ReportCompare, CgBuildIsSlowerOnL1Reuse) {
  const result_file base = load_results(data + "h200_default.json");
  const result_file cg = load_results(data + "h200_cg.json");
  const compare_outcome c = view_compare(base, cg, {.filter = "read_reuse"});
  // The 4M row is slower too, but it never reached its noise target (converged 0): unsure.
  EXPECT_EQ(c.slower, 1);
  EXPECT_EQ(c.unsure, 1);
  EXPECT_EQ(c.unusable, 0);
  ASSERT_EQ(c.doc.tables.at(0).rows.size(), 2u);
  EXPECT_EQ(c.doc.tables[0].rows[0].back().text, "unsure: not converged");
  EXPECT_EQ(c.doc.tables[0].rows[1].back().text, "slower");
  EXPECT_GT(c.geomean_ratio, 1.2);
  const compare_outcome same = view_compare(base, base, {});
  EXPECT_EQ(same.slower + same.faster + same.unsure, 0);
  EXPECT_DOUBLE_EQ(same.geomean_ratio, 1.0);
}

TEST(ReportCompare, MissingAndErroredBenchmarksAreUnusable) {
  const result_file base = load_results(data + "mixed_units_errors.json");
  const result_file agg = load_results(data + "aggregates_only.json");
  const compare_outcome c = view_compare(base, agg, {});
  EXPECT_EQ(c.unusable, 2) << "2G skipped and 8G failed in BASE";
  EXPECT_THROW((void)view_compare(base, load_results(data + "h200_default.json"), {}), input_error)
      << "nothing in common";
}

TEST(ReportViews, TablePivotsAndCharts) {
  const std::vector<result_file> files{load_results(data + "h200_default.json"), load_results(data + "h200_ca.json"),
                                       load_results(data + "h200_cg.json")};
  table_options o;
  o.filter = "read_stride";
  o.rows = "stride";
  o.cols = "build";
  const document d = view_table(files, o);
  ASSERT_EQ(d.tables.size(), 1u);
  const table& t = d.tables[0];
  EXPECT_EQ(t.header, (std::vector<std::string>{"stride", "build:default", "build:ca", "build:cg"}));
  ASSERT_EQ(t.rows.size(), 4u);
  EXPECT_EQ(t.rows[0][0].text, "1");
  EXPECT_EQ(t.rows[3][0].text, "8");
  ASSERT_EQ(t.charts.size(), 1u);
  EXPECT_EQ(t.charts[0].series.size(), 3u);
  o.rows = "nokey";
  EXPECT_THROW((void)view_table(files, o), input_error);
  o.rows = "stride";
  const std::vector<result_file> twice{files[0], files[0]};  // the same run twice: one cell, two results
  EXPECT_THROW((void)view_table(twice, o), input_error);
}

TEST(ReportViews, PercentOfPeakNamesTheRowsCeiling) {
  result_file f = load_results(data + "h200_default.json");
  table_options o;
  o.filter = "read_stride";
  o.rows = "stride";
  o.cols = "type";
  o.value = "pct_peak";
  EXPECT_EQ(view_table({f}, o).tables.at(0).unit, "% of theoretical DRAM peak");
  for (auto& r : f.results) r.label = "timing:events peak:pcie";
  EXPECT_EQ(view_table({f}, o).tables.at(0).unit, "% of the theoretical pcie peak");
  std::find_if(f.results.begin(), f.results.end(), [](const result& r) {
    return r.name.find("read_stride") != std::string::npos;
  })->label = "timing:blocking";
  EXPECT_EQ(view_table({f}, o).tables.at(0).unit, "% of the theoretical DRAM, pcie peak") << "mixed ceilings say so";
}

TEST(ReportViews, BuildsNeedsTwoBuildsAndRatiosThem) {
  const result_file def = load_results(data + "h200_default.json");
  const result_file cg = load_results(data + "h200_cg.json");
  EXPECT_THROW((void)view_builds({def}, {}), input_error);
  EXPECT_THROW((void)view_builds({def, def}, {}), input_error);
  const document d = view_builds({def, cg}, {.filter = "read_reuse"});
  ASSERT_EQ(d.tables.size(), 1u);
  ASSERT_EQ(d.tables[0].rows.size(), 2u);
  // 4M: 29 % apart, but the cg row did not converge: compare's test is unsure, so no colour.
  const auto& small = d.tables[0].rows[0];
  ASSERT_EQ(small.size(), 4u);
  EXPECT_LT(small[3].value, 0.95);
  EXPECT_EQ(small[3].mood, tone::plain);
  EXPECT_NE(small[3].text.find("unsure"), std::string::npos) << small[3].text;
  // 1G: the test calls it slower.
  const auto& large = d.tables[0].rows[1];
  EXPECT_LT(large[3].value, 0.95);
  EXPECT_EQ(large[3].mood, tone::bad);
}

TEST(ReportViews, GpusShowsPercentOfEachPeak) {
  const document d = view_gpus({load_results(data + "mixed_units_errors.json"), load_results(data + "h200_default.json")},
                               {});
  ASSERT_FALSE(d.tables.empty());
  EXPECT_NE(d.tables[0].header[1].find("GB/s peak"), std::string::npos);
  bool hand_made = false, h200 = false, reuse = false;
  for (const auto& t : d.tables)
    for (const auto& r : t.rows) {
      // The hand-made rows carry no pct_peak: the harness did not say they reach DRAM (a 4M
      // read sits in the L2), so none is priced against the DRAM peak.
      if (t.title == "global/read" && r[0].text == "bytes:1G") {
        EXPECT_FALSE(r[2].numeric()) << r[2].text;
        hand_made = true;
      }
      if (t.title == "global/copy" && r[0].text.find("gridstride") != std::string::npos && r[4].numeric()) {
        EXPECT_NEAR(r[4].value, 80.32, 0.01) << "3866.7 GB/s of the H200's 4814.3";
        h200 = true;
      }
      // Reads served by the caches (global/read_reuse: 245 % of DRAM) have no ceiling.
      if (t.title == "global/read_reuse") reuse = reuse || !r[4].numeric();
    }
  EXPECT_TRUE(hand_made);
  EXPECT_TRUE(h200);
  EXPECT_TRUE(reuse);
}

// Filters are matched by RE2, without recursion and in time linear in the name: std::regex
// overflowed the stack on a name of 30 000 characters (exit 139) and on 30 nested groups over
// 1 024, and on a pattern of 20 000 while compiling it, and ran for minutes on (a*)*b.
TEST(ReportViews, FiltersMatchLongNamesAndHostilePatterns) {
  const std::string long_name = "BM_x/" + std::string(30000, 'a');
  EXPECT_TRUE(name_filter("BM_.*a")(long_name));
  EXPECT_TRUE(name_filter("BM_x")(long_name));
  EXPECT_TRUE(name_filter("")(long_name)) << "no filter: nothing to match";
  const std::string nested = std::string(30, '(') + "a" + std::string(30, ')') + "*$";
  for (const std::string& pattern : {std::string("BM_.*a$"), nested, std::string("(.)*$"), std::string("(a|b)*$"),
                                     std::string("/(?:(?:(?:a)))+$")})
    EXPECT_TRUE(name_filter(pattern)(long_name)) << pattern;
  EXPECT_FALSE(name_filter("(a*)*b")(long_name)) << "no b: linear, not exponential";
  const std::string deep = std::string(20000, '(') + "a" + std::string(20000, ')');
  EXPECT_TRUE(name_filter(deep)(long_name)) << "20 000 nested groups: compiled and matched without recursion";
  EXPECT_EQ(regex_error("a(b|c)"), "");
  EXPECT_NE(regex_error("a(b|c"), "");
  EXPECT_THROW(name_filter{"read("}, input_error);
}

TEST(ReportViews, WordsKeepRegistrationOrderNumbersSortByValue) {
  // A progression reads in its own order (naive before coalesced), not alphabetically.
  const result_file f = parse_results(R"({"context": {"membench_cache_mode": "default"}, "benchmarks": [
    {"name": "compute/matmul/variant:naive/n:1024", "run_name": "compute/matmul/variant:naive/n:1024", "run_type": "iteration", "repetition_index": 0, "real_time": 9, "time_unit": "us"},
    {"name": "compute/matmul/variant:naive/n:512", "run_name": "compute/matmul/variant:naive/n:512", "run_type": "iteration", "repetition_index": 0, "real_time": 3, "time_unit": "us"},
    {"name": "compute/matmul/variant:coalesced/n:1024", "run_name": "compute/matmul/variant:coalesced/n:1024", "run_type": "iteration", "repetition_index": 0, "real_time": 2, "time_unit": "us"}]})",
                                      "progression.json");
  table_options o;
  o.rows = "variant";
  o.cols = "n";
  o.value = "time";
  const document d = view_table({f}, o);
  ASSERT_EQ(d.tables.size(), 1u);
  ASSERT_EQ(d.tables[0].rows.size(), 2u);
  EXPECT_EQ(d.tables[0].rows[0][0].text, "naive");
  EXPECT_EQ(d.tables[0].rows[1][0].text, "coalesced");
  EXPECT_NE(d.tables[0].header[1].find("512"), std::string::npos) << "n:512 before n:1024";
}

TEST(ReportViews, GpusTellsTwoGpusOfOneModelApartByBus) {
  auto file = [](const char* bus, const char* path) {
    return parse_results(fmt::format(R"({{"context": {{"gpu_name": "NVIDIA H200", "gpu_pci_bus_id": "{}",
      "membench_cache_mode": "default", "gpu_peak_dram_gbps": "4800"}},
      "benchmarks": [{{"name": "global/read/bytes:1G", "run_name": "global/read/bytes:1G", "run_type": "iteration",
      "repetition_index": 0, "real_time": 300, "time_unit": "us", "gb_per_s": 3600}}]}})",
                                     bus),
                         path);
  };
  const result_file a = file("00000000:18:00.0", "dev0.json");
  const result_file b = file("00000000:2A:00.0", "dev1.json");
  const document d = view_gpus({a, b}, {});
  ASSERT_FALSE(d.tables.empty());
  EXPECT_NE(d.tables[0].header[1].find("[00000000:18:00.0]"), std::string::npos);
  EXPECT_NE(d.tables[0].header[3].find("[00000000:2A:00.0]"), std::string::npos);
  // One GPU twice is still an error.
  EXPECT_THROW((void)view_gpus({a, file("00000000:18:00.0", "again.json")}, {}), input_error);
}

TEST(ReportRender, FormatsAreWellFormed) {
  document d;
  d.title = "t";
  d.tables.push_back({"a|b", "us", {"k", "v"}, {{{"x,y", NAN}, {"1.50", 1.5, tone::bad}}}, {}});
  EXPECT_NE(render_markdown(d).find("### a\\|b"), std::string::npos);
  EXPECT_NE(render_csv(d).find("\"x,y\",1.5"), std::string::npos);
  EXPECT_EQ(render_terminal(d, false).find('\033'), std::string::npos);
  EXPECT_NE(render_terminal(d, true).find("\033[31m"), std::string::npos);
  EXPECT_EQ(format_value(4566.4), "4566");
  EXPECT_EQ(format_value(9.344), "9.34");
  EXPECT_EQ(format_value(0.2421), "0.242");
}

// The JSON format is the document itself: every table, header and cell, numbers in full
// precision, tones where a cell is news; a value that is no number is no "value".
TEST(ReportRender, JsonIsTheDocument) {
  document d;
  d.title = "t";
  d.notes = {"input: a.json"};
  d.tables.push_back({"a|b", "us", {"k", "v"}, {{{"x,y", NAN}, {"1.50", 1.5, tone::bad}}, {{"z", NAN}, {"-", NAN}}}, {}});
  const auto j = nlohmann::json::parse(render_json(d));
  EXPECT_EQ(j.at("format"), "membench-report-document");
  EXPECT_EQ(j.at("notes").at(0), "input: a.json");
  const auto& t = j.at("tables").at(0);
  EXPECT_EQ(t.at("title"), "a|b");
  EXPECT_EQ(t.at("header"), nlohmann::json({"k", "v"}));
  EXPECT_EQ(t.at("rows").at(0).at(1).at("value"), 1.5);
  EXPECT_EQ(t.at("rows").at(0).at(1).at("tone"), "bad");
  EXPECT_FALSE(t.at("rows").at(0).at(0).contains("value"));
  EXPECT_FALSE(t.at("rows").at(1).at(1).contains("value"));
  EXPECT_EQ(render(d, format::json, false), render_json(d));
}

// --resolution is auto by default, and takes "auto" or a number.
TEST(ReportOptions, ResolutionIsAutoOrANumber) {
  EXPECT_EQ(default_text(options::resolution), "auto");
  EXPECT_EQ(values_text(options::resolution), "auto or 0 to 1000000000");
  EXPECT_EQ(value_error(options::resolution, "auto"), "");
  EXPECT_EQ(value_error(options::resolution, "0.25"), "");
  EXPECT_NE(value_error(options::resolution, "nan"), "");
  EXPECT_NE(value_error(options::threshold, "auto"), "") << "only where the table says so";
}

// The options tables are the only source of the defaults: the structs and the decision
// read theirs from the tables, and help and docs show the same.
TEST(ReportOptions, DefaultsComeFromTheTables) {
  const decide_options from_compare = compare_options{}.decide();
  const decide_options plain;
  EXPECT_EQ(from_compare.threshold, plain.threshold);
  EXPECT_EQ(from_compare.margin, plain.margin);
  EXPECT_TRUE(std::isnan(plain.resolution_us)) << "auto: what the measurement resolves";
  EXPECT_TRUE(std::isnan(from_compare.resolution_us));
  EXPECT_EQ(from_compare.clock_tolerance, plain.clock_tolerance);
  EXPECT_EQ(from_compare.run_spread, plain.run_spread);
  EXPECT_EQ(from_compare.run_spread_copy, plain.run_spread_copy);
  EXPECT_EQ(from_compare.run_spread_host, plain.run_spread_host);
  EXPECT_EQ(from_compare.run_spread_us, plain.run_spread_us);
  EXPECT_EQ(from_compare.calibration_runs, plain.calibration_runs);
  EXPECT_EQ(from_compare.confidence, plain.confidence);
  EXPECT_EQ(from_compare.seed, plain.seed);
  EXPECT_DOUBLE_EQ(plain.threshold, 0.05);
  EXPECT_EQ(compare_options{}.family, correction::bh);
  EXPECT_FALSE(compare_options{}.unsure_fails);
  EXPECT_EQ(gpus_options{}.build, "default");
  EXPECT_EQ(help_text(options::threshold), "percent change in time that counts (default 5)");
  EXPECT_EQ(help_text(options::margin),
            "percent the interval of a change must clear to call it slower or faster (default 0: it must exclude no "
            "change)");
  EXPECT_EQ(values_text(options::format), "term, md, csv, html or json");
  EXPECT_EQ(values_text(options::calibration_runs), "0 to 1000000");
  EXPECT_EQ(default_text(options::seed), "1");
}

// nan passes every range check (every comparison with it is false): a --margin=nan once
// turned a 20 % slowdown into exit 0. Every numeric option of every command refuses it.
TEST(ReportOptions, EveryValueIsCheckedByItsTable) {
  for (const command_spec& c : commands) {
    for (const option_spec* o : c.options) {
      if (!default_text(*o).empty()) {
        EXPECT_EQ(value_error(*o, default_text(*o)), "") << c.name << " " << o->names << ": its default";
      }
      if (o->kind != option_kind::number && o->kind != option_kind::integer) continue;
      for (const char* bad : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999", "", "5x", "0x"})
        EXPECT_NE(value_error(*o, bad), "") << c.name << " " << o->names << " " << bad;
      if (o->low < o->high) {
        EXPECT_NE(value_error(*o, fmt::format("{}", o->high + 1)), "") << c.name << " " << o->names;
        EXPECT_EQ(value_error(*o, fmt::format("{}", o->low)), "") << c.name << " " << o->names;
      }
    }
  }
  EXPECT_EQ(value_error(options::margin, "2.5"), "");
  EXPECT_EQ(value_error(options::margin, "nan"), "'nan' is not a finite number");
  EXPECT_EQ(value_error(options::calibration_runs, "1.5"), "'1.5' is not a whole number");
  EXPECT_EQ(value_error(options::confidence, "40"), "40 is not within 50 to 99.9999");
  EXPECT_EQ(value_error(options::format, "pdf"), "'pdf' is not term, md, csv, html or json");
  EXPECT_NE(value_error(options::filter, "*read"), "");
  EXPECT_EQ(value_error(options::filter, "read_(stride|reuse)"), "");
}

// docs/report.md's exit codes are exit_codes.hpp's table, word for word.
TEST(ReportExitCodes, TheDocsHoldTheTable) {
  std::ifstream in(MEMBENCH_REPORT_DOC, std::ios::binary);
  std::ostringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  const auto begin = text.find("<!-- exit-codes -->");
  const auto end = text.find("<!-- /exit-codes -->\n");
  ASSERT_NE(begin, std::string::npos) << "docs/report.md has no exit-codes table";
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(text.substr(begin, end + std::strlen("<!-- /exit-codes -->\n") - begin), exit_codes_markdown())
      << "docs/report.md's table differs from tools/report/core/exit_codes.hpp's; it should read:\n" << exit_codes_markdown();
  EXPECT_EQ(exit_codes_line(), "0 ok, 1 a regression, an outlier or a view that differs, 2 unusable input, a bad option or an output "
                               "not written, 3 undecided, 4 a host slow");
}

TEST(ReportOptions, EveryCommandHasItsTableInTheDocument) {
  const std::string doc = options_document();
  for (const command_spec& c : commands) {
    const std::string block = options_markdown(c);
    EXPECT_NE(doc.find(block), std::string::npos) << c.name;
    for (const option_spec* o : c.options) EXPECT_NE(block.find(fmt::format("`{}`", o->names)), std::string::npos);
  }
  EXPECT_THROW((void)command_named("nonesuch"), std::out_of_range);
}

}  // namespace
}  // namespace membench::report
