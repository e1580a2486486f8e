// compare's regression test (verdict.hpp) on synthetic runs: what it calls slower, same
// and unsure, from samples, intervals, noise and repetitions, and how often it is wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/stats.hpp"
#include "views/family.hpp"
#include "test_report_support.hpp"
#include "stats/reasons.hpp"
#include "stats/verdict.hpp"

namespace membench::report {
namespace {

// Deterministic normal draws (the test's data must not depend on the standard library).
class draws {
 public:
  explicit draws(std::uint64_t seed) : s_(seed) {}
  double uniform() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (static_cast<double>((z ^ (z >> 31)) >> 11) + 0.5) * 0x1p-53;
  }
  double normal() { return std::sqrt(-2 * std::log(uniform())) * std::cos(2 * std::acos(-1.0) * uniform()); }

 private:
  std::uint64_t s_;
};

// A run of `n` samples around `median_us` with a relative spread `sd`.
run sampled(double median_us, double sd, int n, std::uint64_t seed) {
  draws d(seed);
  run r;
  for (int i = 0; i < n; ++i) r.samples_us.push_back(median_us * (1 + sd * d.normal()));
  std::vector<double> sorted = r.samples_us;
  std::sort(sorted.begin(), sorted.end());
  r.time_us = sorted.size() % 2 ? sorted[sorted.size() / 2] : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
  r.sm_clock_mhz = 1980;
  return r;
}

run scaled(run r, double factor) {
  for (double& s : r.samples_us) s *= factor;
  r.time_us *= factor;
  r.ci_low_us *= factor;
  r.ci_high_us *= factor;
  return r;
}

side one(const run& r) {
  side s;
  s.runs.push_back(&r);
  return s;
}

// One run a side decided with the default options: unsure, for this reason alone.
decision expect_unsure(const run& base, const run& next, const std::string& reason) {
  const decision d = decide(one(base), one(next), {}, "x");
  EXPECT_EQ(d.v, verdict::unsure);
  EXPECT_EQ(d.why.text, reason);
  return d;
}

using test_support::many;

// The quantiles behind the intervals (common/stats.hpp), against the tables.
TEST(ReportVerdict, StudentAndNormalQuantiles) {
  EXPECT_NEAR(standard_normal_quantile(0.975), 1.959964, 1e-6);
  EXPECT_NEAR(standard_normal_quantile(0.025), -1.959964, 1e-6);
  const double t975[][2] = {{1, 12.7062}, {2, 4.3027}, {3, 3.1824}, {4, 2.7764}, {5, 2.5706}, {9, 2.2622}, {30, 2.0423}};
  for (const auto& [df, t] : t975) {
    EXPECT_NEAR(student_t_quantile(0.975, df), t, 0.002 * t) << "df " << df;
    EXPECT_NEAR(student_t_quantile(0.025, df), -t, 0.002 * t) << "df " << df;
  }
  EXPECT_NEAR(student_t_quantile(0.995, 3), 5.8409, 0.01 * 5.8409);
  EXPECT_NEAR(student_t_quantile(0.975, INFINITY), 1.959964, 1e-6);
  // The far tails a correction for many benchmarks reaches (exact values from the
  // incomplete beta function), where Abramowitz and Stegun's expansion alone is 4 % off.
  const double far[][3] = {{3, 0.9995, 12.923979}, {3, 0.99995, 28.000130}, {5, 0.9999995, 28.478473}, {18, 0.99995, 4.965706}};
  for (const auto& [df, p, t] : far) {
    EXPECT_NEAR(student_t_quantile(p, df), t, 1e-6 * t) << "df " << df << " p " << p;
    EXPECT_NEAR(student_t_quantile(1 - p, df), -t, 1e-6 * t) << "df " << df << " p " << p;
    EXPECT_NEAR(student_t_cdf(t, df), p, 1e-9) << "df " << df;
  }
  // Near the middle, where 1 - df/(df+t^2) must not be taken by subtraction.
  EXPECT_NEAR(student_t_quantile(0.75, 3), 0.7648923284, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.5 + 1e-7, 3), 2.720699046e-7, 1e-15);
  EXPECT_NEAR(student_t_quantile(0.51, 1e7), standard_normal_quantile(0.51), 1e-8);
  EXPECT_NEAR(student_t_cdf(0, 7), 0.5, 1e-12);
  EXPECT_NEAR(student_t_cdf(-1.959964, INFINITY), 0.025, 1e-7);
}

TEST(ReportVerdict, AFivePercentShiftOnTightSamplesIsSlower) {
  const run base = sampled(100, 0.003, 200, 1);
  const run next = scaled(base, 1.05);  // every sample 5 % slower: the default threshold exactly
  const decision d = decide(one(base), one(next), {}, "x");
  EXPECT_EQ(d.v, verdict::slower) << d.why.text;
  EXPECT_EQ(d.from, evidence::samples);
  EXPECT_GT(d.low, 0.02);
  EXPECT_LT(d.high, 0.08);
  EXPECT_NEAR(d.change, 0.05, 1e-12);
  // Fresh samples of a 6 % slower kernel, and the other way round.
  const run other = scaled(sampled(100, 0.003, 200, 2), 1.06);
  EXPECT_EQ(decide(one(base), one(other), {}, "x").v, verdict::slower);
  EXPECT_EQ(decide(one(other), one(base), {}, "x").v, verdict::faster);
}

TEST(ReportVerdict, TheSameSamplesAreTheSame) {
  const run base = sampled(100, 0.01, 100, 3);
  const decision d = decide(one(base), one(base), {}, "x");
  EXPECT_EQ(d.v, verdict::same);
  EXPECT_DOUBLE_EQ(d.change, 0);
  EXPECT_LT(d.low, 0);
  EXPECT_GT(d.high, 0);
}

TEST(ReportVerdict, WithinTheThresholdIsSameHoweverClear) {
  const run base = sampled(100, 0.001, 500, 4);
  const run next = scaled(base, 1.04);
  const decision d = decide(one(base), one(next), {}, "x");
  EXPECT_EQ(d.v, verdict::same);
  EXPECT_GT(d.low, 0) << "clearly slower, but by less than the threshold";
  decide_options strict;
  strict.threshold = 0.02;
  EXPECT_EQ(decide(one(base), one(next), strict, "x").v, verdict::slower);
}

