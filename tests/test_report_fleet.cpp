// membench-report fleet: the per-GPU test on synthetic matrices (power that holds at any
// fleet size, the healthy spread between chips in the null, no masking, failures, ties),
// and on files (strata, host work apart, repeated runs, the baseline's round trip, the
// figures, the output at scale, the inputs refused).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "common/stats.hpp"
#include "fleet/fleet_stages.hpp"
#include "render/render.hpp"
#include "test_report_support.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

// --- synthetic matrices -----------------------------------------------------------------------

// `rows` GPU rows in families of four ("f0", "f1", ...) and `host` host rows; each GPU's chip
// differs by `between` (log sd) on each row, each run by `within`.
struct fleet_maker {
  std::size_t rows = 16, host = 0, runs = 4;
  double between = 0.003, within = 0.002;
  std::uint64_t seed = 7;

  ft::matrix make(std::size_t gpus) const {
    ft::matrix m;
    for (std::size_t r = 0; r < rows + host; ++r) {
      const bool is_host = r >= rows;
      m.rows.push_back({fmt::format("{}/r{}", is_host ? "host/copy" : "global/read", r),
                        is_host ? "host/copy" : fmt::format("f{}", r / 4), is_host ? ft::part::host : ft::part::gpu,
                        0.001});
    }
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> n(0, 1);
    for (std::size_t g = 0; g < gpus; ++g) {
      ft::matrix::gpu x;
      x.runs = runs;
      std::vector<double> chip(m.rows.size());
      for (double& c : chip) c = between * n(rng);
      for (std::size_t k = 0; k < runs; ++k) {
        for (std::size_t r = 0; r < m.rows.size(); ++r) x.logs.push_back(std::log(100.0 * (1 + r)) + chip[r] + within * n(rng));
      }
      m.gpus.push_back(std::move(x));
    }
    return m;
  }
};

void slow(ft::matrix& m, std::size_t gpu, double pct, const std::vector<std::size_t>& rows) {
  for (std::size_t k = 0; k < m.gpus[gpu].runs; ++k) {
    for (std::size_t r : rows) m.gpus[gpu].logs[k * m.rows.size() + r] += std::log1p(pct / 100);
  }
}

std::vector<std::size_t> range(std::size_t from, std::size_t to) {
  std::vector<std::size_t> out;
  for (std::size_t r = from; r < to; ++r) out.push_back(r);
  return out;
}

std::vector<ft::gpu_result> judged(const ft::matrix& m, const ft::settings& s = {}) {
  return ft::judge(m, ft::reference_of(m, s), s);
}

ft::verdict gpu_verdict_of(const ft::gpu_result& r) { return r.of(ft::part::gpu).v; }

// The scopes of a GPU's GPU part called slower: "all; family f1; row global/read/r9; ".
std::string called_scopes(const ft::matrix& m, const ft::gpu_result& r) {
  const std::vector<ft::scope_ref> scopes = ft::scopes_of(m.rows);
  std::string out;
  for (std::size_t i : r.of(ft::part::gpu).called) {
    const ft::scope_ref& sc = scopes[r.of(ft::part::gpu).findings[i].scope];
    out += sc.kind == ft::scope_kind::all ? "all; " : fmt::format("{} {}; ", ft::to_string(sc.kind), sc.name);
  }
  return out;
}

const ft::scope_ref& scope_named(const ft::reference& ref, ft::scope_kind k, const std::string& name) {
  for (const ft::scope_ref& s : ref.scopes) {
    if (s.kind == k && s.name == name) return s;
  }
  throw std::out_of_range(name);
}

