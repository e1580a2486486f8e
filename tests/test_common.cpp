#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "common/naming.hpp"
#include "common/schema.hpp"
#include "common/stats.hpp"

namespace membench {
namespace {

TEST(FormatSize, UsesLargestExactBinaryUnit) {
  EXPECT_EQ(format_size(16 << 10), "16K");
  EXPECT_EQ(format_size(std::uint64_t{1} << 30), "1G");
  EXPECT_EQ(format_size(std::uint64_t{3} << 29), "1536M");
  EXPECT_EQ(format_size(1000), "1000");
  EXPECT_EQ(format_size(0), "0");
  EXPECT_EQ(format_size(std::uint64_t{2} << 40), "2T");
}

TEST(ParseSize, InvertsFormatSize) {
  for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1000}, std::uint64_t{16} << 10,
                          std::uint64_t{1536} << 20, std::uint64_t{2} << 30, std::uint64_t{5} << 40}) {
    EXPECT_EQ(parse_size(format_size(v)), v) << v;
  }
}

TEST(ParseSize, RejectsBadText) {
  for (const char* bad : {"", "K", "12k", "1.5G", "-1", "64MB", "99999999999999999999", "20000000T"}) {
    EXPECT_THROW(parse_size(bad), std::invalid_argument) << bad;
  }
}

TEST(BenchName, FormatsInKeyOrder) {
  bench_name n{"global", "read_offset", {{"type", "f32"}, {"offset", "4"}, {"l2", "cold"}, {"bytes", "64M"}}};
  EXPECT_EQ(n.str(), "global/read_offset/type:f32/offset:4/l2:cold/bytes:64M");
  EXPECT_EQ(n.family(), "global/read_offset");
  EXPECT_EQ(n.get("offset"), "4");
  EXPECT_FALSE(n.get("stride").has_value());
}

TEST(BenchName, RoundTripsThroughGoogleBenchmarkSuffixes) {
  bench_name n{"global", "copy", {{"width", "16"}, {"unroll", "4"}, {"block", "256"}, {"style", "gridstride"},
                                  {"l2", "cold"}, {"bytes", "1G"}}};
  const std::string s = n.str();
  EXPECT_EQ(parse_name(s), n);
  EXPECT_EQ(parse_name(s + "/manual_time"), n);
  EXPECT_EQ(parse_name(s + "/manual_time_mean"), n);
  EXPECT_EQ(parse_name(s + "/repeats:10/manual_time_cv"), n);
  // Every segment Google Benchmark may append, in the order its BenchmarkName writes them.
  EXPECT_EQ(parse_name(s + "/min_time:0.500/min_warmup_time:0.100/iterations:7/repeats:3/process_time/real_time/threads:2"),
            n);
}

TEST(BenchName, StripsTheTimeTypeOrEveryAppendedSegment) {
  using enum framework_suffix;
  for (const char* time : {"manual_time", "real_time", "process_time", "process_time/manual_time"}) {
    EXPECT_EQ(strip_framework_suffix(fmt::format("BM_x/8/{}", time), time_type), "BM_x/8") << time;
    EXPECT_EQ(strip_framework_suffix(fmt::format("BM_x/8/repeats:3/{}/threads:2", time), time_type),
              "BM_x/8/repeats:3/threads:2")
        << "the settings tell benchmarks apart: " << time;
    EXPECT_EQ(strip_framework_suffix(fmt::format("BM_x/8/min_time:0.500/iterations:9/repeats:3/{}/threads:2", time), all),
              "BM_x/8")
        << time;
  }
  EXPECT_EQ(strip_framework_suffix("BM_x/manual_time/8", time_type), "BM_x/manual_time/8") << "only at the end";
  EXPECT_EQ(strip_framework_suffix("manual_time", all), "manual_time") << "the first segment is the name";
  EXPECT_EQ(strip_framework_suffix("/manual_time", all), "/manual_time");
  EXPECT_EQ(strip_framework_suffix("", all), "");
  EXPECT_EQ(strip_framework_suffix("BM_x/8/threads:2_mean", all), "BM_x/8/threads:2_mean")
      << "an aggregate's suffix is not a segment";
}

TEST(BenchName, AnyNameDropsOnlyTheTimeType) {
  const bench_name n = parse_any_name("BM_x/1024/repeats:3/process_time/manual_time/threads:8");
  EXPECT_EQ(n.experiment, "BM_x");
  EXPECT_EQ(n.params, (std::vector<name_param>{{"arg0", "1024"}, {"repeats", "3"}, {"threads", "8"}}));
}

TEST(BenchName, RejectsUnknownKeysAndBadTokens) {
  EXPECT_THROW((bench_name{"global", "x", {{"colour", "red"}}}.str()), std::invalid_argument);
  EXPECT_THROW((bench_name{"Global", "x", {}}.str()), std::invalid_argument);
  EXPECT_THROW((bench_name{"global", "x", {{"type", "F32"}}}.str()), std::invalid_argument);
  EXPECT_THROW((bench_name{"global", "x", {{"bytes", "64MB"}}}.str()), std::invalid_argument);
  EXPECT_THROW(parse_name("global"), std::invalid_argument);
  EXPECT_THROW(parse_name("global/x/offset4"), std::invalid_argument);
  EXPECT_THROW(parse_name("global/x/stride:1/2"), std::invalid_argument);
}

