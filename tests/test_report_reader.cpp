// membench-report's JSON reader: the split read (rows cut into parts over the cores and
// blocks at guessed boundaries) against the whole one, the counters a view asks for, runs
// and samples, and names of any Google Benchmark program.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "common/naming.hpp"
#include "common/version.hpp"
#include "read/reader.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

const std::string data = MEMBENCH_REPORT_DATA;  // tests/data/report/

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_same(const result_file& a, const result_file& b) {
  EXPECT_EQ(a.context, b.context);
  EXPECT_EQ(a.counter_names, b.counter_names);
  ASSERT_EQ(a.results.size(), b.results.size());
  for (std::size_t i = 0; i < a.results.size(); ++i) {
    const result &x = a.results[i], &y = b.results[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.error, y.error) << x.name;
    EXPECT_EQ(x.label, y.label) << x.name;
    EXPECT_DOUBLE_EQ(x.time_us, y.time_us) << x.name;
    EXPECT_TRUE(std::equal(x.counters.begin(), x.counters.end(), y.counters.begin(), y.counters.end())) << x.name;
    ASSERT_EQ(x.runs.size(), y.runs.size()) << x.name;
    for (std::size_t k = 0; k < x.runs.size(); ++k) {
      EXPECT_EQ(x.runs[k].samples_us, y.runs[k].samples_us) << x.name;
      EXPECT_EQ(x.runs[k].throttle, y.runs[k].throttle) << x.name;
      EXPECT_EQ(x.runs[k].converged, y.runs[k].converged) << x.name;
    }
  }
}

// How labels and messages look in a synthetic file.
enum class strings {
  plain,
  row_like,  // they hold "}, {" and row-like text, but no guessed boundary
  boundary,  // most labels end in "}, {": a boundary the split read guesses inside a string
};

// A synthetic file of `rows` rows: membench-like counters, a few repetitions with samples,
// an error row, and labels and messages as `kind` says.
std::string synthetic(int rows, strings kind) {
  const bool tricky = kind != strings::plain;
  std::string s = R"({"context": {"date": "2026-11-22T10:00:00+00:00", "membench_cache_mode": "default",
    "caches": [{"type": "Data", "level": 1}], "num_cpus": 16, "membench_ci_level_pct": "95"},
  "benchmarks": [)";
  for (int i = 0; i < rows; ++i) {
    if (i > 0) s += ",\n    ";
    const std::string name = fmt::format("global/read/width:{}/bytes:{}K/manual_time", 1 << (i % 5), i + 1);
    if (i % 997 == 500) {
      s += fmt::format(R"({{"name": "{0}", "run_name": "{0}", "run_type": "iteration", "repetitions": 1,
        "repetition_index": 0, "threads": 1, "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "us",
        "error_occurred": true, "error_message": "{1}"}})",
                       name, tricky ? R"(skipped: }, {\"name\": \"x\", \"real_time\": 1}, {\"name\": \"y\")" : "skipped: too big");
      continue;
    }
    const int reps = i % 250 == 3 ? 3 : 1;
    for (int r = 0; r < reps; ++r) {
      if (r > 0) s += ",\n    ";
      s += fmt::format(
          R"({{"name": "{0}", "family_index": {1}, "per_family_instance_index": 0, "run_name": "{0}",)"
          R"( "run_type": "iteration", "repetitions": {2}, "repetition_index": {3}, "threads": 1, "iterations": 1,)"
          R"( "real_time": {4:.17e}, "cpu_time": 1.5e+00, "time_unit": "us", "bytes": {5}, "ci_high_us": {6},)"
          R"( "ci_low_us": {7}, "converged": 1.0, "gb_per_s": {8}, "noise_pct": 0.25, "samples": 10.0, "t_min_us": {7},)"
          R"( "sm_clock_mhz": 1980.0{9}, "label": "{10}"}})",
          name, i, reps, r, 10.0 + i * 0.01 + r, (i + 1) * 1024, 10.1 + i * 0.01 + r, 9.9 + i * 0.01 + r,
          1e-3 * (i + 1),
          // Around the repetition's time, which is one of their statistics; one in exponent form.
          r == 1 ? fmt::format(R"(, "samples_us": [{0:.2f}, {0:.3e}, {1:.2f}, {2:.2f}, {0:.2f}])", 10.0 + i * 0.01 + r,
                               9.99 + i * 0.01 + r, 10.01 + i * 0.01 + r)
                 : std::string(),
          !tricky        ? "timing:blocking"
          : i % 101 == 7 ? R"(timing:blocking }, {\"name\": \"z\" throttle:sw_power_cap)"
          : kind == strings::boundary ? "timing:blocking }, {} x }, {"
                                      : "timing:blocking }, {} x");
    }
  }
  s += "\n  ]\n}\n";
  return s;
}