TEST(ReportFleet, ScopesAreEveryPartEachFamilyAndEachRow) {
  fleet_maker mk;
  mk.host = 2;
  const ft::matrix m = mk.make(3);
  const std::vector<ft::scope_ref> scopes = ft::scopes_of(m.rows);
  // gpu all, host all, four families of four, 18 rows.
  ASSERT_EQ(scopes.size(), 2u + 4u + 18u);
  EXPECT_EQ(scopes[0].kind, ft::scope_kind::all);
  EXPECT_EQ(scopes[0].rows.size(), 16u);
  EXPECT_EQ(scopes[1].p, ft::part::host);
  EXPECT_EQ(scopes[2].name, "f0");
  EXPECT_EQ(scopes[2].rows, (std::vector<std::size_t>{0, 1, 2, 3}));
}

// The null a GPU is judged against is the healthy fleet's: between chips (robustly, run noise
// taken out) plus the GPU's own runs plus the centre's uncertainty.
TEST(ReportFleet, TheNullHoldsTheSpreadBetweenChipsAndTheRunNoiseApart) {
  fleet_maker mk;
  mk.between = 0.01;
  mk.within = 0.004;
  mk.runs = 6;
  const ft::matrix m = mk.make(400);
  const ft::reference ref = ft::reference_of(m, {});
  const ft::scope_ref& row = scope_named(ref, ft::scope_kind::row, "global/read/r0");
  EXPECT_NEAR(std::sqrt(row.between), 0.01, 0.0015);
  EXPECT_NEAR(std::sqrt(row.within), 0.004, 0.0006);
  EXPECT_DOUBLE_EQ(row.typical_runs, 6);
  EXPECT_EQ(row.gpus, 400);
  EXPECT_FALSE(row.split);
  // A family averages four rows: its spread between chips is half a row's.
  EXPECT_NEAR(std::sqrt(scope_named(ref, ft::scope_kind::family, "f0").between), 0.005, 0.001);
  // The centre is the median of the majority's scores; a score of six runs (20 % trimmed) varies
  // 1.1 times as much as their plain mean.
  EXPECT_NEAR(row.centre_variance(), std::acos(-1.0) / 2 * (row.between + 1.1 * row.within / 6) / row.majority, 1e-12);
  EXPECT_GE(row.majority, 390);
}

// A chip 1.5 sd of the healthy spread off is no outlier, however many runs it has: more runs
// narrow its own noise, not the spread between chips.
TEST(ReportFleet, MoreRunsDoNotTurnAHealthyChipIntoAnOutlier) {
  fleet_maker mk;
  mk.between = 0.01;
  mk.within = 0.003;
  ft::matrix m = mk.make(40);
  mk.runs = 200;
  mk.seed = 11;
  ft::matrix many = mk.make(1);
  slow(many, 0, 1.5, range(0, 16));  // every row 1.5 % (1.5 sd of the chips' spread) slower
  m.gpus.push_back(many.gpus[0]);
  const auto r = judged(m);
  EXPECT_EQ(gpu_verdict_of(r.back()), ft::verdict::pass) << r.back().of(ft::part::gpu).why.text;
}

// Power per GPU does not depend on how many other GPUs were judged: the level is per GPU.
TEST(ReportFleet, PowerDoesNotFallAsTheFleetGrows) {
  struct case_ {
    double pct;
    std::vector<std::size_t> rows;
    const char* scope;
  };
  // Every GPU row 5 % slower, one family 10 %, one row 20 %: each GPU 1 of its fleet.
  const case_ cases[] = {{5, range(0, 16), "all"}, {10, range(4, 8), "family f1"}, {20, {9}, "row global/read/r9"}};
  for (std::size_t gpus : {4, 32, 1024}) {
    for (const case_& c : cases) {
      ft::matrix m = fleet_maker{}.make(gpus);
      slow(m, 1, c.pct, c.rows);
      const auto r = judged(m);
      EXPECT_EQ(gpu_verdict_of(r[1]), ft::verdict::slow) << gpus << " " << c.scope;
      EXPECT_NE(called_scopes(m, r[1]).find(c.scope), std::string::npos) << called_scopes(m, r[1]);
      std::size_t called = 0;
      for (std::size_t g = 0; g < gpus; ++g) called += g != 1 && gpu_verdict_of(r[g]) != ft::verdict::pass;
      EXPECT_EQ(called, 0u) << gpus;
    }
  }
  EXPECT_NEAR(ft::critical_z({}, 100), standard_normal_quantile(1 - 1e-7), 1e-9);
}

