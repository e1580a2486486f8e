// Text from the inputs is data in every output: a results file's context and names reach
// Markdown (profile, the views, compare as the CI step summary shows it) and the terminal
// without becoming markup or escape sequences; cut names stay whole characters; folders and
// GPUs are named as they are (a folder called `x*`, one bus id on two hosts).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/escape.hpp"
#include "fleet/fleet_stages.hpp"
#include "core/model.hpp"
#include "p2p/peer_matrix.hpp"
#include "profile/profile.hpp"
#include "render/render.hpp"
#include "views/view_sets.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

const std::string data = MEMBENCH_REPORT_DATA;  // tests/data/report/

// Markdown made from hostile_context.json: its context (GPU name, host, commit, driver,
// compiler) and labels as text, nothing of it as HTML, a comment, a link, an image, emphasis,
// code or a terminal escape.
void expect_inert(const std::string& md) {
  for (const char* raw : {"<script", "<!--", "<img", "\x1b", "\x07", "\x7f", "![x]", "*bold*", "_em_", "`code`", "~~gone"})
    EXPECT_EQ(md.find(raw), std::string::npos) << "'" << visible_controls(raw) << "' as it came, in:\n" << md;
  for (std::size_t at = md.find("]("); at != std::string::npos; at = md.find("](", at + 1))
    EXPECT_TRUE(at > 0 && md[at - 1] == '\\') << "a link: " << md.substr(at, 20);
}

TEST(ReportHostile, ProfileMarkdownShowsTheContextAsText) {
  const std::string md = render_profile_markdown(build_profiles({load_results(data + "hostile_context.json")}), {});
  expect_inert(md);
  EXPECT_NE(md.find("# &lt;script&gt;alert(1)&lt;/script&gt; — memory profile\n"), std::string::npos) << md;
  EXPECT_NE(md.find("\\[x\\](http://evil)"), std::string::npos) << "the commit, as text";
  EXPECT_NE(md.find("\\!\\[x\\](http://evil/i.png)"), std::string::npos) << "the NVML driver, as text";
  EXPECT_NE(md.find("\\\\x1b\\[31m12080"), std::string::npos) << "ESC shown as \\x1b";
  EXPECT_NE(md.find("| compiler | \\*bold\\* \\_em\\_ \\`code\\` \\~\\~gone\\~\\~ \\| pipe \\\\ back\\\\x7f |\n"),
            std::string::npos)
      << "one cell: its pipe escaped";
}

TEST(ReportHostile, ViewsAndCompareMarkdownShowTheContextAsText) {
  const result_file f = load_results(data + "hostile_context.json");
  const document gpus = view_gpus({f}, {});
  const document compare = view_compare(f, f, {}).doc;  // what the CI gate appends to the step summary
  const document table = view_table({f}, {});
  for (const document* d : {&gpus, &compare, &table}) expect_inert(render(*d, format::markdown, false));
  EXPECT_NE(render(gpus, format::markdown, false).find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(render(compare, format::markdown, false).find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

TEST(ReportHostile, TheTerminalGetsNoControlBytesFromTheInput) {
  const result_file f = load_results(data + "hostile_context.json");
  const std::string gpus = render(view_gpus({f}, {}), format::terminal, false);
  for (const char raw : {'\x1b', '\x07', '\x7f'}) EXPECT_EQ(gpus.find(raw), std::string::npos) << gpus;
  EXPECT_NE(gpus.find("\\x1b[31m12080\\x1b[0m\\x1b]0;owned\\x07"), std::string::npos) << gpus;
  const std::string compare = render(view_compare(f, f, {}).doc, format::terminal, false);
  for (const char raw : {'\x1b', '\x07', '\x7f'}) EXPECT_EQ(compare.find(raw), std::string::npos) << compare;
}

// `cat page.html` runs what the page holds: control bytes from the inputs are shown as text
// there too.
TEST(ReportHostile, HtmlPagesHoldNoControlBytesFromTheInput) {
  const result_file f = load_results(data + "hostile_context.json");
  for (const std::string& page : {render_html(view_gpus({f}, {})), render_html(view_compare(f, f, {}).doc),
                                  render_profile_html(build_profiles({f}))}) {
    for (const std::string_view raw : {"\x1b", "\x07", "\x7f", "\xc2\x9b"})
      EXPECT_EQ(page.find(raw), std::string::npos) << page.substr(0, 400);
  }
}

bool whole_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n - 1;
  }
  return true;
}

result_file run_of(const std::string& context, const std::string& path) {
  return parse_results(fmt::format(R"({{"context": {{"membench_cache_mode": "default", "gpu_name": "NVIDIA H200",
      "gpu_peak_dram_gbps": "4800", {}}}, "benchmarks": [
    {{"name": "global/read/bytes:1G", "run_type": "iteration", "repetition_index": 0, "real_time": 300,
      "time_unit": "us", "gb_per_s": 3579, "ci_low_us": 299.7, "ci_high_us": 300.3}},
    {{"name": "shared/latency/bytes:4K", "run_type": "iteration", "repetition_index": 0, "real_time": 30,
      "time_unit": "us", "ns_per_load": 11}}]}})",
                                   context),
                       path);
}

