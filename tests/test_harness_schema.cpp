// The schema is the one list of JSON keys: no key twice, every key documented, and the
// docs' tables (docs/schema.md) are exactly what it prints (drift fails here).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

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

// The docs hold each table between `<!-- schema:NAME -->` and `<!-- /schema:NAME -->`
// (docs/schema.md; any Markdown file in docs/, or README.md, may hold one, and every copy
// is checked); `membench-report schema NAME` prints it for pasting.
struct doc_file {
  std::string name;  ///< relative to the source tree: "docs/schema.md"
  std::string text;
};

std::vector<doc_file> markdown_docs() {
  const std::filesystem::path root = MEMBENCH_SOURCE_DIR;
  std::vector<std::filesystem::path> paths{root / "README.md"};
  std::vector<std::filesystem::path> docs;
  std::error_code no_docs;  // reported below as "no Markdown files"
  for (const auto& e : std::filesystem::directory_iterator(root / "docs", no_docs)) {
    if (e.is_regular_file() && e.path().extension() == ".md") docs.push_back(e.path());
  }
  std::sort(docs.begin(), docs.end());
  paths.insert(paths.end(), docs.begin(), docs.end());
  std::vector<doc_file> out;
  for (const auto& p : paths) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    out.push_back({std::filesystem::relative(p, root).generic_string(), ss.str()});
  }
  return out;
}

TEST(Schema, DocsTablesAreTheSchema) {
  const auto docs = markdown_docs();
  ASSERT_GT(docs.size(), 1u) << "no Markdown files under " MEMBENCH_SOURCE_DIR "/docs";
  for (std::string_view name : schema::table_names()) {
    const std::string open = "<!-- schema:" + std::string(name) + " -->\n";
    const std::string close = "<!-- /schema:" + std::string(name) + " -->";
    const std::string want = schema::markdown_table(name);
    int copies = 0;
    for (const auto& doc : docs) {
      for (auto a = doc.text.find(open); a != std::string::npos; a = doc.text.find(open, a + open.size())) {
        const auto b = doc.text.find(close, a);
        ASSERT_NE(b, std::string::npos) << doc.name << " opens the " << name << " table but has no " << close;
        ++copies;
        EXPECT_EQ(doc.text.substr(a + open.size(), b - a - open.size()), want)
            << doc.name << "'s " << name << " table differs from the schema: replace it with the output of "
            << "`membench-report schema " << name << "`";
      }
    }
    EXPECT_GT(copies, 0) << "no docs/*.md (nor README.md) holds the " << name << " table between `<!-- schema:"
                         << name << " -->` and `" << close << "`";
  }
}

}  // namespace
}  // namespace membench