// Two slow GPUs of four: no majority agrees, so no GPU passes (undecided); three slow of
// eight: the majority decides and all three are found.
TEST(ReportFleet, AMinorityOfSlowGpusIsFoundAndAnEvenSplitIsUndecided) {
  fleet_maker mk;
  ft::matrix four = mk.make(4);
  slow(four, 0, 10, range(4, 8));
  slow(four, 1, 10, range(4, 8));
  for (const ft::gpu_result& r : judged(four)) {
    EXPECT_EQ(gpu_verdict_of(r), ft::verdict::undecided);
    EXPECT_NE(r.of(ft::part::gpu).why.text.find("splits on family f1"), std::string::npos) << r.of(ft::part::gpu).why.text;
    EXPECT_EQ(r.of(ft::part::gpu).why.codes, std::vector<reason_code>{reason_code::reference_splits});
  }
  ft::matrix eight = mk.make(8);
  for (std::size_t g : {0, 1, 2}) slow(eight, g, 10, range(0, 16));
  const auto r = judged(eight);
  for (std::size_t g = 0; g < 8; ++g) EXPECT_EQ(gpu_verdict_of(r[g]), g < 3 ? ft::verdict::slow : ft::verdict::pass) << g;
}

// Rows failed count against a GPU: over the share, the part is failing (never a pass).
TEST(ReportFleet, ARowFailedCountsAgainstItsGpu) {
  fleet_maker mk;
  mk.rows = 60;
  mk.host = 2;
  ft::matrix m = mk.make(6);
  auto fail = [&](std::size_t g, std::size_t rows) {
    for (std::size_t k = 0; k < m.gpus[g].runs; ++k) {
      for (std::size_t r = 0; r < rows; ++r) m.gpus[g].logs[k * m.rows.size() + r] = NAN;
    }
  };
  fail(0, 40);
  fail(1, 12);  // exactly 20 %: still judged
  fail(2, 13);
  const auto r = judged(m);
  EXPECT_EQ(gpu_verdict_of(r[0]), ft::verdict::failing);
  EXPECT_EQ(r[0].of(ft::part::gpu).failed, 40);
  EXPECT_EQ(gpu_verdict_of(r[1]), ft::verdict::pass);
  EXPECT_EQ(gpu_verdict_of(r[2]), ft::verdict::failing);
  EXPECT_EQ(r[0].of(ft::part::host).v, ft::verdict::pass);
}

// A GPU failing its host rows still measures its GPU work: the GPU reference keeps it.
TEST(ReportFleet, AGpuFailingItsHostRowsStaysInTheGpuReference) {
  fleet_maker mk;
  mk.host = 4;
  ft::matrix m = mk.make(4);
  for (std::size_t g : {0, 1}) {
    for (std::size_t k = 0; k < m.gpus[g].runs; ++k) m.gpus[g].logs[k * m.rows.size() + 16] = NAN;
  }
  const ft::reference ref = ft::reference_of(m, {});
  EXPECT_EQ(ref.part_gpus[0], 4);
  EXPECT_EQ(ref.part_gpus[1], 2);
  const auto r = ft::judge(m, ref, {});
  EXPECT_EQ(gpu_verdict_of(r[0]), ft::verdict::pass);
  EXPECT_EQ(r[0].of(ft::part::host).v, ft::verdict::failing);
  EXPECT_EQ(r[2].of(ft::part::host).v, ft::verdict::undecided) << "two GPUs behind the host reference";
}