TEST(ReportVerdict, ATenPercentShiftUnderThrottlingIsUnsure) {
  const run base = sampled(100, 0.003, 200, 5);
  run next = scaled(sampled(100, 0.003, 200, 6), 1.10);
  next.throttle = "sw_power_cap";
  expect_unsure(base, next, "throttled (new: sw_power_cap)");
}

TEST(ReportVerdict, ClocksThatDifferMakeItUnsure) {
  const run base = sampled(100, 0.003, 200, 7);
  run next = scaled(sampled(100, 0.003, 200, 8), 1.12);
  next.sm_clock_mhz = 1655;  // the clocks explain the change: none in cycles
  expect_unsure(base, next, "clock: +12.0 % in time, -6.4 % in cycles (1980 vs 1655 MHz)");
  next.sm_clock_mhz = 2100;  // slower in cycles too, but another state of the GPU
  expect_unsure(base, next, "clocks differ (1980 vs 2100 MHz)");
  next.sm_clock_mhz = 1950;  // within 3 %
  EXPECT_EQ(decide(one(base), one(next), {}, "x").v, verdict::slower);
}

TEST(ReportVerdict, RowsWithoutTheirClockUseTheRunsReferenceClock) {
  run base = sampled(100, 0.003, 200, 16);
  run next = scaled(sampled(100, 0.003, 200, 17), 1.12);
  base.sm_clock_mhz = next.sm_clock_mhz = NAN;
  side b = one(base), n = one(next);
  b.reference_clock_mhz = 1980;
  n.reference_clock_mhz = 1600;
  const decision d = decide(b, n, {}, "x");
  EXPECT_EQ(d.v, verdict::unsure);
  EXPECT_EQ(d.why.text, "clock: +12.0 % in time, -9.5 % in cycles (1980 vs 1600 MHz)");
  EXPECT_EQ(d.why.codes, std::vector<reason_code>{reason_code::clock_in_cycles});
}

TEST(ReportVerdict, AnUnconvergedRowIsUnsure) {
  run base = sampled(100, 0.003, 200, 9);
  base.converged = false;
  const run next = scaled(sampled(100, 0.003, 200, 10), 1.10);
  expect_unsure(base, next, "not converged");
}

TEST(ReportVerdict, NoisySamplesAreUnsure) {
  const run base = sampled(100, 0.25, 12, 11);
  const run next = scaled(sampled(100, 0.25, 12, 12), 1.10);
  const decision d = expect_unsure(base, next, "too noisy");
  EXPECT_LT(d.low, 0);
}

// Without the absolute run-to-run floor, which alone would make a 9 % change of a 2.4 us
// row one process against one too noisy too.
TEST(ReportVerdict, ChangesBelowTheResolutionAreTooSmall) {
  const run base = sampled(2.4, 0.001, 500, 13);
  const run next = scaled(base, 1.09);  // 0.22 us: a few timer ticks
  decide_options o;
  o.run_spread_us = 0;
  const decision d = decide(one(base), one(next), o, "x");
  EXPECT_EQ(d.v, verdict::unsure);
  EXPECT_EQ(d.why.text, "too small");
  EXPECT_EQ(decide(one(base), one(next), {}, "x").why.text, "too small; too noisy");
  EXPECT_EQ(decide(one(base), one(next), {}, "x").why.codes,
            (std::vector<reason_code>{reason_code::too_small, reason_code::too_noisy}));
}

TEST(ReportVerdict, TheBootstrapIsSeededAndDeterministic) {
  const run base = sampled(100, 0.02, 50, 14);
  const run next = scaled(sampled(100, 0.02, 50, 15), 1.06);
  const decision a = decide(one(base), one(next), {}, "global/read/bytes:1G");
  const decision b = decide(one(base), one(next), {}, "global/read/bytes:1G");
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  decide_options other;
  other.seed = 2;
  const decision c = decide(one(base), one(next), other, "global/read/bytes:1G");
  EXPECT_NE(a.low, c.low) << "another seed, other draws";
  EXPECT_NEAR(a.low, c.low, 0.005);
}

TEST(ReportVerdict, RowIntervalsWhenThereAreNoSamples) {
  run base;
  base.time_us = 100;
  base.ci_low_us = 99.8;
  base.ci_high_us = 100.2;
  run next = scaled(base, 1.08);
  decision d = decide(one(base), one(next), {}, "x");
  EXPECT_EQ(d.from, evidence::intervals);
  EXPECT_EQ(d.v, verdict::slower);
  next.ci_low_us = 90;  // a wide interval on one side
  next.ci_high_us = 125;
  d = decide(one(base), one(next), {}, "x");
  EXPECT_EQ(d.v, verdict::unsure);
  EXPECT_EQ(d.why.text, "too noisy");
}

TEST(ReportVerdict, NoiseAndSampleCountForOlderRows) {
  run base;
  base.time_us = 100;
  base.noise_pct = 0.3;
  base.sample_count = 10;
  const run next = scaled(base, 1.10);
  EXPECT_EQ(decide(one(base), one(next), {}, "x").from, evidence::noise);
  EXPECT_EQ(decide(one(base), one(next), {}, "x").v, verdict::slower);
}

TEST(ReportVerdict, OneRunASideWithNothingAboutItsSpreadIsUnsure) {
  run base;
  base.time_us = 100;
  const run next = scaled(base, 1.10);
  const decision d = decide(one(base), one(next), {}, "x");
  EXPECT_EQ(d.from, evidence::none);
  EXPECT_EQ(d.v, verdict::unsure);
  EXPECT_TRUE(std::isnan(d.low));
  EXPECT_EQ(decide(one(base), one(scaled(base, 1.01)), {}, "x").v, verdict::same);
}