TEST(ReportHostile, ShortenedContextKeepsWholeCharacters) {
  const std::string nihon = "\xe6\x97\xa5\xe6\x9c\xac";  // 日本: three bytes a character
  const std::string grin = "\xf0\x9f\x98\x80";           // four bytes
  // history heads a run with its commit's first 7 characters, and its date's first 16.
  std::vector<result_file> runs;
  runs.push_back(run_of(fmt::format(R"("date": "2026-11-22T10:00:00", "membench_git_commit": "{0}{0}{0}{0}")", nihon), "a.json"));
  runs.push_back(run_of(fmt::format(R"("date": "2026-11-22T{0}{0}{0}{0}", "membench_git_commit": "{0}{0}")", grin), "b.json"));
  const document d = view_history(file_refs(runs), {});
  ASSERT_FALSE(d.tables.empty());
  for (const std::string& h : d.tables[0].header) EXPECT_TRUE(whole_utf8(h)) << visible_controls(h);
  EXPECT_EQ(d.tables[0].header[1], "2026-11-22 10:00 " + nihon + nihon + nihon + nihon.substr(0, 3)) << "7 characters, not bytes";
  EXPECT_EQ(d.tables[0].header[2], "2026-11-22 " + grin + grin + grin + grin + " " + grin + grin);
  // The peer matrix's axes show a UUID's first group, at most 8 characters.
  EXPECT_EQ(short_uuid("GPU-" + nihon + nihon + nihon + nihon + nihon + "-0000"), nihon + nihon + nihon + nihon);
  const std::string grins = grin + grin + grin + grin + grin + grin + grin + grin;
  EXPECT_EQ(short_uuid("GPU-" + grins + grin), grins);
}

TEST(ReportHostile, FleetLabelsKeepWholeCharacters) {
  const std::string nihon = "\xe6\x97\xa5\xe6\x9c\xac";
  const std::string grin = "\xf0\x9f\x98\x80";
  const std::string grins = grin + grin + grin + grin + grin + grin + grin + grin;
  // fleet shows a GPU by its UUID's first twelve characters (the whole UUID where two share them).
  fleet f;
  f.gpus = {{"GPU-" + nihon + nihon + nihon + nihon + nihon, "h", {}, {}},
            {"GPU-" + grins + "-1", "h", {}, {}},
            {"GPU-" + grins + "-2", "h", {}, {}}};
  const std::vector<std::string> labels = gpu_labels(f);
  ASSERT_EQ(labels.size(), 3u);
  EXPECT_EQ(labels[0], "GPU-" + nihon + nihon + nihon + nihon);
  EXPECT_EQ(labels[1], f.gpus[1].uuid) << "two GPUs alike in their first twelve characters";
  for (const std::string& l : labels) EXPECT_TRUE(whole_utf8(l)) << visible_controls(l);
}

TEST(ReportHostile, GpusTellsGpusOnTwoHostsApartAtOneBusId) {
  auto at = [](const char* host, const char* bus, const char* uuid, const char* path) {
    return run_of(fmt::format(R"("host_name": "{}", "gpu_pci_bus_id": "{}", "gpu_uuid": "{}")", host, bus, uuid), path);
  };
  const result_file a = at("node-a", "00000000:18:00.0", "GPU-a", "a.json");
  const result_file b = at("node-b", "00000000:18:00.0", "GPU-b", "b.json");
  const document d = view_gpus({a, b}, {});
  ASSERT_FALSE(d.tables.empty());
  EXPECT_NE(d.tables[0].header[1].find("[node-a 00000000:18:00.0]"), std::string::npos) << d.tables[0].header[1];
  EXPECT_NE(d.tables[0].header[3].find("[node-b 00000000:18:00.0]"), std::string::npos) << d.tables[0].header[3];
  // Only one GPU twice on one host is refused: by its UUID, or its bus id where a file has none.
  EXPECT_THROW((void)view_gpus({a, at("node-a", "00000000:18:00.0", "GPU-a", "again.json")}, {}), input_error);
  EXPECT_THROW((void)view_gpus({a, at("node-a", "00000000:18:00.0", "?", "again.json")}, {}), input_error);
  EXPECT_NO_THROW((void)view_gpus({a, at("node-a", "00000000:2A:00.0", "GPU-c", "c.json")}, {}));
  // profile: without UUIDs, one bus id on two hosts is two GPUs, two pages.
  const result_file x = at("node-a", "00000000:18:00.0", "?", "x.json");
  const result_file y = at("node-b", "00000000:18:00.0", "?", "y.json");
  EXPECT_EQ(build_profiles({x, y}).size(), 2u);
  EXPECT_EQ(build_profiles({x, at("node-a", "00000000:18:00.0", "?", "x2.json")}).size(), 1u);
}

TEST(ReportHostile, ViewsTakeTheFolderAsItIs) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / fmt::format("membench_views_{}", ::testing::UnitTest::GetInstance()->random_seed());
  fs::remove_all(root);
  // Each folder whose name is a pattern has a sibling that the pattern would match instead.
  for (const char* file : {"a[1]/r.json", "a1/s.json", "x*/a.json", "xyz/b.json", "q?/c.json", "qq/d.json"}) {
    fs::create_directories((root / file).parent_path());
    std::ofstream(root / file) << "{}";
  }
  const view_input any_json{{"*.json"}, false};
  EXPECT_EQ(resolve_input((root / "a[1]").string(), any_json), std::vector<std::string>{"r.json"});
  EXPECT_EQ(resolve_input((root / "x*").string() + "/", any_json), std::vector<std::string>{"a.json"});
  EXPECT_EQ(resolve_input((root / "q?").string(), any_json), std::vector<std::string>{"c.json"});
  EXPECT_EQ(resolve_input((root / "a1").string(), view_input{{"[rs].json"}, false}), std::vector<std::string>{"s.json"})
      << "the input itself is still a pattern";
  fs::remove_all(root);
}

}  // namespace
}  // namespace membench::report