// Host work judges the host: a GPU whose host rows are slow has a slow host and a GPU within.
TEST(ReportFleet, HostWorkJudgesTheHostAndGpuWorkTheGpu) {
  fleet_maker mk;
  mk.host = 4;
  ft::matrix m = mk.make(8);
  slow(m, 0, 40, range(16, 20));
  const auto r = judged(m);
  EXPECT_EQ(gpu_verdict_of(r[0]), ft::verdict::pass);
  EXPECT_EQ(r[0].of(ft::part::host).v, ft::verdict::slow);
  for (std::size_t g = 1; g < 8; ++g) EXPECT_EQ(r[g].of(ft::part::host).v, ft::verdict::pass);
}

// Every GPU alike to the timer's step: no spread at all. The null is the step's and the
// numerics floor's, every number finite, and a row twice as slow is called.
TEST(ReportFleet, TiesAtTheTimerStepLeaveEveryNumberFiniteAndARowCallable) {
  fleet_maker mk;
  mk.between = 0;
  mk.within = 0;
  ft::matrix m = mk.make(3);
  slow(m, 0, 100, {5});
  const ft::reference ref = ft::reference_of(m, {});
  for (const ft::scope_ref& sc : ref.scopes) {
    EXPECT_TRUE(std::isfinite(sc.between + sc.within + sc.floor + sc.centre)) << sc.name;
    EXPECT_GT(sc.floor, 0) << sc.name;
  }
  const auto r = ft::judge(m, ref, {});
  EXPECT_EQ(gpu_verdict_of(r[0]), ft::verdict::slow);
  for (const ft::finding& f : r[0].of(ft::part::gpu).findings) EXPECT_TRUE(std::isfinite(f.z));
  EXPECT_EQ(gpu_verdict_of(r[1]), ft::verdict::pass);
}

// Against its own earlier runs a chip has no spread between chips to hide in: a family 4 %
// slower than itself is found, though 4 % is within what healthy chips differ by.
TEST(ReportFleet, AGpuIsJudgedAgainstItsOwnEarlierRuns) {
  fleet_maker mk;
  mk.between = 0.02;
  mk.within = 0.002;
  const ft::matrix then = mk.make(6);
  ft::matrix now = then;
  slow(now, 0, 6, range(4, 8));
  const ft::reference ref = ft::reference_of(now, {});
  EXPECT_EQ(gpu_verdict_of(ft::judge(now, ref, {})[0]), ft::verdict::pass) << "within the chips' spread";
  const auto d = ft::drift(then, now, ref, {});
  EXPECT_EQ(gpu_verdict_of(d[0]), ft::verdict::slow) << d[0].of(ft::part::gpu).why.text;
  for (std::size_t g = 1; g < 6; ++g) EXPECT_EQ(gpu_verdict_of(d[g]), ft::verdict::pass) << g;
  // The rows to rerun to confirm it are the family's.
  const auto rows = ft::rows_to_confirm(d[0].of(ft::part::gpu), ref, 4);
  ASSERT_EQ(rows.size(), 4u);
  for (std::size_t r : rows) EXPECT_EQ(ref.rows[r].family, "f1");
  EXPECT_EQ(confirm_filter({"global/read/type:f32/bytes:1G", "a.b+c"}), "^(global/read/type:f32/bytes:1G|a\\.b\\+c)/");
}

// One run of a row can jump by a tenth in one process: one run judges every GPU row together,
// which finds a GPU slower on all of them; families and rows need two runs, and without them a
// GPU not slow is undecided, never a pass.
TEST(ReportFleet, OneRunJudgesAllRowsTogetherOnly) {
  fleet_maker mk;
  mk.runs = 1;
  ft::matrix m = mk.make(32);
  slow(m, 0, 5, range(0, 16));
  slow(m, 1, 20, range(4, 8));
  const auto r = judged(m);
  EXPECT_EQ(gpu_verdict_of(r[0]), ft::verdict::slow);
  EXPECT_EQ(gpu_verdict_of(r[1]), ft::verdict::slow) << "a family 20 % slower moves all rows 5 %";
  EXPECT_EQ(gpu_verdict_of(r[2]), ft::verdict::undecided);
  EXPECT_NE(r[2].of(ft::part::gpu).why.text.find("need 2 runs"), std::string::npos) << r[2].of(ft::part::gpu).why.text;
  EXPECT_EQ(r[2].of(ft::part::gpu).why.codes, std::vector<reason_code>{reason_code::too_few_runs});
}

