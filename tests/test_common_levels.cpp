// The level table against the check tier's golden list: every level row is a row membench
// registers, every row of the check tier is a level row, every level has a row.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/levels.hpp"

namespace membench {
namespace {

std::vector<std::string> check_list() {
  std::ifstream in(MEMBENCH_SOURCE_DIR "/tests/data/benchmark_list_check.txt");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

TEST(Levels, RowShapeDropsBenchmarkSuffixesAndPairs) {
  EXPECT_EQ(levels::row_shape("global/latency/load:plain/spacing:128/bytes:16K/manual_time"),
            "global/latency/load:plain/spacing:128/bytes:16K");
  EXPECT_EQ(levels::row_shape("peer/copy/access:on/dir:push/src:0/dst:1/bytes:64M/manual_time"),
            "peer/copy/access:on/dir:push/bytes:64M");
  EXPECT_EQ(levels::row_shape("shared/bandwidth/width:16/repeats:3/threads:1"), "shared/bandwidth/width:16");
  // The first two tokens are the family, whatever they spell.
  EXPECT_EQ(levels::row_shape("src:0/dst:1"), "src:0/dst:1");
  EXPECT_EQ(levels::row_shape(""), "");
}

TEST(Levels, EveryRowNamesALevelAndEveryLevelHasRows) {
  std::set<std::string_view> keys;
  for (const levels::level& l : levels::all()) EXPECT_TRUE(keys.insert(l.key).second) << l.key;
  for (const levels::level_row& r : levels::rows()) {
    EXPECT_NE(levels::find(r.level), nullptr) << r.row;
    EXPECT_EQ(levels::row_of(r.row), &r) << r.row << ": listed twice";
  }
  for (const levels::level& l : levels::all()) {
    const bool has = std::any_of(levels::rows().begin(), levels::rows().end(),
                                 [&](const levels::level_row& r) { return r.level == l.key; });
    EXPECT_TRUE(has) << l.key;
  }
}

TEST(Levels, TheCheckTierIsExactlyTheLevelRows) {
  const std::vector<std::string> listed = check_list();
  ASSERT_FALSE(listed.empty());
  std::set<std::string> shapes;
  for (const std::string& name : listed) {
    EXPECT_NE(levels::row_of(name), nullptr) << name << " is in the check tier but no level's row";
    shapes.insert(levels::row_shape(name));
  }
  for (const levels::level_row& r : levels::rows()) {
    EXPECT_EQ(shapes.count(std::string(r.row)), 1u) << r.row << " is a level row membench does not register";
  }
}

}  // namespace
}  // namespace membench