TEST(NameKeys, EveryKeyHasAUnitAndMeaning) {
  for (const auto& k : schema::name_keys()) {
    EXPECT_FALSE(k.unit.empty()) << k.key;
    EXPECT_FALSE(k.meaning.empty()) << k.key;
  }
}

TEST(Summarize, EmptyIsZero) {
  const auto s = summarize({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_EQ(s.median, 0.0);
}

TEST(Summarize, OddCountMedianIsMiddle) {
  const auto s = summarize({5.0, 1.0, 3.0});
  EXPECT_EQ(s.median, 3.0);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 5.0);
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
}

TEST(Summarize, EvenCountMedianAveragesTheMiddlePair) {
  EXPECT_DOUBLE_EQ(summarize({4.0, 1.0, 3.0, 2.0}).median, 2.5);
  EXPECT_DOUBLE_EQ(summarize({2.0, 1.0}).median, 1.5);
}

TEST(Summarize, NoiseIsSampleStddevOverMean) {
  const auto s = summarize({2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0});
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  EXPECT_NEAR(s.stddev, 2.138089935, 1e-9);  // n-1 denominator
  EXPECT_NEAR(s.noise, 2.138089935 / 5.0, 1e-9);
}

TEST(Summarize, ConstantSamplesHaveNoNoise) {
  const auto s = summarize({1e-3, 1e-3, 1e-3});
  EXPECT_EQ(s.stddev, 0.0);
  EXPECT_EQ(s.noise, 0.0);
}

TEST(Quantile, InterpolatesBetweenOrderStatistics) {
  const std::vector<double> v{1, 2, 3, 4, 5};
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.5), 3);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0.1), 1.4);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 0), 1);
  EXPECT_DOUBLE_EQ(quantile_sorted(v, 1), 5);
  EXPECT_EQ(quantile_sorted({}, 0.5), 0);
  EXPECT_DOUBLE_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median_of({7, 1, 3}), 3);
}

// Past 64 samples the interval takes its two order statistics by partial sorts: they must
// be the sorted samples' ranks k and n-k+1, whatever the order the samples came in (the
// second partition once moved the low one, leaving a "low" bound above the median).
TEST(MedianInterval, PartialSortsGiveTheSortedRanks) {
  for (std::size_t n : {65u, 100u, 257u, 1000u, 4000u}) {
    std::vector<double> samples(n);
    std::uint64_t x = 12345 + n;
    for (double& s : samples) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      s = static_cast<double>(x >> 33);
    }
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const median_interval fast = median_ci(samples, 0.95);
    const median_interval exact = median_ci_sorted(sorted, 0.95);
    EXPECT_EQ(fast.low, exact.low) << n;
    EXPECT_EQ(fast.high, exact.high) << n;
    EXPECT_LE(fast.low, median_of(samples)) << n;
    EXPECT_GE(fast.high, median_of(samples)) << n;
  }
}

TEST(MedianInterval, RanksMatchTheBinomialTables) {
  // Exact binomial ranks at 95 % (e.g. Conover's tables): n=6 -> [x1, x6], n=10 -> [x2, x9],
  // n=20 -> [x6, x15], n=100 -> [x40, x61].
  EXPECT_EQ(median_ci_rank(5, 0.95), 0u) << "5 samples cannot give 95 %";
  EXPECT_EQ(median_ci_rank(6, 0.95), 1u);
  EXPECT_EQ(median_ci_rank(10, 0.95), 2u);
  EXPECT_EQ(median_ci_rank(20, 0.95), 6u);
  EXPECT_EQ(median_ci_rank(100, 0.95), 40u);
  EXPECT_EQ(median_ci_rank(10, 0.99), 1u);
  // Above 1000 samples the normal approximation continues the exact ranks smoothly.
  const double exact = static_cast<double>(median_ci_rank(1000, 0.95));
  const double approx = static_cast<double>(median_ci_rank(1001, 0.95));
  EXPECT_NEAR(approx, exact, 1.0);
}

TEST(MedianInterval, CoversAtLeastTheLevelAndIgnoresOutliers) {
  std::vector<double> v;
  for (int i = 0; i < 10; ++i) v.push_back(10 + 0.01 * i);
  const median_interval tight = median_ci(v, 0.95);
  ASSERT_TRUE(tight.defined);
  EXPECT_DOUBLE_EQ(tight.low, 10.01);
  EXPECT_DOUBLE_EQ(tight.high, 10.08);
  EXPECT_GE(tight.coverage, 0.95);
  v[0] = 1e6;  // an outlier moves neither end
  v[9] = -1e6;
  const median_interval robust = median_ci(v, 0.95);
  EXPECT_DOUBLE_EQ(robust.low, 10.01);
  EXPECT_DOUBLE_EQ(robust.high, 10.08);
  const median_interval few = median_ci({1, 2, 3}, 0.95);
  EXPECT_FALSE(few.defined) << "three samples give no 95 % interval";
}

TEST(MedianInterval, LargeSamplesUseTheRightOrderStatistics) {
  std::vector<double> v;
  for (int i = 0; i < 5000; ++i) v.push_back(i);  // uniform ranks: the interval is the ranks themselves
  const median_interval ci = median_ci(v, 0.95);
  ASSERT_TRUE(ci.defined);
  // n/2 +- 1.96 sqrt(n)/2 = 2500 +- 69.3
  EXPECT_NEAR(ci.low, 2430, 2);
  EXPECT_NEAR(ci.high, 2569, 2);
}

}  // namespace
}  // namespace membench