TEST(ReportFleet, FewerThanThreeGpusAreUndecided) {
  const auto r = judged(fleet_maker{}.make(2));
  for (const ft::gpu_result& x : r) EXPECT_EQ(gpu_verdict_of(x), ft::verdict::undecided);
}

// --- files ------------------------------------------------------------------------------------

using test_support::timed;

// One run (file) of a GPU: rows "global/<family>/n:<i>" at the given times.
result_file gpu_file(const std::string& uuid, const std::vector<std::pair<std::string, double>>& rows,
                     const std::string& board = "692-2G520-0282-000", int run_index = 0) {
  result_file f;
  f.path = fmt::format("{}_{}.json", uuid, run_index);
  f.context = {{"gpu_uuid", uuid},          {"gpu_name", "NVIDIA H200"},
               {"gpu_global_mem_bytes", "150109880320"}, {"gpu_sm_count", "132"},
               {"nvml_max_sm_clock_mhz", "1980"},        {"membench_cache_mode", "default"},
               {"host_name", "node"},       {"gpu_board_part", board},
               {"date", fmt::format("2026-12-01T00:00:{:02d}", run_index)},
               {"membench_concurrent_devices", "4"}};
  for (const auto& [name, us] : rows) {
    result r;
    r.set_name(name);
    r.time_us = us;
    r.runs.push_back(timed(us));
    if (name.rfind("host/", 0) == 0) r.runs.back().work = run::work_kind::host;
    f.results.push_back(std::move(r));
  }
  f.build_index();
  return f;
}

// A fleet of `gpus` GPUs with `runs` runs each: rows a/0..3, b/0..3 and one host row, the
// chips +-0.3 % apart and runs +-0.1 %; `factor(g, row)` multiplies a GPU's time.
template <class Factor>
std::vector<result_file> files_of(int gpus, int runs, Factor factor, const std::string& board = "692-2G520-0282-000") {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> n(0, 1);
  std::vector<result_file> files;
  std::vector<std::string> names;
  for (const char* fam : {"a", "b"}) {
    for (int i = 0; i < 4; ++i) names.push_back(fmt::format("global/{}/n:{}", fam, i));
  }
  names.push_back("host/copy/n:0");
  for (int g = 0; g < gpus; ++g) {
    std::vector<double> chip;
    for (std::size_t r = 0; r < names.size(); ++r) chip.push_back(0.003 * n(rng));
    for (int k = 0; k < runs; ++k) {
      std::vector<std::pair<std::string, double>> rows;
      for (std::size_t r = 0; r < names.size(); ++r)
        rows.emplace_back(names[r], 100.0 * (1 + r) * std::exp(chip[r] + 0.001 * n(rng)) * factor(g, names[r]));
      files.push_back(gpu_file(fmt::format("GPU-{:08d}", g), rows, board, k));
    }
  }
  return files;
}

double healthy(int, const std::string&) { return 1.0; }

fleet_state decided(const std::vector<result_file>& files, const fleet_options& opt = {},
                    const fleet_baseline* b = nullptr) {
  fleet_state s;
  s.fleets = group_fleets(files, opt.allow_mixed);
  for (fleet& f : s.fleets) gather_rows(f, name_filter(""), s.multi_gpu);
  decide_fleets(s, opt, b);
  return s;
}

