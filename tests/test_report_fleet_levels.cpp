// membench-report fleet --by=level, the node check's verdicts: the level rows grouped by level
// and the rest left out, a line per GPU and level, a lost level failing its GPU, a reference
// too thin on a scope not judging it, and baselines that hold only strata enough to judge.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/levels.hpp"
#include "fleet/fleet_stages.hpp"
#include "test_report_support.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

// A fleet_state points into its files: every test keeps them alive beside it.

// The single-GPU level rows (peer rows involve two GPUs), and one row of no level.
std::vector<std::string> check_rows() {
  std::vector<std::string> out;
  for (const levels::level_row& r : levels::rows()) {
    if (!r.row.starts_with("peer/")) out.emplace_back(r.row);
  }
  out.emplace_back("global/read_offset/type:f32/offset:1/l2:cold/bytes:1G");
  return out;
}

// One run of a GPU: each row at 100 us x (1 + its index), the chip and the run a little apart;
// `keep(row)` false leaves a row out, `factor(row)` slows it.
template <class Keep, class Factor>
result_file check_file(const std::string& uuid, int run, const std::string& board, std::mt19937_64& rng, Keep keep,
                       Factor factor) {
  std::normal_distribution<double> n(0, 1);
  result_file f;
  f.path = fmt::format("{}_{}.json", uuid, run);
  f.context = {{"gpu_uuid", uuid}, {"gpu_name", "NVIDIA H100 80GB HBM3"}, {"gpu_global_mem_bytes", "85017493504"},
               {"gpu_sm_count", "132"}, {"nvml_max_sm_clock_mhz", "1980"}, {"membench_cache_mode", "default"},
               {"host_name", uuid}, {"gpu_board_part", board}, {"date", fmt::format("2026-12-07T00:00:{:02d}", run)},
               {"membench_concurrent_devices", "1"}, {"membench_host_link", "alone"}};
  const std::vector<std::string> rows = check_rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!keep(rows[i])) continue;
    result r;
    r.set_name(rows[i] + "/manual_time");
    r.time_us = 100.0 * static_cast<double>(1 + i) * std::exp(0.002 * n(rng)) * factor(rows[i]);
    r.runs.push_back(test_support::timed(r.time_us));
    if (rows[i].starts_with("host/")) r.runs.back().work = run::work_kind::copy;
    f.results.push_back(std::move(r));
  }
  f.build_index();
  return f;
}

bool every_row(const std::string&) { return true; }
double as_is(const std::string&) { return 1.0; }

// `gpus` GPUs of one board part, `runs` runs each, made by check_file.
template <class Keep = bool (*)(const std::string&), class Factor = double (*)(const std::string&)>
std::vector<result_file> check_files(int gpus, int runs, const std::string& board = "692-2G520-0200-000",
                                     Keep keep = every_row, Factor factor = as_is, int first = 0) {
  std::mt19937_64 rng(11 + static_cast<unsigned>(first));
  std::vector<result_file> out;
  for (int g = first; g < first + gpus; ++g) {
    for (int k = 0; k < runs; ++k) out.push_back(check_file(fmt::format("GPU-{:04d}", g), k, board, rng, keep, factor));
  }
  return out;
}

fleet_state by_level(const std::vector<result_file>& files, const fleet_baseline* b = nullptr) {
  fleet_options opt;
  opt.by = "level";
  fleet_state s;
  s.fleets = group_fleets(files, false);
  for (fleet& f : s.fleets) gather_rows(f, name_filter(""), s.multi_gpu, &s.no_level);
  decide_fleets(s, opt, b);
  return s;
}

bool is_l2_far(const std::string& row) {
  const levels::level_row* r = levels::row_of(row);
  return r != nullptr && r->level == "l2_far";
}

