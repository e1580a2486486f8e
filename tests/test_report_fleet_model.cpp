// membench-report fleet with a model reference: a fleet too small to show where healthy chips
// of its model fall is judged against the model's reference of its stratum, so that three
// chips alike do not make a healthy fourth at the model's edge an outlier, and two slow of four
// do not hide each other; larger fleets and strata the reference lacks judge themselves, said.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fleet/fleet_stages.hpp"
#include "test_report_support.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

// A fleet state points into its files: each test keeps them alive beside it.

// One run of a GPU: rows global/<family>/n:<i> of two families, each GPU's chip `chip[row]`
// (log) apart and each run 0.1 % apart.
result_file run_of(const std::string& uuid, int run, const std::vector<double>& chip, std::mt19937_64& rng,
                   const std::string& board) {
  std::normal_distribution<double> n(0, 1);
  result_file f;
  f.path = fmt::format("{}_{}.json", uuid, run);
  f.context = {{"gpu_uuid", uuid}, {"gpu_name", "NVIDIA H100 80GB HBM3"}, {"gpu_global_mem_bytes", "85017493504"},
               {"gpu_sm_count", "132"}, {"nvml_max_sm_clock_mhz", "1980"}, {"membench_cache_mode", "default"},
               {"host_name", uuid}, {"gpu_board_part", board}, {"date", fmt::format("2026-12-07T00:00:{:02d}", run)},
               {"membench_concurrent_devices", "4"}};
  for (std::size_t r = 0; r < chip.size(); ++r) {
    result x;
    x.set_name(fmt::format("global/{}/n:{}/manual_time", r < 4 ? "a" : "b", r));
    x.time_us = 100.0 * static_cast<double>(1 + r) * std::exp(chip[r] + 0.001 * n(rng));
    x.runs.push_back(test_support::timed(x.time_us));
    f.results.push_back(std::move(x));
  }
  f.build_index();
  return f;
}

// GPUs `first`.. of 8 rows, 3 runs each; `chip(g, row)` is GPU g's offset on a row (log).
template <class Chip>
std::vector<result_file> gpus(int first, int count, Chip chip, const std::string& board = "695-2G520-0200-000") {
  std::mt19937_64 rng(5 + static_cast<unsigned>(first));
  std::vector<result_file> out;
  for (int g = first; g < first + count; ++g) {
    std::vector<double> offsets;
    for (int r = 0; r < 8; ++r) offsets.push_back(chip(g, r));
    for (int k = 0; k < 3; ++k) out.push_back(run_of(fmt::format("GPU-{:04d}", g), k, offsets, rng, board));
  }
  return out;
}

// The model: 16 healthy chips spread 3 % on row 7 (a chase whose chips differ, as the
// constant-cache chase's do), 0.3 % elsewhere.
double model_chip(int g, int r) {
  std::mt19937_64 rng(100 + static_cast<unsigned>(g) * 8 + static_cast<unsigned>(r));
  return std::normal_distribution<double>(0, r == 7 ? 0.03 : 0.003)(rng);
}

fleet_baseline model_of(const std::vector<result_file>& files) {
  fleet_options make;
  make.make_baseline = true;
  fleet_state s;
  s.fleets = group_fleets(files, false);
  for (fleet& f : s.fleets) gather_rows(f, name_filter(""), s.multi_gpu);
  decide_fleets(s, make, nullptr);
  return parse_baseline(baseline_text(s, make), "model.json");
}

fleet_state judged(const std::vector<result_file>& files, const fleet_baseline* model, int below = 8) {
  fleet_options opt;
  opt.model_below = below;
  fleet_state s;
  s.fleets = group_fleets(files, false);
  for (fleet& f : s.fleets) gather_rows(f, name_filter(""), s.multi_gpu);
  decide_fleets(s, opt, nullptr, model);
  return s;
}

ft::verdict verdict(const fleet_state& s, std::size_t g) { return s.fleets[0].results[g].of(ft::part::gpu).v; }

// Four GPUs: one healthy chip 8 % above its model's centre on row 7, three 4 % below it.
double edge_of_four(int g, int r) { return r == 7 ? (g == 100 ? std::log(1.08) : std::log(0.96)) : 0.0; }

TEST(ReportFleetModel, AHealthyChipAtItsModelsEdgeIsWithinAgainstTheModel) {
  const std::vector<result_file> model_files = gpus(0, 16, model_chip);
  const fleet_baseline model = model_of(model_files);
  const std::vector<result_file> four = gpus(100, 4, edge_of_four);
  EXPECT_EQ(verdict(judged(four, nullptr), 0), ft::verdict::slow) << "on its own the fleet calls its edge chip";
  const fleet_state s = judged(four, &model);
  EXPECT_TRUE(s.fleets[0].by_model);
  EXPECT_EQ(s.fleets[0].reference_gpus, 16);
  for (std::size_t g = 0; g < 4; ++g) EXPECT_EQ(verdict(s, g), ft::verdict::pass) << g;
}

TEST(ReportFleetModel, TwoSlowOfFourAreBothFoundAgainstTheModel) {
  const std::vector<result_file> model_files = gpus(0, 16, model_chip);
  const fleet_baseline model = model_of(model_files);
  const std::vector<result_file> four = gpus(100, 4, [](int g, int) { return g < 102 ? std::log(1.12) : 0.0; });
  const fleet_state s = judged(four, &model);
  EXPECT_EQ(verdict(s, 0), ft::verdict::slow);
  EXPECT_EQ(verdict(s, 1), ft::verdict::slow);
  EXPECT_EQ(verdict(s, 2), ft::verdict::pass);
  EXPECT_EQ(verdict(s, 3), ft::verdict::pass);
}

TEST(ReportFleetModel, LargerFleetsAndOtherStrataJudgeThemselves) {
  const std::vector<result_file> model_files = gpus(0, 16, model_chip);
  const fleet_baseline model = model_of(model_files);
  const std::vector<result_file> eight = gpus(200, 8, [](int, int) { return 0.0; });
  EXPECT_FALSE(judged(eight, &model).fleets[0].by_model);
  EXPECT_TRUE(judged(eight, &model, 9).fleets[0].by_model);
  // A model of fewer GPUs than the fleet knows less than the fleet: the fleet judges itself.
  const std::vector<result_file> few_files = gpus(400, 4, model_chip);
  const fleet_baseline few = model_of(few_files);
  const std::vector<result_file> six = gpus(500, 6, [](int, int) { return 0.0; });
  EXPECT_FALSE(judged(six, &few, 16).fleets[0].by_model);
  EXPECT_TRUE(judged(gpus(600, 3, [](int, int) { return 0.0; }), &few, 16).fleets[0].by_model);
  const std::vector<result_file> other = gpus(300, 4, [](int, int) { return 0.0; }, "692-2G520-0202-000");
  const fleet_state s = judged(other, &model);
  EXPECT_FALSE(s.fleets[0].by_model);
  const document doc = fleet_document(s, summarize_gpus(s), fleet_options{});
  EXPECT_TRUE(std::any_of(doc.notes.begin(), doc.notes.end(), [](const std::string& n) {
    return n.find("no model reference for them") != std::string::npos;
  }));
}

}  // namespace
}  // namespace membench::report