// The split read's default (one part of one block for small files), and several parts
// of small blocks.
const split_options small_blocks{3, 4096};

TEST(ReportReader, TheSplitReadReadsMembenchFilesAndAgreesWithTheWholeOne) {
  for (const char* file : {"h200_default.json", "h200_cg.json", "plain_gbench.json", "aggregates_only.json",
                           "mixed_units_errors.json", "samples_a.json"}) {
    const std::string text = slurp(data + file);
    for (const read_options& what : {read_options{}, compare_reads(), reads_for({})}) {
      const result_file whole = read_results(text, file, what, read_schedule::whole);
      for (const split_options& split : {split_options{}, small_blocks, split_options{2, 16}}) {
        // read_schedule::split throws if it gave up
        expect_same(whole, read_results(text, file, what, read_schedule::split, split));
      }
    }
  }
}

TEST(ReportReader, LargeFilesSplitAtRowBoundaries) {
  for (const strings kind : {strings::plain, strings::row_like}) {
    const std::string text = synthetic(6000, kind);
    ASSERT_GT(text.size(), std::size_t{2} << 20) << "large enough for several parts and blocks";
    const result_file whole = read_results(text, "big.json", compare_reads(), read_schedule::whole);
    const result_file split = read_results(text, "big.json", compare_reads(), read_schedule::split);
    expect_same(whole, split);
    expect_same(whole, read_results(text, "big.json", compare_reads(), read_schedule::split, {5, 1000}));
    ASSERT_EQ(split.results.size(), 6000u);
    const result* r = split.find("global/read/width:8/bytes:4K");
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->runs.size(), 3u) << "three repetitions";
    EXPECT_DOUBLE_EQ(r->time_us, 11.03);
    EXPECT_EQ(r->runs[1].samples_us, (std::vector<double>{11.03, 11.03, 11.02, 11.04, 11.03}));
    EXPECT_DOUBLE_EQ(r->runs[0].ci_low_us, 9.93);
    EXPECT_DOUBLE_EQ(r->runs[0].fastest_us, 9.93);
    EXPECT_DOUBLE_EQ(r->runs[0].sm_clock_mhz, 1980);
    EXPECT_TRUE(split.results[500].skipped);
    EXPECT_EQ(split.find("global/read/width:4/bytes:8K")->runs.at(0).throttle,
              kind == strings::plain ? "" : "sw_power_cap");
  }
}

TEST(ReportReader, FilesAreReadInBlocksOnEveryCore) {
  const std::string text = synthetic(6000, strings::plain);
  const std::string path = (std::filesystem::temp_directory_path() / "membench_reader_big.json").string();
  std::ofstream(path, std::ios::binary) << text;
  expect_same(read_results(text, path, {}, read_schedule::whole), load_results(path));
  std::filesystem::remove(path);
}

TEST(ReportReader, BoundariesGuessedInsideStringsGoToTheWholeRead) {
  const std::string text = synthetic(6000, strings::boundary);
  const result_file whole = read_results(text, "tricky.json", {}, read_schedule::whole);
  expect_same(whole, parse_results(text, "tricky.json"));
  // Labels ending in "}, {" hold a guessed boundary: the block cut there does not parse.
  EXPECT_THROW((void)read_results(text, "tricky.json", {}, read_schedule::split), input_error);
  EXPECT_THROW((void)read_results(text, "tricky.json", {}, read_schedule::split, small_blocks), input_error);
  const result* r = whole.find("global/read/width:4/bytes:8K");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->runs.at(0).throttle, "sw_power_cap");
}