TEST(ReportFleetLevels, LevelRowsAreGroupedByLevelAndTheRestLeftOut) {
  const std::vector<result_file> files = check_files(5, 3);
  const fleet_state s = by_level(files);
  ASSERT_EQ(s.no_level.size(), 1u);
  EXPECT_EQ(s.no_level.front(), "global/read_offset/type:f32/offset:1/l2:cold/bytes:1G/manual_time");
  const ft::reference& ref = s.fleets[0].ref;
  EXPECT_TRUE(grouped_by_level(ref));
  const auto family = [&](const std::string& name) {
    return std::any_of(ref.scopes.begin(), ref.scopes.end(),
                       [&](const ft::scope_ref& sc) { return sc.kind == ft::scope_kind::family && sc.name == name; });
  };
  EXPECT_TRUE(family("level DRAM"));
  EXPECT_TRUE(family("level L2 far"));
  EXPECT_FALSE(family("global/latency"));
  EXPECT_EQ(ft::describe(ref.scopes[std::find_if(ref.scopes.begin(), ref.scopes.end(), [](const ft::scope_ref& sc) {
                                        return sc.name == "level DRAM";
                                      }) - ref.scopes.begin()]),
            "level DRAM");
}

TEST(ReportFleetLevels, ALineForEveryGpuAndLevel) {
  const std::vector<result_file> files = check_files(4, 3);
  const fleet_state s = by_level(files);
  const table t = level_table(s, summarize_gpus(s));
  // Every single-GPU level: L1, shared, L2 near and far, DRAM, constant, DSM, SM clock, PCIe both ways.
  EXPECT_EQ(t.rows.size(), 4u * 10u);
  for (const auto& line : t.rows) EXPECT_EQ(line[4].text, "within") << line[0].text << " " << line[2].text;
}

TEST(ReportFleetLevels, TheJsonHoldsARecordPerGpuAndLevel) {
  const std::vector<result_file> files = check_files(4, 3);
  const fleet_state s = by_level(files);
  fleet_options opt;
  opt.by = "level";
  const nlohmann::json j = nlohmann::json::parse(fleet_json(s, summarize_gpus(s), opt));
  ASSERT_TRUE(j.contains("levels"));
  EXPECT_EQ(j["levels"].size(), 4u * 10u);
  const nlohmann::json& first = j["levels"][0];
  EXPECT_EQ(first["level"], "L1");
  EXPECT_EQ(first["level_key"], "l1");
  EXPECT_EQ(first["verdict"], "within");
  EXPECT_TRUE(first["uuid"].is_string());
  // A fraction, as every deviation of the document (0.05: 5 % slower), and the table's cell in percent.
  ASSERT_TRUE(first["deviation"].is_number());
  EXPECT_LT(std::abs(first["deviation"].get<double>()), 0.5);
  EXPECT_TRUE(first["reasons"].is_array());
  EXPECT_TRUE(first["message"].is_string());
  const table t = level_table(s, summarize_gpus(s));
  EXPECT_EQ(t.header, (std::vector<std::string>{"GPU", "host", "level", "part", "verdict", "deviation", "z", "rows"}));
  EXPECT_NEAR(t.rows[0][5].value, 100 * first["deviation"].get<double>(), 1e-9);
}

TEST(ReportFleetLevels, ALevelWithoutTimeFailsItsGpu) {
  std::vector<result_file> files = check_files(5, 3);
  const std::vector<result_file> lost = check_files(1, 3, "692-2G520-0200-000", [](const std::string& r) { return !is_l2_far(r); }, as_is, 5);
  files.insert(files.end(), lost.begin(), lost.end());
  const fleet_state s = by_level(files);
  const ft::part_result& p = s.fleets[0].results.back().of(ft::part::gpu);
  // Two rows of seventeen: under the failed share, yet a level the check did not measure.
  EXPECT_EQ(p.failed, 2);
  EXPECT_EQ(p.v, ft::verdict::failing);
  EXPECT_NE(p.why.text.find("level L2 far"), std::string::npos) << p.why.text;
  EXPECT_EQ(p.why.codes, std::vector<reason_code>{reason_code::level_lost});
  for (std::size_t g = 0; g + 1 < s.fleets[0].results.size(); ++g)
    EXPECT_EQ(s.fleets[0].results[g].of(ft::part::gpu).v, ft::verdict::pass);
}