TEST(ReportFleet, ExitCodesSayGpuHostOrUndecided) {
  EXPECT_EQ(view_fleet(files_of(5, 3, healthy), {}).exit_code(), 0);
  const auto slow_gpu = [](int g, const std::string& row) { return g == 0 && row.find("/a/") != std::string::npos ? 1.2 : 1.0; };
  const fleet_outcome gpu = view_fleet(files_of(5, 3, slow_gpu), {});
  EXPECT_EQ(gpu.outliers, 1);
  EXPECT_EQ(gpu.exit_code(), 1);
  const auto slow_host = [](int g, const std::string& row) { return g == 0 && row.rfind("host/", 0) == 0 ? 1.5 : 1.0; };
  const fleet_outcome host = view_fleet(files_of(5, 3, slow_host), {});
  EXPECT_EQ(host.outliers, 0);
  EXPECT_EQ(host.slow_hosts, 1);
  EXPECT_EQ(host.exit_code(), 4);
  EXPECT_EQ(view_fleet(files_of(2, 3, healthy), {}).exit_code(), 3);
}

// GPUs of two board parts are two strata, each judged within itself: a board part 8 % slower
// on one family makes no outlier.
TEST(ReportFleet, StrataSplitTheFleetByBoardPart) {
  auto files = files_of(4, 2, healthy);
  auto other = files_of(4, 2, [](int, const std::string& row) { return row.find("/a/") != std::string::npos ? 1.08 : 1.0; },
                        "692-2G520-0282-001");
  for (result_file& f : other) f.context["gpu_uuid"] += "-b";
  files.insert(files.end(), other.begin(), other.end());
  const fleet_state s = decided(files);
  ASSERT_EQ(s.fleets.size(), 2u);
  EXPECT_EQ(view_fleet(files, {}).exit_code(), 0);
  EXPECT_NE(stratum_text(s.fleets[1].stratum).find("-001"), std::string::npos);
}

// Runs that did not converge or were throttled are not judged; a row none of whose runs is
// left fails.
TEST(ReportFleet, UnconvergedAndThrottledRunsFailTheirRow) {
  auto files = files_of(4, 1, healthy);
  files[0].results[0].runs[0].converged = false;
  files[0].results[1].runs[0].throttle = "sw_thermal";
  const fleet_state s = decided(files);
  EXPECT_EQ(s.fleets[0].results[0].of(ft::part::gpu).failed, 2);
  EXPECT_EQ(s.fleets[0].results[1].of(ft::part::gpu).failed, 0);
}

// A baseline keeps each stratum's reference and the thresholds it was measured at: a
// newcomer is judged against it as a GPU of the fleet would be.
TEST(ReportFleet, ABaselineJudgesANewcomerAtItsOwnThresholds) {
  fleet_options make;
  make.make_baseline = true;
  make.test.row_pct = 15;
  make.test.family_pct = 20;
  const std::string text = baseline_text(decided(files_of(8, 3, healthy), make), make);
  const fleet_baseline b = parse_baseline(text, "base.json");
  EXPECT_DOUBLE_EQ(b.test.row_pct, 15);
  EXPECT_DOUBLE_EQ(b.test.family_pct, 20);
  ASSERT_EQ(b.groups.size(), 1u);
  EXPECT_EQ(b.groups[0].ref.rows.size(), 9u);
  auto newcomer = [](double factor) {
    auto f = files_of(1, 3, [factor](int, const std::string& row) { return row == "global/b/n:2" ? factor : 1.0; });
    for (result_file& x : f) x.context["gpu_uuid"] = "GPU-new";
    return f;
  };
  EXPECT_EQ(view_fleet(newcomer(1.0), {}, &b).exit_code(), 0);
  EXPECT_EQ(view_fleet(newcomer(1.3), {}, &b).exit_code(), 1);
  EXPECT_EQ(view_fleet(newcomer(1.12), {}, &b).exit_code(), 0) << "12 % is within the baseline's 15 % and 20 %";
  // A newcomer of another board part has no reference.
  auto other = newcomer(1.0);
  for (result_file& x : other) x.context["gpu_board_part"] = "692-2G520-0282-001";
  EXPECT_THROW(view_fleet(other, {}, &b), input_error);
  // Host work on another host shape than the baseline's is not judged.
  auto alone = newcomer(1.0);
  for (result_file& x : alone) x.context["membench_concurrent_devices"] = "1";
  const fleet_state s = decided(alone, {}, &b);
  EXPECT_EQ(s.fleets[0].results[0].of(ft::part::host).v, ft::verdict::not_judged);
  EXPECT_EQ(view_fleet(alone, {}, &b).exit_code(), 0);
  std::string bad = text;
  bad.replace(bad.find("\"between_sd\""), 12, "\"between_xx\"");
  EXPECT_THROW(parse_baseline(bad, "b"), input_error);
  // Counts that are no counts, a majority larger than its GPUs, a split that its counts deny.
  auto with = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  const std::string gpus = text.substr(text.find("\"gpus\": ", text.find("\"scopes\"")), 12);
  for (const std::string& value : {"1e300", "-3", "2.5", "\"8\""})
    EXPECT_THROW(parse_baseline(with(gpus.substr(0, 8), "\"gpus\": " + value + ", \"x\":"), "b"), input_error) << value;
  EXPECT_THROW(parse_baseline(with("\"majority\": 8", "\"majority\": 9"), "b"), input_error);
  EXPECT_THROW(parse_baseline(with("\"split\": false", "\"split\": true"), "b"), input_error);
}

