// The schema is the one list of JSON keys: no key twice, every key documented, and the
// README's tables are exactly what it prints (drift fails here).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "common/schema.hpp"

namespace membench {
namespace {

void expect_unique_and_documented(std::span<const schema::field> table, const char* what) {
  std::set<std::string_view> keys;
  for (const auto& f : table) {
    EXPECT_TRUE(keys.insert(f.key).second) << what << " key twice: " << f.key;
    EXPECT_FALSE(f.unit.empty()) << what << " " << f.key;
    EXPECT_FALSE(f.meaning.empty()) << what << " " << f.key;
  }
}

TEST(Schema, EveryKeyOnceWithUnitAndMeaning) {
  expect_unique_and_documented(schema::counters(), "counter");
  expect_unique_and_documented(schema::name_keys(), "name key");
  expect_unique_and_documented(schema::context_keys(), "context key");
  expect_unique_and_documented(schema::labels(), "label");
  std::set<std::string_view> flags;
  for (const auto& o : schema::options()) EXPECT_TRUE(flags.insert(o.flag).second) << o.flag;
}

TEST(Schema, LookupsFindWhatTheTablesHold) {
  static_assert(schema::counter("t_median_us").unit == "us");
  static_assert(schema::name_key("bytes").unit == "bytes");
  static_assert(schema::context_key("gpu_name").key == "gpu_name");
  EXPECT_NE(schema::find_counter("ci_low_us"), nullptr);
  EXPECT_EQ(schema::find_counter("no_such_counter"), nullptr);
  EXPECT_EQ(schema::find_context_key("gpu_nam"), nullptr);
}

TEST(Schema, TablesRenderAsMarkdown) {
  for (std::string_view name : schema::table_names()) {
    const std::string md = schema::markdown_table(name);
    ASSERT_FALSE(md.empty()) << name;
    EXPECT_EQ(md.rfind("| ", 0), 0u) << name;
  }
  EXPECT_TRUE(schema::markdown_table("no_such_table").empty());
}

// README.md holds each table between `<!-- schema:NAME -->` and `<!-- /schema:NAME -->`;
// `membench-report schema NAME` prints it for pasting.
TEST(Schema, ReadmeTablesAreTheSchema) {
  std::ifstream in(MEMBENCH_SOURCE_DIR "/README.md");
  ASSERT_TRUE(in) << "README.md not found";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string readme = ss.str();
  for (std::string_view name : schema::table_names()) {
    const std::string open = "<!-- schema:" + std::string(name) + " -->\n";
    const std::string close = "<!-- /schema:" + std::string(name) + " -->";
    const auto a = readme.find(open);
    ASSERT_NE(a, std::string::npos) << "README.md has no " << open;
    const auto b = readme.find(close, a);
    ASSERT_NE(b, std::string::npos) << "README.md has no " << close;
    EXPECT_EQ(readme.substr(a + open.size(), b - a - open.size()), schema::markdown_table(name))
        << "README.md's " << name << " table differs from the schema: replace it with the output of "
        << "`membench-report schema " << name << "`";
  }
}

}  // namespace
}  // namespace membench