TEST(ReportFleetLevels, AScopeOfTooFewReferenceGpusIsNotJudged) {
  // Five GPUs; the L2 far rows measured by two of them only: no spread to judge a third by.
  std::vector<result_file> files = check_files(2, 3);
  const std::vector<result_file> rest = check_files(3, 3, "692-2G520-0200-000", [](const std::string& r) { return !is_l2_far(r); }, as_is, 2);
  files.insert(files.end(), rest.begin(), rest.end());
  fleet_options make;
  make.by = "level";
  make.make_baseline = true;
  fleet_state s = by_level(files);
  const fleet_baseline b = parse_baseline(baseline_text(s, make), "base.json");
  const std::vector<result_file> slow_far =
      check_files(1, 3, "692-2G520-0200-000", every_row, [](const std::string& r) { return is_l2_far(r) ? 1.5 : 1.0; }, 9);
  const fleet_state judged = by_level(slow_far, &b);
  const ft::part_result& p = judged.fleets[0].results[0].of(ft::part::gpu);
  EXPECT_GE(p.unjudged, 1);
  for (std::size_t i : p.called) {
    EXPECT_EQ(judged.fleets[0].ref.scopes[p.findings[i].scope].name.find("L2 far"), std::string::npos);
  }
}

TEST(ReportFleetLevels, ABaselineHoldsOnlyStrataEnoughToJudge) {
  std::vector<result_file> files = check_files(4, 2, "692-2G520-0200-000");
  const std::vector<result_file> few = check_files(2, 2, "692-2G520-0202-000", every_row, as_is, 4);
  files.insert(files.end(), few.begin(), few.end());
  fleet_options make;
  make.by = "level";
  make.make_baseline = true;
  make.allow_mixed = true;
  fleet_state s;
  s.fleets = group_fleets(files, true);
  for (fleet& f : s.fleets) gather_rows(f, name_filter(""), s.multi_gpu, &s.no_level);
  decide_fleets(s, make, nullptr);
  const fleet_baseline b = parse_baseline(baseline_text(s, make), "base.json");
  ASSERT_EQ(b.groups.size(), 1u);
  const document doc = fleet_document(s, summarize_gpus(s), make);
  EXPECT_TRUE(std::any_of(doc.notes.begin(), doc.notes.end(), [](const std::string& n) {
    return n.find("not in the baseline written") != std::string::npos && n.find("0202-000") != std::string::npos;
  }));
  fleet_state thin;
  thin.fleets = group_fleets(few, false);
  for (fleet& f : thin.fleets) gather_rows(f, name_filter(""), thin.multi_gpu, &thin.no_level);
  decide_fleets(thin, make, nullptr);
  EXPECT_THROW(baseline_text(thin, make), input_error);
}

TEST(ReportFleetLevels, ALevelTheReferenceLacksIsSaid) {
  fleet_options make;
  make.by = "level";
  make.make_baseline = true;
  const std::vector<result_file> files =
      check_files(4, 3, "692-2G520-0200-000", [](const std::string& r) { return !is_l2_far(r); });
  const fleet_baseline b = parse_baseline(baseline_text(by_level(files), make), "base.json");
  const std::vector<result_file> newcomer = check_files(1, 3, "692-2G520-0200-000", every_row, as_is, 7);
  const fleet_state judged = by_level(newcomer, &b);
  const table t = level_table(judged, summarize_gpus(judged));
  const auto far = std::find_if(t.rows.begin(), t.rows.end(), [](const auto& line) { return line[2].text == "L2 far"; });
  ASSERT_NE(far, t.rows.end());
  EXPECT_EQ((*far)[4].text, "not in the reference");
}

}  // namespace
}  // namespace membench::report
