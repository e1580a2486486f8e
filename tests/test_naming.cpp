#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/naming.hpp"

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
  for (const auto& k : name_keys()) {
    EXPECT_FALSE(k.unit.empty()) << k.key;
    EXPECT_FALSE(k.meaning.empty()) << k.key;
  }
}

}  // namespace
}  // namespace membench