// The split read takes the members before the benchmarks array through the parser, and
// needs the array last; anything else is read whole, to the same result.
TEST(ReportReader, DocumentsWithTheArrayElsewhereAreReadWhole) {
  const std::string rows = R"([{"name": "a/manual_time", "real_time": 2, "time_unit": "us"}])";
  for (const std::string& text : {R"({"benchmarks": )" + rows + R"(, "context": {"date": "x"}})",
                                 R"({"context": {"benchmarks": []}, "benchmarks": )" + rows + "}",
                                 R"({"context": {"note": "\"benchmarks\": ["}, "benchmarks": )" + rows + "}"}) {
    const result_file whole = read_results(text, "elsewhere.json", {}, read_schedule::whole);
    expect_same(whole, parse_results(text, "elsewhere.json"));
    ASSERT_NE(whole.find("a"), nullptr) << text;
  }
  // A second array, however its key is spelt, is a key given twice: refused by both reads.
  for (const std::string& text : {R"({"benchmarks": [{"name": "b", "real_time": 1, "time_unit": "us"}], "benchmarks": )" +
                                      rows + "}",
                                  R"({"\u0062enchmarks": [{"name": "b", "real_time": 1, "time_unit": "us"}], "benchmarks": )" +
                                      rows + "}"}) {
    EXPECT_THROW((void)read_results(text, "twice.json", {}, read_schedule::whole), input_error) << text;
    EXPECT_THROW((void)parse_results(text, "twice.json"), input_error) << text;
  }
  const std::string last = R"({"context": {"benchmarks": "none"}, "benchmarks": )" + rows + "}";
  expect_same(read_results(last, "last.json", {}, read_schedule::whole),
              read_results(last, "last.json", {}, read_schedule::split, {2, 16}));
}

TEST(ReportReader, ErrorsAfterTheFirstPartNameTheirRow) {
  std::string text = synthetic(6000, strings::plain);
  const auto at = text.find("\"family_index\": 4000,");
  ASSERT_NE(at, std::string::npos);
  std::size_t row = 0;  // its index in the benchmarks array (repetitions are rows too)
  for (auto p = text.find("{\"name\"", 0); p < at; p = text.find("{\"name\"", p + 1)) ++row;
  --row;
  const auto time = text.find("\"real_time\": ", at);
  text.replace(time, std::string_view("\"real_time\": ").size(), R"("real_time": "slow", "x": )");
  try {
    (void)parse_results(text, "late.json");
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("late.json: benchmarks[{}]: real_time missing or not a number", row)),
              std::string::npos)
        << e.what();
  }
}

// A member given twice leaves the row's meaning open: both reads refuse it, the whole one
// naming the row and the key.
TEST(ReportReader, ARowGivingAMemberTwiceIsBadInput) {
  const std::string good = synthetic(6000, strings::plain);
  for (const auto& [member, twice] :
       std::vector<std::pair<std::string, std::string>>{{"\"repetition_index\": 0,", "\"repetition_index\": 2, "},
                                                        {"\"iterations\": ", "\"iterations\": 7, "},
                                                        {"\"run_type\": ", "\"run_type\": \"aggregate\", "}}) {
    std::string text = good;
    const auto at = text.find("\"family_index\": 4000,");
    ASSERT_NE(at, std::string::npos);
    const auto m = text.find(member, at);
    ASSERT_NE(m, std::string::npos) << member;
    text.insert(m, twice);
    for (const read_options& what : {read_options{}, compare_reads()}) {
      EXPECT_THROW((void)read_results(text, "twice.json", what, read_schedule::split), input_error) << member;
      try {
        (void)read_results(text, "twice.json", what, read_schedule::whole);
        FAIL() << "expected an input_error for " << member;
      } catch (const input_error& e) {
        const std::string key = member.substr(1, member.find('"', 1) - 1);
        EXPECT_NE(std::string(e.what()).find(fmt::format("member \"{}\" given twice", key)), std::string::npos)
            << e.what();
      }
    }
  }
  // The same key escaped is the same key.
  std::string text = good;
  const auto at = text.find("\"family_index\": 4000,");
  text.insert(at, R"("\u0066amily_index": 4000, )");
  EXPECT_THROW((void)read_results(text, "escaped.json", {}, read_schedule::split), input_error);
  EXPECT_THROW((void)read_results(text, "escaped.json", {}, read_schedule::whole), input_error);
}