// A reference with no GPU work vouches for nothing: refused in a baseline, undecided in a fleet.
TEST(ReportFleet, NoGpuWorkIsNeverAPass) {
  fleet_options opt;
  opt.filter = "host/";
  EXPECT_EQ(view_fleet(files_of(5, 3, healthy), opt).exit_code(), 3);
  fleet_options make;
  make.make_baseline = true;
  make.filter = "host/";
  EXPECT_THROW(parse_baseline(view_fleet(files_of(5, 3, healthy), make).baseline, "b"), input_error);
}

TEST(ReportFleet, TheReframeFormIsAReferencePerModelAndRow) {
  fleet_options make;
  make.baseline_format = "reframe";
  const auto j = nlohmann::json::parse(baseline_text(decided(files_of(6, 2, healthy)), make));
  const auto& ref = j.at("NVIDIA H200/default").at("global/a/n:0");
  ASSERT_EQ(ref.size(), 4u);
  EXPECT_NEAR(ref[0].get<double>(), 100, 1.5);
  EXPECT_LE(ref[1].get<double>(), -0.03);  // at least the all-rows threshold, beyond the spread
  EXPECT_GE(ref[2].get<double>(), 0.03);
  EXPECT_LT(ref[2].get<double>(), 0.1);
  EXPECT_EQ(ref[3], "us");
}

// Copies whose every run carries its fastest sample are judged on it: a link 10 % slower is
// found though every GPU's medians move by up to 12 % beside their neighbours.
TEST(ReportFleet, CopiesAreJudgedOnTheirFastestSample) {
  std::vector<result_file> files;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0, 0.12);
  for (int g = 0; g < 6; ++g) {
    for (int k = 0; k < 4; ++k) {
      const double fastest = (g == 2 ? 330.0 : 300.0) * (1 + 0.001 * k);
      files.push_back(gpu_file(fmt::format("GPU-{}", g), {{"host/copy/dir:h2d", fastest * (1 + u(rng))}}, "b", k));
      run& r = files.back().results[0].runs[0];
      r.work = run::work_kind::copy;
      r.fastest_us = fastest;
    }
  }
  fleet_options opt;
  opt.test.host_row_pct = 5;
  const fleet_state s = decided(files, opt);
  EXPECT_EQ(s.fleets[0].rows.at(0).fig, figure::fastest);
  for (std::size_t g = 0; g < 6; ++g)
    EXPECT_EQ(s.fleets[0].results[g].of(ft::part::host).v, g == 2 ? ft::verdict::slow : ft::verdict::pass) << g;
}