TEST(ReportVerdict, RepetitionsWeighTheSpreadOfTheirMedians) {
  // Plain Google Benchmark repetitions: only the runs' medians.
  auto runs_at = [](std::vector<double> medians) {
    std::vector<run> v;
    for (double m : medians) {
      run r;
      r.time_us = m;
      v.push_back(r);
    }
    return v;
  };
  const auto tight = runs_at({100.0, 100.1, 99.9, 100.05, 99.95});
  const auto shifted = runs_at({106.0, 106.1, 105.9, 106.05, 105.95});
  decision d = decide(many(tight), many(shifted), {}, "x");
  EXPECT_EQ(d.from, evidence::repetitions);
  EXPECT_EQ(d.v, verdict::slower);
  const auto spread = runs_at({100.0, 108.0, 92.0, 104.0, 96.0});
  d = decide(many(spread), many(shifted), {}, "x");
  EXPECT_EQ(d.v, verdict::unsure) << "a 6 % shift inside an 8 % run-to-run spread";
  EXPECT_EQ(d.why.text, "too noisy");
}

TEST(ReportVerdict, RunToRunShiftsCountEvenWhenEachRunIsTight) {
  // Every run's samples are tight, but the runs' medians wander by a few percent: the
  // within-run scatter alone would call +6 % clear.
  std::vector<run> base, next;
  const double base_medians[] = {100, 104, 96};
  const double next_medians[] = {106, 110, 102};
  for (int i = 0; i < 3; ++i) {
    base.push_back(scaled(sampled(100, 0.002, 200, 20 + static_cast<std::uint64_t>(i)), base_medians[i] / 100));
    next.push_back(scaled(sampled(100, 0.002, 200, 30 + static_cast<std::uint64_t>(i)), next_medians[i] / 100));
  }
  const decision pooled = decide(many(base), many(next), {}, "x");
  EXPECT_EQ(pooled.v, verdict::unsure);
  EXPECT_EQ(pooled.why.text, "too noisy");
  const decision first_runs = decide(one(base[0]), one(next[0]), {}, "x");
  EXPECT_EQ(first_runs.v, verdict::slower) << "one run a side cannot see the run-to-run spread";
}

TEST(ReportVerdict, AggregatesOnlyFilesUseTheirCv) {
  side base, next;
  base.aggregate_us = 100;
  base.aggregate_cv = 0.001;
  base.aggregate_count = 10;
  next.aggregate_us = 110;
  next.aggregate_cv = 0.001;
  next.aggregate_count = 10;
  EXPECT_EQ(decide(base, next, {}, "x").v, verdict::slower);
  base.aggregate_cv = next.aggregate_cv = 0.2;
  EXPECT_EQ(decide(base, next, {}, "x").v, verdict::unsure);
}

// The test's calibration on synthetic A/A pairs: runs differ by a run effect of 0.5 % and
// their samples by 1 %. With no threshold the test alone decides: it may call a change in
// about 5 % of the pairs (95 % intervals) and must find a 3 % shift almost always.
TEST(ReportVerdict, FalseAlarmsStayNearTheLevelAndRealShiftsAreFound) {
  decide_options o;
  o.threshold = 0;
  o.resolution_us = 0;
  draws effects(99);
  int alarms = 0, found = 0;
  const int pairs = 300;
  for (int i = 0; i < pairs; ++i) {
    const auto seed = static_cast<std::uint64_t>(1000 + 2 * i);
    const run a = scaled(sampled(100, 0.01, 100, seed), 1 + 0.005 * effects.normal());
    const run b = scaled(sampled(100, 0.01, 100, seed + 1), 1 + 0.005 * effects.normal());
    const std::string name = "aa" + std::to_string(i);
    const verdict v = decide(one(a), one(b), o, name).v;
    alarms += v == verdict::slower || v == verdict::faster ? 1 : 0;
    found += decide(one(a), one(scaled(b, 1.03)), o, name).v == verdict::slower ? 1 : 0;
  }
  RecordProperty("false_alarms", alarms);
  RecordProperty("found", found);
  EXPECT_LE(alarms, pairs / 10) << "false alarms: " << alarms << " of " << pairs;
  EXPECT_GE(found, pairs * 95 / 100) << "3 % shifts found: " << found << " of " << pairs;
}

}  // namespace
}  // namespace membench::report

namespace membench::report {
namespace {

TEST(ReportVerdict, HostWorkNeedsSeveralRunsASide) {
  // Two same-commit runs of a host call on one H100 differed by 17 % (8.5 vs 10.2 us) with
  // tight samples in each: a kernel row that moved so is slower; a host row compared one
  // run against one is unsure, whatever its samples say.
  const run base = sampled(10.2, 0.01, 200, 11);
  run next = scaled(sampled(10.2, 0.01, 200, 12), 1.17);
  EXPECT_EQ(decide(one(base), one(next), decide_options{}, "host17").v, verdict::slower);
  run host_base = base;
  host_base.work = run::work_kind::host;
  next.work = run::work_kind::host;
  const decision single = decide(one(host_base), one(next), decide_options{}, "host17");
  EXPECT_EQ(single.v, verdict::unsure);
  EXPECT_NE(single.why.text.find("host work"), std::string::npos) << single.why.text;
  // With three runs a side their spread is measured: 10 % run to run hides a 17 % move ...
  std::vector<run> b3, n3;
  for (int i = 0; i < 3; ++i) {
    b3.push_back(scaled(sampled(10.2, 0.01, 200, 20 + i), 1 + 0.1 * (i - 1)));
    n3.push_back(scaled(sampled(10.2, 0.01, 200, 30 + i), 1.17 * (1 + 0.1 * (1 - i))));
  }
  for (auto* v : {&b3, &n3}) {
    for (run& r : *v) r.work = run::work_kind::host;
  }
  EXPECT_NE(decide(many(b3), many(n3), decide_options{}, "host3").v, verdict::slower);
  // ... but not a doubling.
  for (run& r : n3) r = scaled(r, 2.0);
  EXPECT_EQ(decide(many(b3), many(n3), decide_options{}, "host3x2").v, verdict::slower);
}

}  // namespace
}  // namespace membench::report