// The message of the input_error that reading `text` throws, both schedules agreeing that
// it is bad input; "" when it reads.
std::string read_error(const std::string& text, const read_options& what = compare_reads()) {
  EXPECT_THROW((void)read_results(text, "bad.json", what, read_schedule::split), input_error);
  try {
    (void)read_results(text, "bad.json", what, read_schedule::whole);
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}

std::string one_row(const std::string& members) {
  return fmt::format(R"({{"context": {{}}, "benchmarks": [{{"name": "a", "run_type": "iteration", {}}}]}})", members);
}

// A sample of 0, below 0 or absurdly long once turned a doubling into "unsure" (exit 0):
// every sample read is a time, as real_time is.
TEST(ReportReader, SamplesAndTimesAreRangeChecked) {
  const std::string time = R"("real_time": 2, "time_unit": "us")";
  for (const char* sample : {"0", "-1", "-0.0", "1e308", "1.5e12"}) {
    const std::string text = one_row(fmt::format(R"({}, "samples_us": [2, {}, 2])", time, sample));
    EXPECT_NE(read_error(text).find("samples_us[1]: "), std::string::npos) << sample << ": " << read_error(text);
    read_options no_evidence;
    no_evidence.evidence = false;
    EXPECT_NO_THROW((void)parse_results(text, "unread.json", no_evidence)) << "samples a view does not read";
  }
  EXPECT_NO_THROW((void)parse_results(one_row(fmt::format(R"({}, "samples_us": [2, 1e-3, 9e11])", time)), "ok.json"));
  EXPECT_NE(read_error(one_row(R"("real_time": 1e308, "time_unit": "us")")).find("real_time"), std::string::npos);
  EXPECT_NE(read_error(one_row(R"("real_time": 2e9, "time_unit": "s")")).find("real_time"), std::string::npos);
  EXPECT_NO_THROW((void)parse_results(one_row(R"("real_time": 0, "time_unit": "ns")"), "zero.json"));
}

// A short row's batch figure, the timer's floor and the measured timer step reach the
// runs compare decides on, whatever the view reads of the counters.
TEST(ReportReader, TheBatchFigureAndTheTimersFloorAreRead) {
  const std::string text = R"({"context": {"membench_timer_resolution_us": "0.032"}, "benchmarks": [
    {"name": "a", "run_type": "iteration", "real_time": 2.9, "time_unit": "us", "label": "work:kernel floor:timer",
     "batch_us": 2.94, "batch_ci_low_us": 2.93, "batch_ci_high_us": 2.95, "batch_samples": 21,
     "batch_noise_pct": 0.4, "batch_sm_clock_mhz": 1975, "batch_launches": 64, "batch_samples_us": [2.9, 2.94, 3]}]})";
  const result_file f = parse_results(text, "batch.json", compare_reads());
  EXPECT_DOUBLE_EQ(f.timer_resolution_us(), 0.032);
  ASSERT_EQ(f.results.at(0).runs.size(), 1u);
  const run& r = f.results[0].runs[0];
  EXPECT_TRUE(r.at_timer_floor);
  EXPECT_DOUBLE_EQ(r.batch.us, 2.94);
  EXPECT_DOUBLE_EQ(r.batch.ci_low_us, 2.93);
  EXPECT_DOUBLE_EQ(r.batch.ci_high_us, 2.95);
  EXPECT_DOUBLE_EQ(r.batch.samples, 21);
  EXPECT_DOUBLE_EQ(r.batch.noise_pct, 0.4);
  EXPECT_DOUBLE_EQ(r.batch.sm_clock_mhz, 1975);
  EXPECT_DOUBLE_EQ(r.batch.launches, 64);
  EXPECT_EQ(r.batch.samples_us, (std::vector<double>{2.9, 2.94, 3}));
  EXPECT_TRUE(r.samples_us.empty()) << "the row's own samples are another array";
  const result_file old = parse_results(one_row(R"("real_time": 2, "time_unit": "us", "batch_us": 1.9)"), "old.json");
  EXPECT_TRUE(std::isnan(old.timer_resolution_us()));
  EXPECT_TRUE(std::isnan(old.results[0].runs[0].batch.ci_low_us));
  EXPECT_FALSE(old.results[0].runs[0].at_timer_floor);
  const std::string bad = one_row(R"("real_time": 2, "time_unit": "us", "samples_us": [2, 2], "batch_samples_us": [2, 0])");
  EXPECT_NE(read_error(bad).find("batch_samples_us[1]: "), std::string::npos) << read_error(bad);
}