TEST(ReportFleet, ShortRowsAreTakenAtTheirBatchFigure) {
  std::vector<result_file> files;
  for (int g = 0; g < 3; ++g) {
    files.push_back(gpu_file(fmt::format("GPU-{}", g), {{"global/read/n:1", 2.9 + 0.01 * g}}));
    run& r = files.back().results[0].runs[0];
    r.batch.us = 2.8 + 0.001 * g;
    r.batch.ci_low_us = r.batch.us * 0.999;
    r.batch.ci_high_us = r.batch.us * 1.001;
    r.batch.launches = 100;
  }
  const fleet_state s = decided(files);
  EXPECT_EQ(s.fleets[0].rows.at(0).fig, figure::batch);
  EXPECT_NEAR(std::exp(s.fleets[0].runs.gpus[2].logs[0]), 2.802, 1e-9);
}

TEST(ReportFleet, RowsOfSeveralGpusAreLeftOut) {
  std::vector<result_file> files;
  for (int g = 0; g < 3; ++g) {
    files.push_back(gpu_file(fmt::format("GPU-{}", g), {{"global/read/bytes:1G", 240.0 + g},
                                                         {"peer/copy/access:on/dir:d0_d1/bytes:64M", 176.0},
                                                         {"global/p2p/src:0/dst:1/bytes:1M", 10.0}}));
  }
  const fleet_state s = decided(files);
  ASSERT_EQ(s.fleets[0].rows.size(), 1u);
  EXPECT_EQ(s.multi_gpu.size(), 2u);
}

TEST(ReportFleet, RefusesWhatItCannotJudge) {
  auto files = files_of(3, 1, healthy);
  files[1].context.erase("gpu_uuid");
  EXPECT_THROW(group_fleets(files, false), input_error);
  files[1].context["gpu_uuid"] = "GPU-1";
  files[2].context["gpu_name"] = "NVIDIA H100 80GB HBM3";
  EXPECT_THROW(group_fleets(files, false), input_error);
  EXPECT_EQ(group_fleets(files, true).size(), 2u);
  for (int version : {1, 2}) {
    EXPECT_THROW(parse_baseline(fmt::format("{{\"format\": \"membench-fleet-baseline\", \"version\": {}, \"fleets\": []}}",
                                            version),
                                "b"),
                 input_error);
  }
  EXPECT_THROW(parse_baseline("{\"NVIDIA H200/default\": {}}", "b"), input_error);
  EXPECT_THROW(parse_baseline("[1, 2", "b"), input_error);
}

// At a thousand GPUs the document is still a summary and the GPUs not passing: no table with
// a column a GPU, no line of more than a few hundred characters.
TEST(ReportFleet, TheDocumentStaysReadableAtAThousandGpus) {
  auto shape = [](const fleet_outcome& out) {
    const std::string md = render_markdown(out.doc);
    std::istringstream lines(md);
    std::size_t longest = 0, count = 0;
    for (std::string line; std::getline(lines, line); ++count) longest = std::max(longest, line.size());
    return std::tuple{md, longest, count};
  };
  auto files = files_of(1000, 2, [](int g, const std::string& row) { return g == 7 && row.find("/b/") != std::string::npos ? 1.2 : 1.0; });
  const fleet_outcome out = view_fleet(files, {});
  EXPECT_EQ(out.outliers, 1);
  const auto [md, longest, count] = shape(out);
  EXPECT_LT(longest, 2000u);
  EXPECT_LT(count, 200u);
  EXPECT_NE(md.find("GPU-00000007"), std::string::npos);
  // A thousand GPUs of one run each are all undecided: the table of those lists 200 of them.
  const fleet_outcome one = view_fleet(files_of(1000, 1, healthy), {});
  EXPECT_EQ(one.undecided, 1000);
  EXPECT_EQ(one.exit_code(), 3);
  const auto [md1, longest1, count1] = shape(one);
  EXPECT_LT(count1, 400u);
  EXPECT_NE(md1.find("the first 200 of 1000"), std::string::npos);
}

}  // namespace
}  // namespace membench::report