namespace membench::report {
namespace {

// Host-work runs of one commit whose medians wander by `sd` from process to process.
std::vector<run> host_runs(int k, double sd, double factor, std::uint64_t seed) {
  draws effects(seed);
  std::vector<run> v;
  for (int i = 0; i < k; ++i) {
    v.push_back(scaled(sampled(50, 0.005, 200, seed * 100 + static_cast<std::uint64_t>(i)),
                       factor * (1 + sd * effects.normal())));
    v.back().work = run::work_kind::host;
  }
  return v;
}

TEST(ReportVerdict, ManyBaseRunsMeasureTheRunToRunSpread) {
  // A host row that moves 1 % between processes: the 15 % floor of host work hides a 6 %
  // slowdown; twelve base runs measure the 1 % and find it.
  const auto base = host_runs(12, 0.01, 1.0, 1);
  const auto next = host_runs(3, 0.01, 1.06, 2);
  decide_options o;
  o.calibration_runs = 0;
  EXPECT_EQ(decide(many(base), many(next), o, "h").v, verdict::unsure);
  const decision d = decide(many(base), many(next), decide_options{}, "h");
  EXPECT_EQ(d.from, evidence::runs);
  EXPECT_EQ(d.v, verdict::slower) << d.why.text;
  // Seven runs are not enough to measure it (the default asks for eight).
  EXPECT_NE(decide(many(std::vector<run>(base.begin(), base.begin() + 7)), many(next), decide_options{}, "h").from,
            evidence::runs);
  // One new run is enough once the spread is known.
  EXPECT_EQ(decide(many(base), one(next[0]), decide_options{}, "h").v, verdict::slower);
}

TEST(ReportVerdict, AMeasuredLargeSpreadStaysUnsure) {
  // 12 % between processes (cudaMalloc on an H100): a 6 % change is inside it.
  const auto base = host_runs(12, 0.12, 1.0, 3);
  const auto next = host_runs(12, 0.12, 1.06, 4);
  const decision d = decide(many(base), many(next), decide_options{}, "m");
  EXPECT_NE(d.v, verdict::slower);
  if (d.v == verdict::unsure) {
    EXPECT_NE(d.why.text.find("runs spread"), std::string::npos) << d.why.text;
  }
}

TEST(ReportVerdict, ANoisierNewSideWidensTheInterval) {
  // Tight base runs, but the new runs spread 30 % (about the same centre): the pooled spread
  // hides a 6 % change.
  const auto base = host_runs(12, 0.002, 1.0, 5);
  auto next = host_runs(3, 0.002, 1.06, 6);
  EXPECT_EQ(decide(many(base), many(next), decide_options{}, "w").v, verdict::slower);
  next[0] = scaled(next[0], 0.75);
  next[2] = scaled(next[2], 4.0 / 3);
  const decision d = decide(many(base), many(next), decide_options{}, "w");
  EXPECT_EQ(d.from, evidence::runs);
  EXPECT_EQ(d.v, verdict::unsure) << d.low << " " << d.high;
}

TEST(ReportVerdict, ACalibratedVerdictNeverRestsOnThrottledRuns) {
  // Eight runs a side, 1 % apart between processes, 8 % slower: one base run that did not
  // converge and one new run that was throttled do not carry the change: still slower.
  auto base = host_runs(8, 0.01, 1.0, 7);
  auto next = host_runs(8, 0.01, 1.08, 8);
  base[3].converged = false;
  next[5].throttle = "sw_power_cap";
  const decision d = decide(many(base), many(next), decide_options{}, "s");
  EXPECT_EQ(d.from, evidence::runs);
  EXPECT_EQ(d.v, verdict::slower) << d.why.text;
  // When the change is only in the throttled runs, it is not a finding.
  auto same = host_runs(8, 0.01, 1.0, 9);
  for (int i : {0, 1, 2, 3}) {
    same[i] = scaled(same[i], 1.3);
    same[i].throttle = "sw_power_cap";
  }
  const decision u = decide(many(base), many(same), decide_options{}, "s");
  EXPECT_EQ(u.v, verdict::unsure);
  EXPECT_NE(u.why.text.find("throttled"), std::string::npos) << u.why.text;
  // Fewer than two unthrottled runs on a side: unsure.
  for (run& r : next) r.throttle = "sw_power_cap";
  next[0].throttle = "";
  EXPECT_EQ(decide(many(base), many(next), decide_options{}, "s").v, verdict::unsure);
}

TEST(ReportVerdict, UnconvergedRunsCountInTheMeasuredSpread) {
  // Runs that did not converge are noisier runs: with measured spreads they are not a
  // reason by themselves, and their scatter widens the interval.
  auto base = host_runs(8, 0.01, 1.0, 7);
  auto next = host_runs(8, 0.01, 1.08, 8);
  for (run& r : next) r.converged = false;
  EXPECT_EQ(decide(many(base), many(next), decide_options{}, "u").v, verdict::slower);
  // A change only in half the runs, those that did not converge: too noisy, never slower.
  auto same = host_runs(8, 0.01, 1.0, 9);
  for (int i : {0, 1, 2, 3}) {
    same[i] = scaled(same[i], 1.3);
    same[i].converged = false;
  }
  const decision u = decide(many(base), many(same), decide_options{}, "u");
  EXPECT_EQ(u.v, verdict::unsure);
  EXPECT_NE(u.why.text.find("too noisy"), std::string::npos) << u.why.text;
  // Without measured spreads (two runs a side) an unconverged run still makes it unsure.
  const std::vector<run> b2(base.begin(), base.begin() + 2), n2(next.begin(), next.begin() + 2);
  const decision two = decide(many(b2), many(n2), decide_options{}, "u");
  EXPECT_NE(two.why.text.find("not converged"), std::string::npos) << two.why.text;
}

TEST(ReportVerdict, OneOutlierProcessNeitherHidesNorFakesAChange) {
  // One process in eight twice as slow (a pinned copy did this once in fifteen processes
  // on an H100): the trimmed test still finds an 8 % slowdown, whichever side it is on...
  auto base = host_runs(8, 0.005, 1.0, 21);
  auto next = host_runs(7, 0.005, 1.08, 22);
  base[2] = scaled(base[2], 2.35);
  const decision d = decide(many(base), many(next), decide_options{}, "o");
  EXPECT_EQ(d.v, verdict::slower) << d.change << " [" << d.low << ", " << d.high << "] " << d.why.text;
  auto base2 = host_runs(8, 0.005, 1.0, 21);
  next[4] = scaled(next[4], 2.35);
  EXPECT_EQ(decide(many(base2), many(next), decide_options{}, "o").v, verdict::slower);
  // ...and does not make an unchanged row slower.
  auto same = host_runs(7, 0.005, 1.0, 23);
  same[0] = scaled(same[0], 2.35);
  EXPECT_NE(decide(many(base2), many(same), decide_options{}, "o").v, verdict::slower);
  // A shift of most runs is not trimmed away.
  auto most = host_runs(7, 0.005, 1.0, 24);
  for (int i : {0, 1, 2, 3, 4, 5}) most[i] = scaled(most[i], 1.08);
  const decision m = decide(many(base2), many(most), decide_options{}, "o");
  EXPECT_EQ(m.v, verdict::slower) << m.change << " [" << m.low << ", " << m.high << "] " << m.why.text;
}

TEST(ReportVerdict, RunsThatSwitchLevelsAreNotAChange) {
  // A row with two per-process levels, 8.6 and 10.4 us (the 4-byte symbol copies on an
  // H100): seven of eight base runs low, seven of eight new runs high. The runs' trimmed
  // means differ by 17 %, yet every run sits at a level the other side has too.
  auto mixed = [](int high, double factor, std::uint64_t seed) {
    auto v = host_runs(8, 0.01, factor, seed);
    for (int i = 0; i < high; ++i) v[static_cast<std::size_t>(i)] = scaled(v[static_cast<std::size_t>(i)], 10.4 / 8.6);
    return v;
  };
  const auto base = mixed(1, 1.0, 31), next = mixed(7, 1.0, 32);
  const decision d = decide(many(base), many(next), decide_options{}, "l");
  EXPECT_EQ(d.v, verdict::unsure) << d.change << " [" << d.low << ", " << d.high << "] " << d.why.text;
  EXPECT_NE(d.why.text.find("two levels"), std::string::npos) << d.why.text;
  EXPECT_EQ(d.why.codes, std::vector<reason_code>{reason_code::two_levels});
  EXPECT_EQ(decide(many(next), many(base), decide_options{}, "l").v, verdict::unsure);
  // The same shares on both sides: nothing to call.
  EXPECT_NE(decide(many(mixed(4, 1.0, 33)), many(mixed(4, 1.0, 34)), decide_options{}, "l").v, verdict::slower);
  // A change moves every run: the sides no longer share a level, and the rule stays out of
  // the way of an 8 % slowdown of a steady row...
  const decision s1 = decide(many(host_runs(8, 0.01, 1.0, 37)), many(host_runs(8, 0.01, 1.08, 38)), decide_options{}, "l");
  EXPECT_EQ(s1.v, verdict::slower) << s1.why.text;
  // ...or of a two-level row whose new runs are all 25 % slower at the high level.
  const decision s2 = decide(many(mixed(1, 1.0, 35)), many(mixed(8, 1.04, 36)), decide_options{}, "l");
  EXPECT_EQ(s2.v, verdict::slower) << s2.change << " [" << s2.low << ", " << s2.high << "] " << s2.why.text;
}

TEST(ReportVerdict, TheMarginIsWhatTheIntervalMustClear) {
  const auto base = host_runs(8, 0.01, 1.0, 11);
  const auto next = host_runs(8, 0.01, 1.08, 12);
  decide_options o;
  const decision d = decide(many(base), many(next), o, "m");
  ASSERT_EQ(d.v, verdict::slower) << d.why.text;
  o.margin = d.low / 2;
  EXPECT_EQ(decide(many(base), many(next), o, "m").v, verdict::slower);
  o.margin = (d.low + d.change) / 2;
  const decision u = decide(many(base), many(next), o, "m");
  EXPECT_EQ(u.v, verdict::unsure);
  EXPECT_NE(u.why.text.find("too noisy"), std::string::npos) << u.why.text;
  // Faster is held to the same margin.
  EXPECT_EQ(decide(many(next), many(base), o, "m").v, verdict::unsure);
}

// The calibrated test's false alarms on synthetic A/A pairs stay near its level.
TEST(ReportVerdict, CalibratedFalseAlarmsStayNearTheLevel) {
  decide_options o;
  o.threshold = 0;
  o.resolution_us = 0;
  int alarms = 0, found = 0;
  const int pairs = 300;
  for (int i = 0; i < pairs; ++i) {
    const auto seed = static_cast<std::uint64_t>(5000 + 2 * i);
    const auto a = host_runs(12, 0.02, 1.0, seed);
    const auto b = host_runs(3, 0.02, 1.0, seed + 1);
    const verdict v = decide(many(a), many(b), o, "aa").v;
    alarms += v == verdict::slower || v == verdict::faster ? 1 : 0;
    found += decide(many(a), many(host_runs(3, 0.02, 1.06, seed + 1)), o, "aa").v == verdict::slower ? 1 : 0;
  }
  EXPECT_LE(alarms, pairs / 10) << alarms;
  EXPECT_GE(found, pairs * 80 / 100) << found;
}


// ---------------------------------------------------------------------------------------
// The correction over many benchmarks compared at once.

// Rows whose p-value is given: called (slower) at the two-sided level 1 - alpha when p <= alpha.
// The level a family correction asks of one call among 1224 is 99.996 %: printed to four
// significant digits it would read 100 %, which no interval is.
TEST(ReportFamily, LevelsNearAHundredKeepTheDigitsThatTellThemFromIt) {
  EXPECT_EQ(level_pct(0.95), "95");
  EXPECT_EQ(level_pct(0.9999), "99.99");
  EXPECT_EQ(level_pct(1 - 0.05 / 1224), "99.9959");
  EXPECT_EQ(level_pct(1 - 0.05 / 100000), "99.99995");
  EXPECT_EQ(level_pct(1), "100");
}

TEST(ReportFamily, StepUpKeepsWhatBenjaminiHochbergKeeps) {
  draws d(77);
  decide_options o;
  o.confidence = 0.95;
  const double q = 1 - o.confidence;
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t m = 20 + static_cast<std::size_t>(d.uniform() * 180);
    std::vector<double> p(m);
    for (double& x : p) x = d.uniform() < 0.3 ? std::pow(d.uniform(), 6) * q : d.uniform();  // some real changes
    auto at = [&](const std::vector<std::size_t>& which, const decide_options& with) {
      std::vector<decision> out(which.size());
      for (std::size_t j = 0; j < which.size(); ++j) out[j].v = p[which[j]] <= 1 - with.confidence + 1e-15 ? verdict::slower : verdict::same;
      return out;
    };
    std::vector<std::size_t> everyone(m);
    for (std::size_t i = 0; i < m; ++i) everyone[i] = i;
    std::vector<decision> ds = at(everyone, o);
    const family_outcome f = correct_family(ds, o, at);
    // The textbook step-up: the largest k with the k-th smallest p at most k q / m.
    std::vector<double> sorted = p;
    std::sort(sorted.begin(), sorted.end());
    std::size_t k = 0;
    for (std::size_t i = 1; i <= m; ++i) {
      if (sorted[i - 1] <= static_cast<double>(i) * q / static_cast<double>(m)) k = i;
    }
    EXPECT_EQ(f.kept, k) << "trial " << trial;
    EXPECT_EQ(f.compared, m);
    const double cut = static_cast<double>(k) * q / static_cast<double>(m);
    for (std::size_t i = 0; i < m; ++i) {
      if (p[i] <= cut) {
        EXPECT_EQ(ds[i].v, verdict::slower) << "trial " << trial << " row " << i;
      } else if (p[i] <= q) {
        EXPECT_EQ(ds[i].v, verdict::unsure) << "trial " << trial << " row " << i;
        EXPECT_NE(ds[i].why.text.find("Benjamini-Hochberg"), std::string::npos) << ds[i].why.text;
        EXPECT_EQ(ds[i].why.codes, std::vector<reason_code>{reason_code::family_alone});
      } else {
        EXPECT_EQ(ds[i].v, verdict::same);
      }
    }
  }
}

// Far levels a bootstrap of 2000 replicates cannot reach (not one draw in a tail) still
// widen the interval: a normal tail on the draws' spread.
TEST(ReportFamily, BootstrapIntervalsKeepWideningBeyondTheirDraws) {
  const run base = sampled(100, 0.01, 200, 31), next = sampled(100, 0.01, 200, 32);
  decide_options o;
  o.threshold = 0;
  o.replicates = 2000;
  double width_before = 0;
  for (double alpha : {1e-2, 1e-4, 1e-6, 1e-8}) {
    o.confidence = 1 - alpha;
    const decision d = decide(one(base), one(next), o, "far");
    ASSERT_EQ(d.from, evidence::samples);
    const double width = d.high - d.low;
    EXPECT_GT(width, width_before * 1.05) << "alpha " << alpha;
    width_before = width;
  }
}

// k runs of a row (their medians only) about 50 us * factor, spreading sd between runs.
std::vector<run> run_medians(int k, double sd, double factor, std::uint64_t seed) {
  draws d(seed);
  std::vector<run> v(static_cast<std::size_t>(k));
  for (run& r : v) {
    r.time_us = 50 * factor * std::exp(sd * d.normal());
    r.sm_clock_mhz = 1980;
  }
  return v;
}

// A family of `m` rows, sixteen runs a side, the first `changed` of them `factor` slower:
// how many are called slower or faster, without and with the correction.
struct family_calls {
  int alone = 0, corrected = 0;            ///< calls (slower or faster)
  int alone_changed = 0, kept_changed = 0;  ///< ... of the changed rows, slower
  int bonferroni_changed = 0;              ///< ... slower at 1 - q / m each
};
family_calls call_family(std::size_t m, std::size_t changed, double factor, std::uint64_t seed, const decide_options& o) {
  std::vector<std::vector<run>> base(m), next(m);
  for (std::size_t i = 0; i < m; ++i) {
    base[i] = run_medians(16, 0.05, 1.0, seed * 1000 + 2 * i);
    next[i] = run_medians(16, 0.05, i < changed ? factor : 1.0, seed * 1000 + 2 * i + 1);
  }
  auto at = [&](const std::vector<std::size_t>& which, const decide_options& with) {
    std::vector<decision> out;
    for (std::size_t i : which) out.push_back(decide(many(base[i]), many(next[i]), with, "row"));
    return out;
  };
  std::vector<std::size_t> everyone(m);
  for (std::size_t i = 0; i < m; ++i) everyone[i] = i;
  std::vector<decision> ds = at(everyone, o);
  family_calls c;
  auto called = [](const decision& x) { return x.v == verdict::slower || x.v == verdict::faster; };
  for (std::size_t i = 0; i < m; ++i) {
    c.alone += called(ds[i]);
    c.alone_changed += i < changed && ds[i].v == verdict::slower;
  }
  const std::vector<decision> strict = at(everyone, at_level(o, (1 - o.confidence) / static_cast<double>(m)));
  for (std::size_t i = 0; i < changed; ++i) c.bonferroni_changed += strict[i].v == verdict::slower;
  (void)correct_family(ds, o, at);
  for (std::size_t i = 0; i < m; ++i) {
    c.corrected += called(ds[i]);
    c.kept_changed += i < changed && ds[i].v == verdict::slower;
  }
  return c;
}

// Two runs of one commit, a hundred rows at 99 %: alone, about two comparisons in three
// call something; as one family, about one in a hundred.
TEST(ReportFamily, AnUnchangedComparisonOfManyRowsCallsNothing) {
  decide_options o;
  o.threshold = 0;
  o.resolution_us = 0;
  o.confidence = 0.99;
  int noisy_alone = 0, noisy_corrected = 0;
  const int families = 40;
  for (int f = 0; f < families; ++f) {
    const family_calls c = call_family(100, 0, 1.0, static_cast<std::uint64_t>(f + 1), o);
    noisy_alone += c.alone > 0;
    noisy_corrected += c.corrected > 0;
  }
  EXPECT_GE(noisy_alone, families / 3) << noisy_alone;
  EXPECT_LE(noisy_corrected, 2) << noisy_corrected;
}

// What the correction costs: a changed row among many other changed rows needs level
// 1 - k q / m with k the calls kept, between the 99 % of a row alone and the 99.99 % of
// Bonferroni's correction over a hundred, which every row needs when one changed alone.
TEST(ReportFamily, TheMoreRowsChangedTheLessEachNeeds) {
  decide_options o;
  o.threshold = 0.03;
  o.margin = 0.01;
  o.resolution_us = 0;
  o.confidence = 0.99;
  auto totals = [&](std::size_t changed, std::uint64_t seed) {
    family_calls sum;
    for (std::uint64_t f = 0; f < 10; ++f) {
      const family_calls c = call_family(100, changed, 1.08, seed + f, o);
      sum.alone_changed += c.alone_changed;
      sum.kept_changed += c.kept_changed;
      sum.bonferroni_changed += c.bonferroni_changed;
    }
    return sum;
  };
  const family_calls most = totals(90, 100), few = totals(5, 200);
  // 8 % against a 5 % spread between runs, sixteen runs a side: most calls at 99 % alone.
  EXPECT_GE(most.alone_changed, 600) << most.alone_changed << " of 900";
  // Ninety changed: the level stays near 99 %, nearly every call is kept.
  EXPECT_GE(most.kept_changed, most.alone_changed * 9 / 10) << most.kept_changed << " of " << most.alone_changed;
  EXPECT_GT(most.kept_changed, most.bonferroni_changed * 3 / 2) << most.kept_changed << " vs " << most.bonferroni_changed;
  // Five changed: hardly more than Bonferroni, far fewer than alone.
  EXPECT_GE(few.kept_changed, few.bonferroni_changed);
  EXPECT_LT(few.kept_changed, few.alone_changed * 2 / 3) << few.kept_changed << " of " << few.alone_changed;
}

// A run with its own interval (+-`half` relative) at `clock_mhz`.
run with_interval(double us, double half, double clock_mhz) {
  run r;
  r.time_us = us;
  r.ci_low_us = us * (1 - half);
  r.ci_high_us = us * (1 + half);
  r.sm_clock_mhz = clock_mhz;
  return r;
}

// A short row's batch figure: the per-launch median of `launches` back-to-back launches.
void add_batch(run& r, double us, double half, double launches) {
  r.batch.us = us;
  r.batch.ci_low_us = us * (1 - half);
  r.batch.ci_high_us = us * (1 + half);
  r.batch.samples = 20;
  r.batch.launches = launches;
  r.batch.sm_clock_mhz = r.sm_clock_mhz;
}

// The H200's 2.94 -> 2.78 us row: single launches do not resolve 0.16 us (the timer's
// step where the files do not measure it is 0.5 us), its batches do.
// Here without the absolute run-to-run floor (next test).
TEST(ReportVerdict, AShortRowIsDecidedOnItsBatchFigure) {
  decide_options o;
  o.run_spread_us = 0;
  run base = with_interval(2.94, 0.01, 1980), next = with_interval(2.78, 0.01, 1980);
  decision d = decide(one(base), one(next), o, "x");
  EXPECT_EQ(d.fig, figure::single);
  EXPECT_EQ(d.v, verdict::unsure);
  EXPECT_EQ(d.why.text, "too small");
  add_batch(base, 2.94, 0.004, 100);
  add_batch(next, 2.78, 0.004, 100);
  d = decide(one(base), one(next), o, "x");
  EXPECT_EQ(d.fig, figure::batch);
  EXPECT_EQ(d.v, verdict::faster) << d.why.text;
  EXPECT_NEAR(d.change, 2.78 / 2.94 - 1, 1e-12);
  EXPECT_NEAR(d.resolution_us, std::hypot(2.94, 2.78) * 0.004, 1e-12) << "a launch's step is 0.005 us: the intervals bind";
  // Batch samples kept on both sides: the bootstrap decides, on the batches.
  for (double k = 0; k < 9; ++k) {
    base.batch.samples_us.push_back(2.94 * (1 + (k - 4) * 0.001));
    next.batch.samples_us.push_back(2.78 * (1 + (k - 4) * 0.001));
  }
  d = decide(one(base), one(next), o, "x");
  EXPECT_EQ(d.fig, figure::batch);
  EXPECT_EQ(d.from, evidence::samples);
  EXPECT_EQ(d.v, verdict::faster);
  // A batch figure without its interval, or on one side only, decides nothing.
  next.batch.ci_low_us = NAN;
  EXPECT_EQ(decide(one(base), one(next), o, "x").fig, figure::single);
  next.batch = {};
  EXPECT_EQ(decide(one(base), one(next), o, "x").fig, figure::single);
}

// One process against one: a few-microsecond row moves by about 0.1 us between processes
// (H100, reports/h100/2026-11-27_93056bc), 3-4 % of a 2.9 us row, however tight each run's
// batches are: -5.4 % is no evidence then. On a 40 us row the same 0.1 us is 0.25 %.
TEST(ReportVerdict, AProcessesJitterOfATenthOfAMicrosecondCounts) {
  run base = with_interval(2.94, 0.01, 1980), next = with_interval(2.78, 0.01, 1980);
  add_batch(base, 2.94, 0.004, 100);
  add_batch(next, 2.78, 0.004, 100);
  const decide_options o;
  EXPECT_DOUBLE_EQ(o.run_spread_us, 0.1);
  decision d = decide(one(base), one(next), o, "x");
  EXPECT_EQ(d.fig, figure::batch);
  EXPECT_NE(d.v, verdict::faster) << d.low << " " << d.high;
  EXPECT_LT(d.low, -0.08) << "the interval carries sqrt(2) x 0.1 / 2.94 us a side";
  EXPECT_NEAR(o.run_spread_at(run::work_kind::kernel, 2.94), std::hypot(0.005, 0.1 / 2.94), 1e-12);
  EXPECT_NEAR(o.run_spread_at(run::work_kind::host, 2.94), std::hypot(0.15, 0.1 / 2.94), 1e-12);
  EXPECT_DOUBLE_EQ(o.run_spread_at(run::work_kind::kernel, NAN), 0.005) << "unknown time: the relative part";
  base = with_interval(40, 0.001, 1980);
  next = with_interval(37.84, 0.001, 1980);
  d = decide(one(base), one(next), o, "x");
  EXPECT_EQ(d.v, verdict::faster) << d.why.text;
}

TEST(ReportVerdict, TheBatchFigureDecidesOnlyWhereItResolvesMore) {
  run base = with_interval(50, 0.001, 1980), next = with_interval(56, 0.001, 1980);
  add_batch(base, 48, 0.02, 10);  // batches spreading 20 times more than the single launches
  add_batch(next, 53, 0.02, 10);
  side b = one(base), n = one(next);
  b.timer_resolution_us = n.timer_resolution_us = 0.032;
  EXPECT_EQ(better_figure(b, n), figure::single);
  EXPECT_EQ(decide(b, n, {}, "x").fig, figure::single);
}

TEST(ReportVerdict, TheResolutionFloorIsWhatTheMeasurementResolves) {
  run base = with_interval(3, 0, 1980), next = with_interval(3.3, 0, 1980);
  side b = one(base), n = one(next);
  const decide_options o;
  EXPECT_TRUE(std::isnan(o.resolution_us)) << "auto by default";
  EXPECT_DOUBLE_EQ(resolved_us(b, n, o), default_timer_step_us) << "files that do not measure their timer";
  b.timer_resolution_us = 0.032;
  n.timer_resolution_us = 0.064;
  EXPECT_DOUBLE_EQ(resolved_us(b, n, o), 0.064) << "the coarser side's timer";
  base.ci_low_us = 2.9;  // the sides' own intervals: their half-widths in quadrature
  base.ci_high_us = 3.1;
  next.ci_low_us = 3.15;
  next.ci_high_us = 3.45;
  EXPECT_NEAR(resolved_us(b, n, o), std::hypot(0.1, 0.15), 1e-12);
  decide_options fixed;
  fixed.resolution_us = 0.5;
  EXPECT_DOUBLE_EQ(resolved_us(b, n, fixed), 0.5) << "--resolution overrides";
  // Batches time many launches a step: the batch figure's step is the timer's over them.
  add_batch(base, 3, 0, 64);
  add_batch(next, 3.3, 0, 64);
  EXPECT_DOUBLE_EQ(resolved_us(batch_side(b), batch_side(n), o), 0.064 / 64);
  EXPECT_EQ(resolution_text(0.5), "0.5 us");
}

TEST(ReportVerdict, AChangeTheMeasuredTimerResolvesCounts) {
  const run base = with_interval(3, 0.002, 1980), next = with_interval(3.3, 0.002, 1980);  // +10 %, 0.3 us
  EXPECT_EQ(decide(one(base), one(next), {}, "x").why.text, "too small") << "the 0.5 us fallback";
  side b = one(base), n = one(next);
  b.timer_resolution_us = n.timer_resolution_us = 0.032;
  const decision d = decide(b, n, {}, "x");
  EXPECT_EQ(d.v, verdict::slower) << d.why.text;
  EXPECT_DOUBLE_EQ(d.resolution_us, 0.032);
}

TEST(ReportVerdict, RowsAtTheTimersFloorAreNeverCalled) {
  const run base = sampled(100, 0.003, 200, 21);
  run next = scaled(sampled(100, 0.003, 200, 22), 1.12);
  next.at_timer_floor = true;
  expect_unsure(base, next, "at the timer's floor");
  expect_unsure(next, base, "at the timer's floor");
}

TEST(ReportVerdict, AChangeTheClocksExplainIsUnsure) {
  const run base = with_interval(100, 0.002, 1980);
  run next = with_interval(106, 0.002, 1870);  // +6 % in time at a 5.6 % lower clock
  expect_unsure(base, next, "clock: +6.0 % in time, +0.1 % in cycles (1980 vs 1870 MHz)");
  next.sm_clock_mhz = 1930;  // within --clock-tolerance, still most of the change
  const decision d = expect_unsure(base, next, "clock: +6.0 % in time, +3.3 % in cycles (1980 vs 1930 MHz)");
  EXPECT_NEAR(d.cycles_change, 1.06 * 1930 / 1980 - 1, 1e-12);
  EXPECT_NEAR(d.cycles_low, (1 + d.low) * 1930 / 1980 - 1, 1e-12) << "the same interval, shifted by the clocks";
  // Faster in time at a higher clock: no faster in cycles.
  run quick = with_interval(94, 0.002, 2100);
  EXPECT_EQ(decide(one(base), one(quick), {}, "x").why.text, "clock: -6.0 % in time, -0.3 % in cycles (1980 vs 2100 MHz)");
}

TEST(ReportVerdict, AChangeThatHoldsInCyclesTooIsCalled) {
  const run base = with_interval(100, 0.002, 1980);
  const run next = with_interval(110, 0.002, 1950);  // +10 % in time, +8.3 % in cycles
  const decision d = decide(one(base), one(next), {}, "x");
  EXPECT_EQ(d.v, verdict::slower) << d.why.text;
  EXPECT_NEAR(d.cycles_change, 1.10 * 1950 / 1980 - 1, 1e-12);
  // Where clocks are no reason (fleet), cycles are not asked.
  decide_options fleet_like;
  fleet_like.clock_tolerance = INFINITY;
  const decision f = decide(one(base), one(with_interval(106, 0.002, 1870)), fleet_like, "x");
  EXPECT_EQ(f.v, verdict::slower);
  EXPECT_TRUE(std::isnan(f.cycles_change));
}

}  // namespace
}  // namespace membench::report

namespace membench::report {
namespace {

TEST(ReportReasons, EveryCodeHasOneEntryAndTheDocsHoldTheTable) {
  EXPECT_TRUE(reason_table_in_order());
  EXPECT_STREQ(to_string(reason_code::timer_floor), "timer_floor");
  EXPECT_STREQ(to_string(reason_code::within), "within");
  std::ifstream in(MEMBENCH_REASONS_DOC, std::ios::binary);
  std::ostringstream doc;
  doc << in.rdbuf();
  const std::string text = doc.str();
  const auto begin = text.find("<!-- reason-codes -->");
  const auto end = text.find("<!-- /reason-codes -->\n");
  ASSERT_NE(begin, std::string::npos) << "docs/reasons.md has no reason-codes table";
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(text.substr(begin, end + std::strlen("<!-- /reason-codes -->\n") - begin), reasons_markdown())
      << "docs/reasons.md's table differs from tools/report/stats/reasons.cpp's; it should read:\n"
      << reasons_markdown();
}

}  // namespace
}  // namespace membench::report