// RapidJSON checks the grammar; what it leaves to the reader is checked there: strings are
// UTF-8 (a \u escape may decode to a lone surrogate), numbers within a double's range, and
// nothing after the document (a NUL byte ends RapidJSON's input as its end does).
TEST(ReportReader, WhatTheParserLeavesOpenIsCheckedByTheReader) {
  const std::string time = R"("real_time": 2, "time_unit": "us")";
  for (const std::string& text :
       {one_row(fmt::format(R"({}, "label": "a\xff")", time)), one_row(fmt::format(R"({}, "label": "\udc00")", time)),
        one_row(fmt::format(R"({}, "\xc0\xaf": 1)", time)), one_row(fmt::format(R"({}, "gb_per_s": 1e400)", time)),
        one_row(fmt::format(R"({}, "gb_per_s": 10e308)", time)), one_row(time) + std::string(1, '\0') + "{}",
        std::string(R"({"context": {"x": "\ud800"}, "benchmarks": []})")}) {
    EXPECT_NE(read_error(text, {}).find("bad.json: not valid JSON (truncated or malformed?): line 1, column "),
              std::string::npos)
        << text << "\n" << read_error(text, {});
  }
  const result_file f = parse_results("\xEF\xBB\xBF" + one_row(fmt::format(
      R"({}, "label": "\ud83d\ude00 \u00e9", "gb_per_s": 1e-400, "tiny": 4.9e-324, "huge": 18446744073709551616,
          "repetitions": 18446744073709551615)", time)), "ok.json");
  const result& r = f.results.at(0);
  EXPECT_EQ(r.label, "\xF0\x9F\x98\x80 \xC3\xA9") << "a surrogate pair and an escape decoded; a byte order mark skipped";
  EXPECT_EQ(*r.counters.find("gb_per_s"), 0.0) << "below a double's range: 0, as strtod reads it";
  EXPECT_EQ(*r.counters.find("tiny"), 4.9e-324);
  EXPECT_EQ(*r.counters.find("huge"), 18446744073709551616.0) << "an integer past 64 bits is a double";
  EXPECT_NE(read_error(one_row(R"("real_time": 2, "time_unit": "us", "repetition_index": 1.0)")).find("not an integer"),
            std::string::npos)
      << "1.0 is a number with a fraction, not an integer";
  const std::string late = "{\"context\": {},\n \"benchmarks\": [\n  {\"name\": \"a\" \"real_time\": 2}]}";
  EXPECT_NE(read_error(late, {}).find("line 3, column 16: "), std::string::npos) << read_error(late, {});
}

// The parser keeps its own stack (iterative parsing): any nesting reads without a deep
// call stack.
TEST(ReportReader, AnyNestingReads) {
  const std::size_t depth = 200000;
  const std::string nested = std::string(depth, '[') + std::string(depth, ']');
  const result_file f =
      parse_results(fmt::format(R"({{"context": {{"deep": {}}}, "benchmarks": [{{"name": "a", "real_time": 2,
                                "time_unit": "us", "extra": {}}}]}})",
                                nested, nested),
                    "deep.json");
  EXPECT_EQ(f.context.at("deep"), nested);
  EXPECT_EQ(f.results.size(), 1u);
}

// A second "benchmarks" once added its rows, a second "context" replaced the first: a key
// given twice is refused in every object, as it is in a row.
TEST(ReportReader, AKeyGivenTwiceIsBadInputAtEveryLevel) {
  const std::string row = R"({"name": "a", "run_type": "iteration", "real_time": 2, "time_unit": "us"})";
  const std::string rows = fmt::format(R"([{}])", row);
  for (const auto& [text, twice] : std::vector<std::pair<std::string, std::string>>{
           {fmt::format(R"({{"context": {{}}, "benchmarks": {}, "benchmarks": {}}})", rows, rows),
            "\"benchmarks\" given twice"},
           {fmt::format(R"({{"context": {{}}, "context": {{}}, "benchmarks": {}}})", rows), "\"context\" given twice"},
           {fmt::format(R"({{"context": {{"date": "a", "date": "b"}}, "benchmarks": {}}})", rows),
            "context: \"date\" given twice"},
           {fmt::format(R"({{"context": {{"caches": [{{"size": 1, "size": 2}}]}}, "benchmarks": {}}})", rows),
            "\"size\" given twice in an object"},
           {fmt::format(R"({{"context": {{}}, "benchmarks": {}, "extra": {{"x": 1, "\u0078": 2}}}})", rows),
            "\"x\" given twice in an object"},
       }) {
    EXPECT_NE(read_error(text, {}).find(twice), std::string::npos) << text << "\n" << read_error(text, {});
  }
  EXPECT_NO_THROW((void)parse_results(
      fmt::format(R"({{"context": {{"caches": [{{"size": 1}}, {{"size": 2}}]}}, "benchmarks": {}}})", rows), "ok.json"))
      << "the same key in two objects";
}

