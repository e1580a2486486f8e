// membench-report fleet on synthetic fleets: the centre and spread of a row, the interval of
// a GPU's deviation, the family correction over every GPU's rows, the GPU verdict, the
// baseline's round trip, and the inputs refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/stats.hpp"
#include "fleet_stages.hpp"
#include "intervals.hpp"
#include "test_report_support.hpp"

namespace membench::report {
namespace {

// A deterministic factor within +-`amount` (relative), fixed by the two keys.
double jitter(std::uint64_t a, std::uint64_t b, double amount) {
  std::uint64_t z = a * 0x9e3779b97f4a7c15ULL + b + 0x632be59bd9b4e019ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  const double u = static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1p-53;
  return 1 + amount * (2 * u - 1);
}

// One run of a row: its median and an interval of +-`ci` (relative) about it.
run timed(double us, double ci) {
  run r;
  r.time_us = us;
  r.ci_low_us = us * (1 - ci);
  r.ci_high_us = us * (1 + ci);
  r.sm_clock_mhz = 1980;
  return r;
}

// A file of one GPU: rows "global/<family>/n:<i>" at the given times, each a run of +-0.1 %.
result_file gpu_file(const std::string& uuid, const std::vector<std::pair<std::string, double>>& rows,
                     const std::string& model = "NVIDIA H200") {
  result_file f;
  f.path = uuid + ".json";
  f.context = {{"gpu_uuid", uuid},       {"gpu_name", model},      {"gpu_global_mem_bytes", "150109880320"},
               {"gpu_sm_count", "132"}, {"nvml_max_sm_clock_mhz", "1980"}, {"membench_cache_mode", "default"},
               {"host_name", "node"}};
  for (const auto& [name, us] : rows) {
    result r;
    r.set_name(name);
    r.time_us = us;
    r.runs.push_back(timed(us, 0.001));
    f.results.push_back(std::move(r));
  }
  f.build_index();
  return f;
}

// A fleet of `gpus` GPUs, `per_family` rows in each of the families a and b, every GPU
// within +-0.2 % of 100 us; `slow(g, family, i)` multiplies a row's time.
template <class Slow>
std::vector<result_file> synthetic_fleet(int gpus, int per_family, Slow slow) {
  std::vector<result_file> files;
  for (int g = 0; g < gpus; ++g) {
    std::vector<std::pair<std::string, double>> rows;
    for (const char* fam : {"a", "b"}) {
      for (int i = 0; i < per_family; ++i) {
        const double us = 100 * (1 + i) * jitter(static_cast<std::uint64_t>(g), static_cast<std::uint64_t>(100 * fam[0] + i), 0.002);
        rows.emplace_back(fmt::format("global/{}/n:{}", fam, i), us * slow(g, std::string(fam), i));
      }
    }
    files.push_back(gpu_file(fmt::format("GPU-{:08d}-0000", g), rows));
  }
  return files;
}

fleet_state decided(const std::vector<result_file>& files, const fleet_options& opt, const fleet_baseline* b = nullptr) {
  fleet_state s;
  s.fleets = group_fleets(files, opt.allow_mixed);
  for (fleet& f : s.fleets) gather_rows(f, name_filter(""), s.multi_gpu, opt.calibration_runs);
  decide_fleets(s, opt, b);
  return s;
}

using test_support::many;

TEST(ReportFleet, TheCentreIsTheMedianOfTheGpusMediansAndTheSpreadTheirMad) {
  const std::vector<run> a{timed(100, 0.001)}, b{timed(101, 0.001), timed(101.5, 0.001)}, c{timed(103, 0.001)},
      d{timed(150, 0.001)};
  fleet_row r;
  r.sides = {many(a), many(b), many(c), many(d)};
  const row_centre ctr = centre_of(r);
  const double b_median = (101 + 101.5) / 2;  // a GPU of two runs: their median
  const double centre = std::exp((std::log(b_median) + std::log(103)) / 2);    // median of four: the middle two's mean
  EXPECT_EQ(ctr.gpus, 4);
  EXPECT_NEAR(ctr.centre_us, centre, 1e-9);
  std::vector<double> dev;
  for (double t : {100.0, b_median, 103.0, 150.0}) dev.push_back(std::abs(std::log(t / centre)));
  EXPECT_NEAR(ctr.spread, 1.4826 * median_of(dev), 1e-12);  // the 150 us GPU does not move it
  EXPECT_LT(ctr.spread, 0.03);
  EXPECT_NEAR(ctr.variance(), std::acos(-1.0) / 2 * ctr.spread * ctr.spread / 4, 1e-15);
  // The run-to-run spread is pooled over the GPUs with two runs (here one: one degree of freedom).
  const double half = std::log(101.5 / 101) / 2;
  EXPECT_DOUBLE_EQ(ctr.run_df, 1);
  EXPECT_NEAR(ctr.run_variance, 2 * half * half, 1e-15);
}

row_centre centre_of(double us, double spread, int gpus) {
  row_centre c;
  c.centre_us = us;
  c.spread = spread;
  c.gpus = gpus;
  return c;
}

// The half-width judge_gpu gives a GPU's log deviation: its run's 95 % interval of +-`own_pct`
// as a standard error plus `floor` (relative, one sd), and the centre's pi/2 s^2 / n on n - 1
// degrees of freedom, Welch-combined.
double expected_half_width(double own_pct, double floor, double spread, int gpus) {
  const double own_se = (std::log1p(own_pct) - std::log1p(-own_pct)) / (2 * standard_normal_quantile(0.975));
  const double own = own_se * own_se + floor * floor, centre = std::acos(-1.0) / 2 * spread * spread / gpus;
  const double df = (own + centre) * (own + centre) / (centre * centre / (gpus - 1));
  return student_t_quantile(0.975, df) * std::sqrt(own + centre);
}

TEST(ReportFleet, TheDeviationsIntervalCarriesTheGpusOwnSpreadAndTheCentres) {
  const std::vector<run> mine{timed(106, 0.004)};
  row_centre c = centre_of(100, 0.01, 5);
  fleet_options opt;
  const decide_options o = opt.decide();
  const decision d = judge_gpu(many(mine), c, o);
  // Own: the run's interval as a standard error plus the kernel floor (0.5 % and 0.1 us of the
  // centre's 100 us in quadrature); the centre: pi/2 s^2 / 5 on 4 df.
  const double half = expected_half_width(0.004, std::hypot(0.005, 0.001), 0.01, 5);
  EXPECT_NEAR(d.change, 0.06, 1e-12);
  EXPECT_NEAR(d.low, std::expm1(std::log(1.06) - half), 1e-12);
  EXPECT_NEAR(d.high, std::expm1(std::log(1.06) + half), 1e-12);
  EXPECT_EQ(d.from, evidence::intervals);
  EXPECT_EQ(d.v, verdict::slower) << d.reason;
  // The same GPU 4 % slower: beyond the threshold (3 %), its interval not clear of it.
  const std::vector<run> less{timed(104, 0.004)};
  const decision u = judge_gpu(many(less), c, o);
  EXPECT_EQ(u.v, verdict::unsure);
  EXPECT_EQ(u.reason, "too noisy");
  const std::vector<run> near{timed(102, 0.004)};
  EXPECT_EQ(judge_gpu(many(near), c, o).v, verdict::same);
  // A fleet that spreads five times as much cannot tell 6 % from its spread.
  c.spread = 0.05;
  EXPECT_EQ(judge_gpu(many(mine), c, o).v, verdict::unsure);
}

// --run-spread-us as compare has it: 0.1 us added in quadrature to the percent floor, at the
// centre's time. A 3 us row 10 % slower on tight intervals is slower without it; with it, the
// process-to-process jitter of 0.1 us (3.3 % of the row) is in the interval.
TEST(ReportFleet, TheAbsoluteRunFloorIsAddedInQuadratureAtTheCentresTime) {
  const std::vector<run> mine{timed(3.3, 0.004)};
  const row_centre c = centre_of(3, 0.002, 6);
  fleet_options opt;
  opt.test.resolution_us = 0.05;
  EXPECT_DOUBLE_EQ(opt.decide().run_spread_us, 0.1) << "compare's default, from the options table";
  auto expected = [](double floor) { return expected_half_width(0.004, floor, 0.002, 6); };
  const decision with = judge_gpu(many(mine), c, opt.decide());
  const double half = expected(std::hypot(0.005, 0.1 / 3));
  EXPECT_NEAR(with.low, std::expm1(std::log(1.1) - half), 1e-12);
  EXPECT_NEAR(with.high, std::expm1(std::log(1.1) + half), 1e-12);
  EXPECT_EQ(with.v, verdict::unsure) << "its interval reaches below +3 %";
  opt.test.run_spread_us = 0;
  const decision without = judge_gpu(many(mine), c, opt.decide());
  EXPECT_NEAR(without.low, std::expm1(std::log(1.1) - expected(0.005)), 1e-12);
  EXPECT_EQ(without.v, verdict::slower) << without.reason;
  // On a 100 us row the same 0.1 us is 0.1 %: next to the 0.5 % floor, nearly nothing.
  opt.test.run_spread_us = 0.1;
  EXPECT_NEAR(opt.decide().run_spread_at(run::work_kind::kernel, 100), std::hypot(0.005, 0.001), 1e-15);
}

// Eight runs of a GPU measure a row's run-to-run spread (pooled over the fleet's runs): it
// replaces the floor assumed for the row's work, 15 % for host work, which no 10 % change
// of a host row clears. Fewer runs, or --calibration-runs 0, keep the floor.
TEST(ReportFleet, ManyRunsOfAGpuAreJudgedByTheMeasuredRunSpreadInsteadOfTheFloor) {
  std::vector<run> mine;
  for (int k = 0; k < 8; ++k) {
    mine.push_back(timed(110 * jitter(7, static_cast<std::uint64_t>(k), 0.01), 0.001));
    mine.back().work = run::work_kind::host;
  }
  row_centre c = centre_of(100, 0.01, 8);
  c.run_variance = c.trimmed_variance = 0.01 * 0.01;  // 1 % a run, as the fleet's runs spread
  c.run_df = 56;
  c.trimmed_df = 40;
  fleet_options opt;
  ASSERT_EQ(opt.calibration_runs, 8);
  const decision d = judge_gpu(many(mine), c, opt.decide(), opt.calibration_runs);
  EXPECT_EQ(d.from, evidence::runs);
  EXPECT_EQ(d.v, verdict::slower) << d.reason;
  // The GPU's time: the exp of the 20 % trimmed mean of its runs' logs (one of eight off each
  // end). Its variance: the pooled winsorized variance over the six runs kept (Yuen), on the
  // pool's 40 df; the centre's pi/2 s^2 / 8 on 7 df; Welch-combined.
  const detail::trimmed t = detail::trimmed_logs(many(mine));
  ASSERT_EQ(t.h, 6u);
  EXPECT_NEAR(d.new_us, std::exp(t.centre), 1e-9);
  const double own = 0.01 * 0.01 / 6, centre = std::acos(-1.0) / 2 * 0.01 * 0.01 / 8;
  const double df = (own + centre) * (own + centre) / (own * own / 40 + centre * centre / 7);
  const double half = student_t_quantile(0.975, df) * std::sqrt(own + centre);
  EXPECT_NEAR(d.low, std::expm1(std::log(d.new_us / 100) - half), 1e-12);
  EXPECT_NEAR(d.high, std::expm1(std::log(d.new_us / 100) + half), 1e-12);
  // Seven runs: the host floor, and a 10 % change of a host row is unsure.
  const std::vector<run> seven(mine.begin(), mine.begin() + 7);
  const decision few = judge_gpu(many(seven), c, opt.decide(), opt.calibration_runs);
  EXPECT_EQ(few.from, evidence::intervals);
  EXPECT_EQ(few.v, verdict::unsure);
  EXPECT_EQ(judge_gpu(many(mine), c, opt.decide(), 0).v, verdict::unsure) << "--calibration-runs 0";
}

// A run that did not converge is left out of a GPU's few runs, and kept among eight or more,
// whose measured spread carries it; a GPU whose every run of a row did not converge is left
// out as unconverged.
TEST(ReportFleet, UnconvergedRunsCountOnlyAmongAGpusMeasuredRuns) {
  std::vector<result_file> files;
  for (int k = 0; k < 8; ++k) {
    files.push_back(gpu_file("GPU-many", {{"global/read/n:1", 100}}));
    files.back().results[0].runs[0].converged = k >= 2;
  }
  for (int k = 0; k < 3; ++k) {
    files.push_back(gpu_file("GPU-few", {{"global/read/n:1", 100}}));
    files.back().results[0].runs[0].converged = false;
  }
  auto gathered = [&](int calibration_runs) {
    std::vector<std::string> multi;
    std::vector<fleet> fleets = group_fleets(files, false);
    gather_rows(fleets.at(0), name_filter(""), multi, calibration_runs);
    return fleets;
  };
  const std::vector<fleet> measured = gathered(8);
  EXPECT_EQ(measured[0].rows.at(0).sides.at(0).runs.size(), 8u);
  EXPECT_EQ(measured[0].rows[0].why.at(1), left_out::unconverged);
  const std::vector<fleet> never = gathered(0);
  EXPECT_EQ(never[0].rows.at(0).sides.at(0).runs.size(), 6u);
  EXPECT_EQ(never[0].rows[0].why.at(1), left_out::unconverged);
}

TEST(ReportFleet, EveryGpusRowsAreOneFamily) {
  // Six GPUs of 25 + 25 rows; GPU 0's first row 4.5 % slower: alone beyond +3 %, not as one of 300.
  const auto files = synthetic_fleet(6, 25, [](int g, const std::string& fam, int i) {
    return g == 0 && fam == "a" && i == 0 ? 1.045 : 1.0;
  });
  fleet_options alone;
  alone.test.family = correction::none;
  const fleet_state none = decided(files, alone);
  const fleet_state bh = decided(files, fleet_options{});
  ASSERT_EQ(bh.rows.size(), 300u);
  EXPECT_EQ(none.rows[0].d.v, verdict::slower) << none.rows[0].d.reason;
  EXPECT_EQ(bh.rows[0].d.v, verdict::unsure);
  EXPECT_NE(bh.rows[0].d.reason.find("slower alone, not as one of 300 compared"), std::string::npos) << bh.rows[0].d.reason;
  EXPECT_EQ(bh.fam.compared, 300u);
  EXPECT_EQ(bh.fam.demoted, 1u);
}

// The verdict of each GPU, by its UUID's number.
std::vector<gpu_verdict> verdicts(const std::vector<result_file>& files, const fleet_options& opt = {}) {
  const fleet_state s = decided(files, opt);
  const std::vector<gpu_summary> gpus = summarize_gpus(s, opt);
  std::vector<gpu_verdict> out(gpus.size());
  for (const gpu_summary& g : gpus) out[g.gpu] = g.v;
  return out;
}

TEST(ReportFleet, AnOutlierHasAShareOfItsRowsOrAFamilySlower) {
  // GPU 1: one row 5 % slower (beyond 3 %, not 7.5 %: within); GPU 2: family a (20 of 40
  // rows); GPU 3: the first two rows of each family 6 % slower, 4 of 40 (10 %: the share
  // rule, no family half slower, no row beyond 7.5 %).
  const auto files = synthetic_fleet(7, 20, [](int g, const std::string& fam, int i) {
    if (g == 1 && fam == "a" && i == 3) return 1.05;
    if (g == 2 && fam == "a") return 1.10;
    if (g == 3 && i < 2) return 1.06;
    return 1.0;
  });
  const fleet_state s = decided(files, fleet_options{});
  EXPECT_EQ(s.rows[7 * 3 + 1].d.v, verdict::slower);  // GPU 1's row a/n:3 is called ...
  EXPECT_EQ(s.rows[7 * 3 + 1].one_row, verdict::same);  // ... but is not far enough off alone
  const auto v = verdicts(files);
  EXPECT_EQ(v[0], gpu_verdict::within);
  EXPECT_EQ(v[1], gpu_verdict::within);
  EXPECT_EQ(v[2], gpu_verdict::outlier);
  EXPECT_EQ(v[3], gpu_verdict::outlier);
  // Four rows slower of forty is under a 20 % share: GPU 3 is within.
  fleet_options strict;
  strict.outlier_share_pct = 20;
  EXPECT_EQ(verdicts(files, strict)[3], gpu_verdict::within);
}

TEST(ReportFleet, OneRowFarSlowerMakesAnOutlier) {
  // A family of one row (shared/b), 10 % slower on GPU 4 of six; everything else the same.
  std::vector<result_file> files;
  for (int g = 0; g < 6; ++g) {
    std::vector<std::pair<std::string, double>> rows;
    for (int i = 0; i < 40; ++i) rows.emplace_back(fmt::format("global/a/n:{}", i), 100 * jitter(g, i, 0.002));
    rows.emplace_back("shared/b/n:0", 50 * jitter(g, 99, 0.002) * (g == 4 ? 1.10 : 1));
    files.push_back(gpu_file(fmt::format("GPU-{:08d}-0000", g), rows));
  }
  const fleet_state s = decided(files, fleet_options{});
  EXPECT_EQ(s.one_row_fam.kept, 1u);
  const auto gpus = summarize_gpus(s, fleet_options{});
  ASSERT_EQ(gpus.front().gpu, 4u);
  EXPECT_EQ(gpus.front().v, gpu_verdict::outlier);
  EXPECT_EQ(gpus.front().one_row_slower, 1);
  EXPECT_EQ(gpus.front().reason.rfind("shared/b/n:0 +9.9 % [", 0), 0u) << gpus.front().reason;  // +10 % of a jittered centre
  EXPECT_NE(gpus.front().reason.find(" beyond +7.5 %"), std::string::npos) << gpus.front().reason;
  for (std::size_t k = 1; k < gpus.size(); ++k) EXPECT_EQ(gpus[k].v, gpu_verdict::within);
  // Against a one-row threshold of 12 %, the same row is only one slower row of 41: within.
  fleet_options lax;
  lax.one_row_threshold_pct = 12;
  EXPECT_EQ(verdicts(files, lax)[4], gpu_verdict::within);
}

TEST(ReportFleet, HealthyNoiseIsNotFlagged) {
  // Eight GPUs of 60 rows whose runs and GPUs differ as healthy H100s' kernel rows do (each
  // GPU's two runs within +-0.5 % of its time, the GPUs within +-1 % of each other), and one
  // row on which two GPUs really differ as chips do, +5 % and -4 %: no outlier, nothing
  // called at the one-row threshold.
  std::vector<result_file> files;
  for (int g = 0; g < 8; ++g) {
    for (int k = 0; k < 2; ++k) {
      std::vector<std::pair<std::string, double>> rows;
      for (int i = 0; i < 60; ++i) {
        const double chip = i == 7 && g == 2 ? 1.05 : i == 7 && g == 5 ? 0.96 : jitter(g, i, 0.01);
        rows.emplace_back(fmt::format("global/{}/n:{}", static_cast<char>('a' + i % 6), i),
                          (100 + i) * chip * jitter(1000 + 10 * g + k, i, 0.005));
      }
      files.push_back(gpu_file(fmt::format("GPU-{:08d}-0000", g), rows));
      files.back().path = fmt::format("gpu{}_{}.json", g, k);
    }
  }
  const fleet_state s = decided(files, fleet_options{});
  EXPECT_EQ(s.one_row_fam.kept, 0u);
  for (const gpu_summary& g : summarize_gpus(s, fleet_options{})) EXPECT_EQ(g.v, gpu_verdict::within) << g.reason;
}

TEST(ReportFleet, AGpuFarOffDoesNotWidenItsOwnInterval) {
  // The spread a GPU is judged by is the other GPUs': one GPU 10 % off among five within
  // +-0.2 % sees their spread, not the one its own 10 % makes.
  const std::vector<run> a{timed(100, 0.001)}, b{timed(100.2, 0.001)}, c{timed(99.8, 0.001)}, d{timed(100.1, 0.001)},
      slow{timed(110, 0.001)};
  fleet_row r;
  r.sides = {many(a), many(b), many(c), many(d), many(slow)};
  const row_centre all = centre_of(r);
  const row_centre mine = centre_for(all, r, 4);
  EXPECT_EQ(mine.centre_us, all.centre_us);
  std::vector<double> dev;
  for (double t : {100.0, 100.2, 99.8, 100.1}) dev.push_back(std::abs(std::log(t / all.centre_us)));
  EXPECT_NEAR(mine.spread, 1.4826 * median_of(dev), 1e-12);
  EXPECT_LE(mine.spread, all.spread);
  // Fewer than three GPUs: the centre as it is.
  fleet_row two;
  two.sides = {many(a), many(slow)};
  const row_centre pair = centre_of(two);
  EXPECT_EQ(centre_for(pair, two, 1).spread, pair.spread);
}

TEST(ReportFleet, AFamilyOfTwoRowsBothSlowerMakesAnOutlier) {
  std::vector<result_file> files;
  for (int g = 0; g < 5; ++g) {
    std::vector<std::pair<std::string, double>> rows;
    for (int i = 0; i < 30; ++i) rows.emplace_back(fmt::format("global/a/n:{}", i), 100 * jitter(g, i, 0.002));
    for (int i = 0; i < 2; ++i) rows.emplace_back(fmt::format("shared/b/n:{}", i), 50 * jitter(g, 50 + i, 0.002) * (g == 4 ? 1.1 : 1));
    files.push_back(gpu_file(fmt::format("GPU-{:08d}-0000", g), rows));
  }
  const fleet_state s = decided(files, fleet_options{});
  const auto gpus = summarize_gpus(s, fleet_options{});
  ASSERT_EQ(gpus.front().gpu, 4u);  // worst first
  EXPECT_EQ(gpus.front().v, gpu_verdict::outlier);
  EXPECT_EQ(gpus.front().reason, "shared/b: 2 of 2 rows slower");
  const std::string worst = worst_families(gpus.front(), 3);
  EXPECT_EQ(worst.rfind("shared/b +", 0), 0u) << worst;
  EXPECT_NE(worst.find(" % (2/2 slower)"), std::string::npos) << worst;
}

TEST(ReportFleet, WhatSetsTheOutliersApartIsTheFieldNoOutlierSharesWithTheOthers) {
  // GPUs 4 and 5 of eight: another board revision, family a 10 % slower; every GPU on host
  // "node"; the VBIOS of GPU 5 is also one GPU 0 has; GPU 6 (within) has no driver version;
  // GPU 5's idle link had trained down when one of its runs started.
  auto files = synthetic_fleet(8, 10, [](int g, const std::string& fam, int) { return g >= 4 && g < 6 && fam == "a" ? 1.1 : 1.0; });
  for (int g = 0; g < 8; ++g) {
    files[g].context["gpu_board_part"] = g >= 4 && g < 6 ? "692-2G520-0282-001" : "692-2G520-0282-000";
    files[g].context["gpu_vbios"] = g == 5 || g == 0 ? "96.00.A5.00.1A" : "96.00.A5.00.1B";
    if (g != 6) files[g].context["nvml_driver_version"] = g >= 4 && g < 6 ? "580.1" : "580.2";
    files[g].context["pcie_link"] = fmt::format("gen5 x16, 63.0 GB/s per direction (nvml maximum; now gen{} x16)", g == 5 ? 1 : 5);
  }
  const fleet_state s = decided(files, fleet_options{});
  const auto gpus = summarize_gpus(s, fleet_options{});
  for (const gpu_summary& g : gpus)
    EXPECT_EQ(g.v, g.gpu == 4 || g.gpu == 5 ? gpu_verdict::outlier : gpu_verdict::within) << g.gpu;
  const std::vector<apart_field> apart = outliers_apart(s, gpus, 0);
  ASSERT_EQ(apart.size(), 1u);  // not the VBIOS (shared), the driver (unknown on one), the link, the host
  EXPECT_EQ(apart[0].key, "gpu_board_part");
  EXPECT_EQ(apart[0].outliers, std::vector<std::string>{"692-2G520-0282-001"});
  EXPECT_EQ(apart[0].within, std::vector<std::string>{"692-2G520-0282-000"});
  EXPECT_EQ(apart_text(apart), "gpu_board_part (692-2G520-0282-001 against 692-2G520-0282-000)");
  const document doc = fleet_document(s, gpus, fleet_options{});
  EXPECT_TRUE(std::any_of(doc.notes.begin(), doc.notes.end(), [](const std::string& n) {
    return n.rfind("outliers apart: ", 0) == 0 && n.find("gpu_board_part (692-2G520-0282-001 against") != std::string::npos;
  }));
  EXPECT_NE(fleet_json(s, gpus, fleet_options{}).find("\"outliers_apart\": [\n        {\n          \"key\": \"gpu_board_part\""),
            std::string::npos);
  // A healthy fleet has no outlier to set apart.
  const auto healthy = synthetic_fleet(8, 10, [](int, const std::string&, int) { return 1.0; });
  const fleet_state h = decided(healthy, fleet_options{});
  EXPECT_TRUE(outliers_apart(h, summarize_gpus(h, fleet_options{}), 0).empty());
}

TEST(ReportFleet, HostRowsRunAnotherWayIsNamedAsWhatSetsOutliersApart) {
  // GPUs 6 and 7 of eight ran their host/ rows beside their neighbours, the others alone.
  auto files = synthetic_fleet(8, 10, [](int g, const std::string& fam, int) { return g >= 6 && fam == "b" ? 1.1 : 1.0; });
  for (int g = 0; g < 8; ++g) files[g].context["membench_host_link"] = g >= 6 ? "together" : "alone";
  const fleet_state s = decided(files, fleet_options{});
  const auto gpus = summarize_gpus(s, fleet_options{});
  const std::vector<apart_field> apart = outliers_apart(s, gpus, 0);
  ASSERT_EQ(apart.size(), 1u);
  EXPECT_EQ(apart_text(apart), "membench_host_link (together against alone)");
}

TEST(ReportFleet, TwoGpusOfOneSlowerHostAreSetApartByItsBootIdAndCpu) {
  // Eight GPUs of four VMs all called `vm`, two a host: the host of GPUs 2 and 3 is slower on
  // family b, and its CPU another model.
  auto files = synthetic_fleet(8, 10, [](int g, const std::string& fam, int) { return g / 2 == 1 && fam == "b" ? 1.1 : 1.0; });
  for (int g = 0; g < 8; ++g) {
    files[g].context["host_name"] = "vm";
    files[g].context["host_boot_id"] = fmt::format("boot-{}", g / 2);
    files[g].context["host_cpu_model"] = g / 2 == 1 ? "CPU B" : "CPU A";
  }
  const fleet_state s = decided(files, fleet_options{});
  const auto gpus = summarize_gpus(s, fleet_options{});
  EXPECT_EQ(apart_text(outliers_apart(s, gpus, 0)), "host_boot_id (boot-1 against boot-0, boot-2, boot-3); "
                                                    "host_cpu_model (CPU B against CPU A)");
}

// Eight runs a GPU of four host-work rows (host/copy) and four kernel rows (global/read),
// each run within +-1 %; `slow(g, host)` multiplies GPU g's rows of host work or of kernel work.
template <class Slow>
std::vector<result_file> host_and_kernel_fleet(int gpus, Slow slow) {
  std::vector<result_file> files;
  for (int g = 0; g < gpus; ++g) {
    for (int k = 0; k < 8; ++k) {
      std::vector<std::pair<std::string, double>> rows;
      for (int i = 0; i < 4; ++i) {
        const auto draw = static_cast<std::uint64_t>(10 * k + i);
        rows.emplace_back(fmt::format("host/copy/n:{}", i), 100 * slow(g, true) * jitter(g, draw, 0.01));
        rows.emplace_back(fmt::format("global/read/n:{}", i), 100 * slow(g, false) * jitter(g, draw + 5, 0.01));
      }
      files.push_back(gpu_file(fmt::format("GPU-{:08d}-0000", g), rows));
      for (result& r : files.back().results) {
        if (r.name.rfind("host/", 0) == 0) r.runs[0].work = run::work_kind::host;
      }
    }
  }
  return files;
}

TEST(ReportFleet, AnOutlierSlowerOnlyInHostWorkIsSaidToPerhapsBeItsHost) {
  // Of seven GPUs, GPU 2 is 20 % slower on its host-work rows only, GPU 4 on its kernel rows,
  // GPU 6 on both.
  const auto files = host_and_kernel_fleet(7, [](int g, bool host) {
    return (g == 2 && host) || (g == 4 && !host) || g == 6 ? 1.2 : 1.0;
  });
  const fleet_state s = decided(files, fleet_options{});
  const auto gpus = summarize_gpus(s, fleet_options{});
  for (const gpu_summary& g : gpus) {
    const bool slowed = g.gpu == 2 || g.gpu == 4 || g.gpu == 6;
    const bool host_note = g.reason.find("every row called slower is host work") != std::string::npos;
    EXPECT_EQ(g.v, slowed ? gpu_verdict::outlier : gpu_verdict::within) << g.gpu;
    EXPECT_EQ(host_note, g.gpu == 2) << g.gpu << ": " << g.reason;
    EXPECT_EQ(g.called_slower, g.gpu == 6 ? 8 : slowed ? 4 : 0) << g.gpu;
    EXPECT_EQ(g.called_slower_host_work, g.gpu == 2 || g.gpu == 6 ? 4 : 0) << g.gpu;
  }
  EXPECT_NE(fleet_json(s, gpus, fleet_options{}).find("\"called_slower_host_work\": 4"), std::string::npos);
}

TEST(ReportFleet, ABaselineKeepsItsGpusIdentityToSetANewcomerApart) {
  auto healthy = synthetic_fleet(5, 10, [](int, const std::string&, int) { return 1.0; });
  for (int g = 0; g < 5; ++g) {
    healthy[g].context["gpu_board_part"] = "692-2G520-0282-000";
    healthy[g].context["gpu_vbios"] = "96.00.A5.00.1A";
    healthy[g].context["host_boot_id"] = fmt::format("boot-{}", g);
  }
  fleet_options make;
  make.make_baseline = true;
  const std::string text = baseline_text(decided(healthy, make), make);
  const fleet_baseline b = parse_baseline(text, "base.json");
  const fleet_identity_values kept{{"gpu_board_part", {"692-2G520-0282-000"}}, {"gpu_vbios", {"96.00.A5.00.1A"}}};
  EXPECT_EQ(b.groups[0].identity, kept) << "every GPU's board part and VBIOS; not a field that names a host";
  // A newcomer of another board part, 8 % slower: an outlier, set apart by its board part.
  auto slow = synthetic_fleet(1, 10, [](int, const std::string&, int) { return 1.08; });
  slow[0].context["gpu_board_part"] = "692-2G520-0282-001";
  slow[0].context["gpu_vbios"] = "96.00.A5.00.1A";
  slow[0].context["host_boot_id"] = "boot-new";
  const fleet_outcome judged = view_fleet(slow, fleet_options{}, &b);
  ASSERT_EQ(judged.outliers, 1);
  EXPECT_TRUE(std::any_of(judged.doc.notes.begin(), judged.doc.notes.end(), [](const std::string& n) {
    return n.find("outliers apart: ") == 0 &&
           n.find("gpu_board_part (692-2G520-0282-001 against 692-2G520-0282-000)") != std::string::npos &&
           n.find("gpu_vbios") == std::string::npos && n.find("host_boot_id") == std::string::npos;
  }));
  // Two newcomers of a VBIOS the baseline lacks, the slow one of another board part too: the
  // one fit to join shares the VBIOS, so only the board part sets the outlier apart.
  auto fine = synthetic_fleet(1, 10, [](int, const std::string&, int) { return 1.0; });
  fine[0].context["gpu_uuid"] = "GPU-fine";
  fine[0].context["gpu_board_part"] = "692-2G520-0282-000";
  for (auto* f : {&slow[0], &fine[0]}) f->context["gpu_vbios"] = "96.00.A5.00.1B";
  const fleet_outcome two = view_fleet({slow[0], fine[0]}, fleet_options{}, &b);
  ASSERT_EQ(two.outliers, 1);
  EXPECT_TRUE(std::any_of(two.doc.notes.begin(), two.doc.notes.end(), [](const std::string& n) {
    return n.find("outliers apart: ") == 0 && n.find("gpu_board_part (692-2G520-0282-001 against 692-2G520-0282-000)") != std::string::npos &&
           n.find("gpu_vbios") == std::string::npos;
  }));
  // A baseline written before it kept an identity is read, and sets nothing apart.
  nlohmann::json old = nlohmann::json::parse(text);
  old["fleets"][0].erase("identity");
  const fleet_baseline without = parse_baseline(old.dump(), "old.json");
  EXPECT_TRUE(without.groups[0].identity.empty());
  const fleet_outcome judged_old = view_fleet(slow, fleet_options{}, &without);
  EXPECT_EQ(judged_old.outliers, 1);
  EXPECT_TRUE(std::none_of(judged_old.doc.notes.begin(), judged_old.doc.notes.end(),
                           [](const std::string& n) { return n.find("outliers apart") == 0; }));
  // Refused: an identity that is no object, a field without values or that a baseline does
  // not keep, values that are not strings.
  for (const nlohmann::json& bad : {nlohmann::json(nullptr), nlohmann::json{{"gpu_board_part", 7}},
                                    nlohmann::json{{"gpu_vbios", nlohmann::json::array()}},
                                    nlohmann::json{{"host_boot_id", {"boot-0"}}}, nlohmann::json{{"favourite", {"x"}}}}) {
    old["fleets"][0]["identity"] = bad;
    EXPECT_THROW(parse_baseline(old.dump(), "bad.json"), input_error) << bad.dump();
  }
}

TEST(ReportFleet, TwoGpusHaveNoRobustCentre) {
  const auto files = synthetic_fleet(2, 10, [](int g, const std::string&, int) { return g == 1 ? 1.2 : 1.0; });
  const auto v = verdicts(files);
  EXPECT_EQ(v[0], gpu_verdict::unsure);
  EXPECT_EQ(v[1], gpu_verdict::unsure);
}

TEST(ReportFleet, AGpuFasterThanTheFleetIsUnsure) {
  const auto files = synthetic_fleet(5, 10, [](int g, const std::string&, int) { return g == 2 ? 0.9 : 1.0; });
  const auto v = verdicts(files);
  EXPECT_EQ(v[2], gpu_verdict::unsure);
  EXPECT_EQ(v[0], gpu_verdict::within);
}

TEST(ReportFleet, ABaselineJudgesItsOwnFleetWithinAndASlowGpuOutlier) {
  const auto healthy = synthetic_fleet(5, 10, [](int, const std::string&, int) { return 1.0; });
  fleet_options make;
  make.make_baseline = true;
  const fleet_state s = decided(healthy, make);
  const fleet_baseline b = parse_baseline(baseline_text(s, make), "base.json");
  ASSERT_EQ(b.groups.size(), 1u);
  EXPECT_EQ(b.groups[0].gpus.size(), 5u);
  ASSERT_EQ(b.groups[0].rows.size(), 20u);
  EXPECT_NEAR(b.groups[0].rows[0].second.centre_us, s.fleets[0].centres[0].centre_us, 1e-9);
  const fleet_outcome same = view_fleet(healthy, fleet_options{}, &b);
  EXPECT_EQ(same.outliers, 0);
  EXPECT_EQ(same.unsure, 0);
  // A new node 8 % slower on every row, and one within the fleet.
  const auto slow = synthetic_fleet(1, 10, [](int, const std::string&, int) { return 1.08; });
  EXPECT_EQ(view_fleet(slow, fleet_options{}, &b).outliers, 1);
  const auto fine = synthetic_fleet(1, 10, [](int, const std::string&, int) { return 1.0; });
  EXPECT_EQ(view_fleet(fine, fleet_options{}, &b).outliers, 0);
}

// Eight runs a GPU judge host-work rows (a 15 % floor a run) by the spread the runs measure,
// against a baseline too, whose plain run-to-run spread stands in for the winsorized one: a
// new GPU with eight runs 10 % slower on them is an outlier; with two runs it is not.
TEST(ReportFleet, MeasuredRunsJudgeHostRowsAgainstABaselineToo) {
  auto runs_of = [](int gpus, int runs, double factor, std::uint64_t seed) {
    std::vector<result_file> files;
    for (int g = 0; g < gpus; ++g) {
      for (int k = 0; k < runs; ++k) {
        std::vector<std::pair<std::string, double>> rows;
        for (int i = 0; i < 4; ++i) {
          const auto draw = static_cast<std::uint64_t>(10 * k + i);
          rows.emplace_back(fmt::format("host/copy/n:{}", i), 100 * factor * jitter(seed + g, draw, 0.01));
        }
        files.push_back(gpu_file(fmt::format("GPU-{:08d}-{}", g, seed), rows));
        for (result& r : files.back().results) r.runs[0].work = run::work_kind::host;
      }
    }
    return files;
  };
  fleet_options make;
  make.make_baseline = true;
  const fleet_baseline b = parse_baseline(baseline_text(decided(runs_of(5, 8, 1.0, 1), make), make), "base.json");
  EXPECT_EQ(view_fleet(runs_of(1, 8, 1.10, 100), fleet_options{}, &b).outliers, 1);
  EXPECT_EQ(view_fleet(runs_of(1, 8, 1.0, 100), fleet_options{}, &b).outliers, 0);
  EXPECT_EQ(view_fleet(runs_of(1, 2, 1.10, 100), fleet_options{}, &b).outliers, 0) << "two runs: the 15 % floor";
  fleet_options floors;
  floors.calibration_runs = 0;
  EXPECT_EQ(view_fleet(runs_of(1, 8, 1.10, 100), floors, &b).outliers, 0) << "--calibration-runs 0: the floor";
}

TEST(ReportFleet, TheReframeFormIsAReferencePerModelAndRow) {
  const auto healthy = synthetic_fleet(4, 2, [](int, const std::string&, int) { return 1.0; });
  fleet_options make;
  make.baseline_format = "reframe";
  const auto j = nlohmann::json::parse(baseline_text(decided(healthy, make), make));
  ASSERT_TRUE(j.contains("NVIDIA H200/default"));
  const auto& ref = j["NVIDIA H200/default"]["global/a/n:0"];
  ASSERT_EQ(ref.size(), 4u);
  EXPECT_NEAR(ref[0].get<double>(), 100, 0.5);
  EXPECT_LT(ref[1].get<double>(), -0.03);  // beyond the threshold, by the interval of one run
  EXPECT_GT(ref[2].get<double>(), 0.03);
  EXPECT_EQ(ref[3], "us");
}

// GPUs' runs of one copy row: each run's median `contended` times its fastest sample, which
// is `fastest_us` within +-0.2 %.
std::vector<result_file> copy_runs(int gpus, int runs, const std::vector<double>& fastest_us, double contended) {
  std::vector<result_file> files;
  for (int g = 0; g < gpus; ++g) {
    for (int k = 0; k < runs; ++k) {
      const double fastest = fastest_us[static_cast<std::size_t>(g)] *
                             jitter(static_cast<std::uint64_t>(g), static_cast<std::uint64_t>(k), 0.002);
      const double median = fastest * (1 + contended * jitter(static_cast<std::uint64_t>(g + 50), static_cast<std::uint64_t>(k), 1));
      files.push_back(gpu_file(fmt::format("GPU-{:08d}-0000", g), {{"host/copy/dir:h2d", median}}));
      run& r = files.back().results[0].runs[0];
      r.work = run::work_kind::copy;
      r.fastest_us = fastest;
    }
  }
  return files;
}

// A copy beside other GPUs' copies takes longer by however much they overlap: its median
// moves from run to run by far more than its fastest sample. Fleet judges copies on the
// fastest sample: a GPU whose link is 10 % slower is an outlier though the medians of all
// GPUs move by up to 12 %, and one whose medians alone are slower is not.
TEST(ReportFleet, CopiesAreJudgedOnTheirFastestSample) {
  std::vector<double> fastest(6, 300.0);
  fastest[2] = 330;
  fleet_options opt;
  opt.calibration_runs = 8;
  const auto healthy_but_one = copy_runs(6, 8, fastest, 0.06);
  const fleet_state s = decided(healthy_but_one, opt);
  ASSERT_EQ(s.fleets[0].rows.size(), 1u);
  EXPECT_EQ(s.fleets[0].rows[0].fig, figure::fastest);
  EXPECT_NEAR(s.fleets[0].centres[0].centre_us, 300, 1.5);
  for (const judged& j : s.rows) EXPECT_EQ(j.one_row, j.gpu == 2 ? verdict::slower : verdict::same) << j.gpu;
  // The same GPUs' medians, GPU 2 contended the most: fastest samples alike, no GPU slower.
  auto files = copy_runs(6, 8, std::vector<double>(6, 300.0), 0.06);
  for (result_file& f : files) {
    if (f.context["gpu_uuid"] == "GPU-00000002-0000") f.results[0].runs[0].time_us *= 1.15;
  }
  for (const judged& j : decided(files, opt).rows) EXPECT_EQ(j.one_row, verdict::same) << j.gpu;
  // A copy whose runs do not say their fastest sample is judged on its medians.
  for (result_file& f : files) f.results[0].runs[0].fastest_us = NAN;
  EXPECT_EQ(decided(files, opt).fleets[0].rows[0].fig, figure::single);
}

// A baseline says each row's figure; a GPU whose copy runs lack their fastest samples is
// judged on medians, which a centre of fastest samples is not: that row is left out.
TEST(ReportFleet, ABaselineKeepsEachRowsFigure) {
  fleet_options make;
  make.make_baseline = true;
  make.calibration_runs = 8;
  const auto healthy = copy_runs(5, 8, std::vector<double>(5, 300.0), 0.06);
  const fleet_state s = decided(healthy, make);
  const std::string text = baseline_text(s, make);
  EXPECT_NE(text.find("\"figure\": \"fastest\""), std::string::npos);
  const fleet_baseline b = parse_baseline(text, "base.json");
  EXPECT_EQ(b.groups.at(0).rows.at(0).second.fig, figure::fastest);
  fleet_options opt;
  opt.calibration_runs = 8;
  auto slow = copy_runs(1, 8, {330.0}, 0.06);
  EXPECT_EQ(view_fleet(slow, opt, &b).outliers, 1);
  for (result_file& f : slow) f.results[0].runs[0].fastest_us = NAN;
  const fleet_state other = decided(slow, opt, &b);
  EXPECT_TRUE(other.rows.empty());
  EXPECT_EQ(other.fleets[0].rows[0].why[0], left_out::other_figure);
  std::string bad = text;
  bad.replace(bad.find("\"fastest\""), 9, "\"lowest\"");
  EXPECT_THROW(parse_baseline(bad, "base.json"), input_error);
}

TEST(ReportFleet, RefusesWhatItCannotJudge) {
  auto files = synthetic_fleet(3, 2, [](int, const std::string&, int) { return 1.0; });
  files[1].context.erase("gpu_uuid");
  EXPECT_THROW(group_fleets(files, false), input_error);
  files[1].context["gpu_uuid"] = "GPU-1";
  files[2].context["gpu_name"] = "NVIDIA H100 80GB HBM3";
  EXPECT_THROW(group_fleets(files, false), input_error);
  EXPECT_EQ(group_fleets(files, true).size(), 2u);
  for (int version : {1, 3}) {
    EXPECT_THROW(parse_baseline(fmt::format("{{\"format\": \"membench-fleet-baseline\", \"version\": {}, \"fleets\": []}}",
                                            version),
                                "b"),
                 input_error);
  }
  EXPECT_THROW(parse_baseline("{\"NVIDIA H200/default\": {}}", "b"), input_error);
  EXPECT_THROW(parse_baseline("[1, 2", "b"), input_error);
}

TEST(ReportFleet, RowsOfSeveralGpusAreLeftOut) {
  std::vector<result_file> files;
  for (int g = 0; g < 3; ++g) {
    files.push_back(gpu_file(fmt::format("GPU-{}", g), {{"global/read/bytes:1G", 240.0},
                                                         {"peer/copy/access:on/dir:d0_d1/bytes:64M", 176.0},
                                                         {"global/p2p/src:0/dst:1/bytes:1M", 10.0}}));
  }
  const fleet_state s = decided(files, fleet_options{});
  ASSERT_EQ(s.fleets[0].rows.size(), 1u);
  EXPECT_EQ(s.multi_gpu.size(), 2u);
}

TEST(ReportFleet, ErrorAndUnconvergedRowsAreLeftOutPerGpu) {
  auto files = synthetic_fleet(3, 3, [](int, const std::string&, int) { return 1.0; });
  files[0].results[0].error = "verification failed";
  files[1].results[1].runs[0].converged = false;
  const fleet_state s = decided(files, fleet_options{});
  const auto gpus = summarize_gpus(s, fleet_options{});
  for (const gpu_summary& g : gpus) {
    const int error = g.left[static_cast<int>(left_out::error)], unconverged = g.left[static_cast<int>(left_out::unconverged)];
    EXPECT_EQ(error, g.gpu == 0 ? 1 : 0);
    EXPECT_EQ(unconverged, g.gpu == 1 ? 1 : 0);
    EXPECT_EQ(g.compared, g.gpu == 2 ? 6 : 5);
  }
}

// A short row whose every GPU carries a batch figure with its interval is taken at it, as
// compare takes it: the sides hold the batches' per-launch times.
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
  std::vector<std::string> multi;
  std::vector<fleet> fleets = group_fleets(files, false);
  gather_rows(fleets.at(0), name_filter(""), multi, fleet_options{}.calibration_runs);
  const fleet_row& row = fleets[0].rows.at(0);
  EXPECT_EQ(row.fig, figure::batch);
  EXPECT_DOUBLE_EQ(row.sides.at(2).runs.at(0)->time_us, 2.802);
  // One GPU without it: every GPU is taken at its single launches.
  files[1].results[0].runs[0].batch = {};
  fleets = group_fleets(files, false);
  gather_rows(fleets.at(0), name_filter(""), multi, fleet_options{}.calibration_runs);
  EXPECT_EQ(fleets[0].rows.at(0).fig, figure::single);
  EXPECT_DOUBLE_EQ(fleets[0].rows[0].sides.at(2).runs.at(0)->time_us, 2.92);
}

}  // namespace
}  // namespace membench::report