// /dev/zero was read whole (4 GB) before a byte was looked at; a FIFO without a writer
// blocked in open() for ever.
TEST(ReportReader, InputsThatAreNoRegularFileAreReadWithALimit) {
  try {
    (void)load_results("/dev/zero");
    FAIL() << "/dev/zero read";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file, and longer than the 512 MiB"), std::string::npos)
        << e.what();
  }
  const auto fifo = std::filesystem::temp_directory_path() / fmt::format("membench_report_fifo_{}", ::getpid());
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW((void)load_results(fifo.string()), input_error) << "no writer: empty, not a wait";
  std::filesystem::remove(fifo);
  EXPECT_THROW((void)load_results(data), input_error) << "a folder";
}

TEST(ReportReader, KeepsOnlyTheCountersAViewAsksForButNamesThemAll) {
  read_options what;
  what.all_counters = false;
  what.counters = {"gb_per_s"};
  what.evidence = false;
  const result_file f = load_results(data + "h200_default.json", what);
  const result& r = f.results.at(0);
  EXPECT_NE(r.counters.find("gb_per_s"), nullptr);
  EXPECT_EQ(r.counters.find("noise_pct"), nullptr);
  EXPECT_TRUE(r.runs.empty()) << "no evidence asked for";
  EXPECT_TRUE(std::binary_search(f.counter_names.begin(), f.counter_names.end(), std::string_view("noise_pct")));
  EXPECT_FALSE(std::binary_search(f.counter_names.begin(), f.counter_names.end(), std::string_view("iterations")))
      << "Google Benchmark's own fields are not counters";
  const result_file all = load_results(data + "h200_default.json");
  EXPECT_EQ(all.counter_names, f.counter_names);
  ASSERT_EQ(all.results.at(0).runs.size(), 1u);
  EXPECT_DOUBLE_EQ(all.results[0].runs[0].noise_pct, *all.results[0].counters.find("noise_pct"));
}

TEST(ReportReader, ReadsTheStateAVerdictWeighs) {
  const result_file f = parse_results(R"({"context": {}, "benchmarks": [
    {"name": "a", "run_type": "iteration", "repetition_index": 0, "real_time": 2, "time_unit": "ms",
     "converged": 0, "sm_clock_mhz": 1655, "label": "timing:blocking throttle:sw_power_cap unconverged:budget",
     "samples_us": [2000, 2001.5, 1999]},
    {"name": "b", "run_type": "iteration", "repetition_index": 0, "real_time": 2, "time_unit": "us",
     "converged": 1, "label": "timing:events unconverged:throttled"}]})",
                                      "state.json");
  const run& a = f.results.at(0).runs.at(0);
  EXPECT_DOUBLE_EQ(a.time_us, 2000);
  EXPECT_EQ(a.throttle, "sw_power_cap");
  EXPECT_FALSE(a.converged);
  EXPECT_DOUBLE_EQ(a.sm_clock_mhz, 1655);
  EXPECT_EQ(a.samples_us, (std::vector<double>{2000, 2001.5, 1999})) << "samples are microseconds whatever the unit";
  EXPECT_FALSE(f.results.at(1).runs.at(0).converged) << "the label says so";
}

TEST(ReportNames, AnyGoogleBenchmarkName) {
  bench_name n = parse_any_name("BM_x/1024/8/manual_time");
  EXPECT_EQ(n.space, "");
  EXPECT_EQ(n.experiment, "BM_x");
  EXPECT_EQ(n.params, (std::vector<name_param>{{"arg0", "1024"}, {"arg1", "8"}}));
  n = parse_any_name("BM_sort/size:1024/reversed:0");
  EXPECT_EQ(n.params, (std::vector<name_param>{{"size", "1024"}, {"reversed", "0"}}));
  n = parse_any_name("BM_accumulate/100000/repeats:3");
  EXPECT_EQ(n.params, (std::vector<name_param>{{"arg0", "100000"}, {"repeats", "3"}}));
  EXPECT_EQ(parse_any_name("BM_plain").experiment, "BM_plain");
  EXPECT_EQ(parse_any_name("global/read_offset/type:f32/offset:4/l2:cold/bytes:1G/manual_time"),
            parse_name("global/read_offset/type:f32/offset:4/l2:cold/bytes:1G")) << "membench names as before";
  EXPECT_EQ(parse_any_name("global/read/nokey:4").experiment, "global") << "not a membench key: another program's name";
}

TEST(ReportNames, AResultsKeysAreViewsOfItsName) {
  result r;
  r.set_name("BM_x/1024/l2:2/8");
  EXPECT_EQ(r.experiment(), "BM_x");
  ASSERT_EQ(r.param_count(), 3u);
  EXPECT_EQ(r.param_key(0), "arg0");
  EXPECT_EQ(r.param_value(0), "1024");
  EXPECT_EQ(r.param_key(1), "l2");
  EXPECT_EQ(r.param_value(1), "2");
  EXPECT_EQ(r.param_key(2), "arg1");
  EXPECT_EQ(r.param("arg1"), "8");
  const result copy = r;  // offsets, not pointers: a copy reads its own name
  r.set_name("other/thing");
  EXPECT_EQ(copy.param("l2"), "2");
}

// A one-row file whose context says `version` (nullopt: no membench_format_version key).
std::string file_of_format(std::optional<std::string_view> version) {
  const std::string key = version ? fmt::format(R"("membench_format_version": "{}", )", *version) : "";
  return fmt::format(R"({{"context": {{{}"membench_cache_mode": "default"}}, "benchmarks": [
    {{"name": "global/read/bytes:1M/manual_time", "run_type": "iteration", "iterations": 1,
      "real_time": 2.5, "cpu_time": 2.5, "time_unit": "us"}}]}})",
                     key);
}

TEST(ReportReader, ReadsFilesOfItsFormatAndOlderOnes) {
  const std::string same = format_version();
  const std::string newer_minor = fmt::format("{}.{}", format_major, format_minor + 1);
  for (const auto how : {read_schedule::whole, read_schedule::split}) {
    for (const std::optional<std::string_view> v : {std::optional<std::string_view>(), std::optional<std::string_view>(same),
                                                    std::optional<std::string_view>(newer_minor)}) {
      const result_file f = read_results(file_of_format(v), "f.json", {}, how);
      EXPECT_EQ(f.results.size(), 1u) << v.value_or("(absent)");
    }
  }
}

TEST(ReportReader, RefusesANewerMajorFormatNamingTheFileAndBothVersions) {
  const std::string newer = fmt::format("{}.0", format_major + 1);
  for (const auto how : {read_schedule::whole, read_schedule::split}) {
    try {
      (void)read_results(file_of_format(newer), "runs/new.json", {}, how);
      ADD_FAILURE() << "a newer major format was read";
    } catch (const input_error& e) {
      const std::string want =
          fmt::format("runs/new.json: membench_format_version {} is newer than this membench-report {} reads "
                      "(format {}, any {}.x)",
                      newer, project_version(), format_version(), format_major);
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  }
  // Its rows need not parse: the version is the reason given.
  std::string broken = file_of_format(newer);
  broken.replace(broken.find("\"real_time\": 2.5"), 17, "\"real_time\": [1]");
  EXPECT_THROW(
      {
        try {
          (void)read_results(broken, "new.json", {}, read_schedule::automatic);
        } catch (const input_error& e) {
          EXPECT_NE(std::string(e.what()).find("membench_format_version"), std::string::npos) << e.what();
          throw;
        }
      },
      input_error);
}

TEST(ReportReader, RefusesAFormatVersionThatIsNotMajorMinor) {
  for (const std::string_view bad : {"1", "one.zero", "1.0.0", "-1.0", ""})
    EXPECT_THROW((void)parse_results(file_of_format(bad), "f.json"), input_error) << bad;
}

TEST(ReportReader, FormatVersionsParse) {
  const auto v = parse_format_version("12.3");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->major, 12);
  EXPECT_EQ(v->minor, 3);
  EXPECT_FALSE(parse_format_version("1."));
  EXPECT_FALSE(parse_format_version(".1"));
  EXPECT_EQ(format_version(), fmt::format("{}.{}", format_major, format_minor));
}

}  // namespace
}  // namespace membench::report
