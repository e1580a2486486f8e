// membench-report's peer views without a GPU: where a peer row goes in its matrix (case,
// source, destination), the matrices p2p draws from hand-made rows and from the fixtures
// (tests/data/report/peer_*.json, made by tests/report/make_peer_fixtures.py), and gpus
// judging each row against its own ceiling. The CLI outputs are golden files.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/model.hpp"
#include "p2p/peer_matrix.hpp"
#include "render/render.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

const std::string data = MEMBENCH_REPORT_DATA;  // tests/data/report/

// A measured row: its name and counters (JSON members, without braces).
std::string row(const std::string& name, const std::string& counters, double time_us = 100) {
  return fmt::format(R"({{"name": "{0}/manual_time", "run_name": "{0}/manual_time", "run_type": "iteration",
    "repetition_index": 0, "real_time": {1}, "time_unit": "us", "ci_low_us": {2}, "ci_high_us": {3}{4}{5}}})",
                     name, time_us, 0.99 * time_us, 1.01 * time_us, counters.empty() ? "" : ", ", counters);
}

std::string error_row(const std::string& name, const std::string& message) {
  return fmt::format(R"({{"name": "{0}/manual_time", "run_name": "{0}/manual_time", "run_type": "iteration",
    "repetition_index": 0, "real_time": 0, "time_unit": "us", "error_occurred": true, "error_message": "{1}"}})",
                     name, message);
}

result_file file_of(const std::vector<std::string>& rows, const std::string& path = "peer.json",
                    const std::string& uuids = "", const std::string& level = "95") {
  std::string context = fmt::format(R"("membench_cache_mode": "default", "gpu_name": "NVIDIA H100 80GB HBM3",
    "membench_ci_level_pct": "{}")", level);
  if (!uuids.empty()) context += fmt::format(R"(, "peer_gpu_uuids": "{}")", uuids);
  return parse_results(fmt::format(R"({{"context": {{{}}}, "benchmarks": [{}]}})", context, fmt::join(rows, ",\n")),
                       path);
}

TEST(ReportPeer, ACaseIsTheNameWithoutSrcAndDst) {
  const auto p = peer_place_of("peer/copy/access:on/dir:push/src:3/dst:12/bytes:64M");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->case_key, "peer/copy/access:on/dir:push/bytes:64M");
  EXPECT_EQ(p->src, 3);
  EXPECT_EQ(p->dst, 12);
  const auto into = peer_place_of("peer/all_to_one/access:on/dst:1/bytes:64M");
  ASSERT_TRUE(into);
  EXPECT_EQ(into->case_key, "peer/all_to_one/access:on/bytes:64M");
  EXPECT_EQ(into->src, -1);
  EXPECT_EQ(into->dst, 1);
  const auto from = peer_place_of("peer/one_to_all/access:on/src:0/bytes:1M");
  ASSERT_TRUE(from);
  EXPECT_EQ(from->src, 0);
  EXPECT_EQ(from->dst, -1);
  EXPECT_EQ(peer_place_of("peer/latency/src:0/dst:1/bytes:4M")->case_key, "peer/latency/bytes:4M");
  EXPECT_FALSE(peer_place_of("global/read/src:0/dst:1/bytes:1G")) << "another space";
  EXPECT_FALSE(peer_place_of("peer/copy/access:on/dir:d0_d1/bytes:64M")) << "the older pair rows";
  EXPECT_FALSE(peer_place_of("peer/copy/srcx:1/bytes:64M")) << "a key that only begins like src";
  EXPECT_THROW((void)peer_place_of("peer/copy/src:x/dst:1/bytes:1M"), input_error);
  EXPECT_THROW((void)peer_place_of("peer/copy/src:-1/dst:1/bytes:1M"), input_error);
  EXPECT_THROW((void)peer_place_of("peer/copy/src:99999999999/dst:1/bytes:1M"), input_error);
  EXPECT_THROW((void)peer_place_of("peer/copy/src:0/src:1/dst:1/bytes:1M"), input_error);
}

TEST(ReportPeer, UuidsFromTheContext) {
  const auto u = parse_peer_uuids("0=GPU-aaaa1111-22,1=GPU-bbbb", "x.json");
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(u.at(1), "GPU-bbbb");
  EXPECT_EQ(short_uuid("GPU-1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d"), "1a2b3c4d");
  EXPECT_EQ(short_uuid("GPU-123456789abc"), "12345678") << "at most eight digits";
  EXPECT_TRUE(parse_peer_uuids("", "x.json").empty());
  for (const char* bad : {"0", "0=", "x=GPU-a", "0=GPU-a,0=GPU-b", "0=GPU-a,,1=GPU-b"})
    EXPECT_THROW((void)parse_peer_uuids(bad, "x.json"), input_error) << bad;
}

TEST(ReportPeer, MatricesMarkTheDiagonalMissingPairsAndErrors) {
  const result_file f = file_of({row("peer/copy/access:on/dir:push/src:0/dst:1/bytes:1M", R"("gb_per_s": 300)"),
                                 row("peer/copy/access:on/dir:push/src:1/dst:2/bytes:1M", R"("gb_per_s": 301)"),
                                 error_row("peer/copy/access:on/dir:push/src:2/dst:0/bytes:1M", "verification failed"),
                                 error_row("peer/copy/access:on/dir:push/src:2/dst:1/bytes:1M", "skipped: no peer access"),
                                 row("global/read/bytes:1G", R"("gb_per_s": 3000)")});
  const document d = view_p2p({f}, {});
  ASSERT_EQ(d.tables.size(), 1u) << "global/read is no peer row";
  const table& t = d.tables[0];
  EXPECT_EQ(t.title, "peer/copy/access:on/dir:push/bytes:1M");
  ASSERT_EQ(t.rows.size(), 3u) << "every GPU a row or the context names: 0, 1, 2";
  EXPECT_EQ(t.header.size(), 4u);
  EXPECT_EQ(t.rows[0][1].text, "-");
  EXPECT_EQ(t.rows[1][2].text, "-");
  EXPECT_DOUBLE_EQ(t.rows[0][2].value, 300);
  EXPECT_EQ(t.rows[0][2].text, "300.0 ±1%") << "the interval of the median, no link";
  EXPECT_EQ(t.rows[0][3].text, "missing");
  EXPECT_EQ(t.rows[2][1].text, "error");
  EXPECT_EQ(t.rows[2][1].mood, tone::bad);
  EXPECT_EQ(t.rows[2][2].text, "skipped");
  ASSERT_TRUE(t.heat) << "no link: shaded against the largest";
  EXPECT_DOUBLE_EQ(t.heat->top, 301);
  EXPECT_NEAR(t.rows[0][2].heat, 300.0 / 301, 1e-12);
  EXPECT_TRUE(std::isnan(t.rows[0][3].heat));
}

TEST(ReportPeer, ARowOnTheDiagonalIsShown) {
  const result_file f = file_of({row("peer/copy/access:on/dir:push/src:0/dst:0/bytes:1M", R"("gb_per_s": 2000)"),
                                 row("peer/copy/access:on/dir:push/src:0/dst:1/bytes:1M", R"("gb_per_s": 300)")});
  const table t = view_p2p({f}, {}).tables.at(0);
  EXPECT_DOUBLE_EQ(t.rows[0][1].value, 2000);
  EXPECT_EQ(t.rows[1][2].text, "-");
}

TEST(ReportPeer, CellsSayTheirShareOfTheLinkAndAreShadedByIt) {
  const std::string link = R"("gb_per_s": 390, "link_gb_per_s": 478.1, "pct_of_link": 81.57, "link_nvlinks": 18)";
  const result_file f = file_of({row("peer/copy/access:on/dir:push/src:0/dst:1/bytes:64M", link),
                                 row("peer/copy/access:on/dir:push/src:1/dst:0/bytes:64M", link)},
                                "peer.json", "0=GPU-00c0ffee-1,1=GPU-11c0ffee-2");
  const document d = view_p2p({f}, {});
  const table& t = d.tables.at(0);
  EXPECT_EQ(t.header.at(1), "0 (00c0ffee)") << "the axes name each GPU";
  EXPECT_EQ(t.rows.at(1).at(0).text, "1 (11c0ffee)");
  EXPECT_EQ(t.rows[0][2].text, "390.0 ±1% (82%)");
  ASSERT_TRUE(t.heat);
  EXPECT_DOUBLE_EQ(t.heat->top, 100);
  EXPECT_NEAR(t.rows[0][2].heat, 0.8157, 1e-12);
  const table pct = view_p2p({f}, {.value = "pct_of_link"}).tables.at(0);
  EXPECT_EQ(pct.rows[0][2].text, "81.57 ±1%") << "the share is the value: not twice";
  EXPECT_THROW((void)view_p2p({f}, {.value = "ns_per_load"}), input_error) << "no row has it";
}

TEST(ReportPeer, LatencyShowsNsPerLoadAndAggregatesAreOneRow) {
  const result_file f = file_of({row("peer/latency/src:0/dst:1/bytes:4M", R"("ns_per_load": 790.5)"),
                                 row("peer/latency/src:1/dst:0/bytes:4M", R"("ns_per_load": 810)"),
                                 row("peer/all_to_one/access:on/dst:1/bytes:64M", R"("gb_per_s": 395)"),
                                 row("peer/one_to_all/access:on/src:0/bytes:64M", R"("gb_per_s": 396)")});
  const document d = view_p2p({f}, {});
  ASSERT_EQ(d.tables.size(), 3u);
  EXPECT_EQ(d.tables[0].title, "peer/latency/bytes:4M");
  EXPECT_DOUBLE_EQ(d.tables[0].rows[0][2].value, 790.5);
  EXPECT_NE(d.tables[0].unit.find("ns"), std::string::npos);
  const table& into = d.tables[1];
  ASSERT_EQ(into.rows.size(), 1u);
  EXPECT_EQ(into.header[0], "dst\u2192");
  EXPECT_EQ(into.rows[0][1].text, "missing") << "no row into GPU 0";
  EXPECT_DOUBLE_EQ(into.rows[0][2].value, 395);
  const table& from = d.tables[2];
  EXPECT_EQ(from.header[0], "src\u2192");
  EXPECT_DOUBLE_EQ(from.rows[0][1].value, 396);
  // --value gb_per_s leaves the latency case out and says so.
  const document gb = view_p2p({f}, {.value = "gb_per_s"});
  EXPECT_EQ(gb.tables.size(), 2u);
  EXPECT_NE(fmt::format("{}", fmt::join(gb.notes, "\n")).find("left out: 1 case(s) without gb_per_s: peer/latency"),
            std::string::npos);
}

TEST(ReportPeer, OneHostsFilesMakeOneMatrix) {
  const std::string a = row("peer/copy/access:on/dir:push/src:0/dst:1/bytes:1M", R"("gb_per_s": 300)");
  const std::string b = row("peer/copy/access:on/dir:push/src:1/dst:0/bytes:1M", R"("gb_per_s": 310)");
  const std::string skipped = error_row("peer/copy/access:on/dir:push/src:1/dst:0/bytes:1M", "skipped: not here");
  // Each GPU's file measures its own row: together one matrix, a measured row over a skipped one.
  const std::vector<result_file> files{file_of({a, skipped}, "gpu0.json"), file_of({b}, "gpu1.json")};
  const table t = view_p2p(files, {}).tables.at(0);
  EXPECT_DOUBLE_EQ(t.rows[1][1].value, 310);
  EXPECT_THROW((void)view_p2p({file_of({a}, "x.json"), file_of({a}, "y.json")}, {}), input_error)
      << "one row measured twice: two runs";
  EXPECT_THROW((void)view_p2p({file_of({a}, "x.json", "0=GPU-a"), file_of({b}, "y.json", "0=GPU-b")}, {}),
               input_error)
      << "two hosts";
  EXPECT_THROW((void)view_p2p({file_of({a}, "x.json"), file_of({b}, "y.json", "", "99")}, {}), input_error)
      << "intervals at two levels";
  EXPECT_THROW((void)view_p2p({file_of({a, row("peer/copy/access:on/dir:push/dst:1/bytes:1M", "")})}, {}), input_error)
      << "one case, two layouts";
}

TEST(ReportPeer, NoPeerRowsIsAnError) {
  try {
    (void)view_p2p({load_results(data + "h200_default.json")}, {});
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("no peer matrix rows"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)view_p2p({load_results(data + "peer_2gpu.json")}, {.filter = "nothing_matches"}), input_error);
  EXPECT_THROW((void)p2p_json({load_results(data + "h200_default.json")}, {}), input_error);
}

TEST(ReportPeer, IntervalsFromTheRowsOwnOrItsNoise) {
  result r;
  r.time_us = 100;
  run x;
  x.time_us = 100;
  x.ci_low_us = 99;
  x.ci_high_us = 102;
  r.runs = {x};
  EXPECT_DOUBLE_EQ(interval_pct(r, 0.95), 2) << "the wider side";
  r.runs[0].ci_low_us = r.runs[0].ci_high_us = NAN;
  r.runs[0].noise_pct = 4;
  r.runs[0].sample_count = 100;
  EXPECT_NEAR(interval_pct(r, 0.95), 100 * std::expm1(1.959964 * std::sqrt(std::acos(-1.0) / 2) * 0.04 / 10), 1e-4);
  r.runs.push_back(x);
  EXPECT_TRUE(std::isnan(interval_pct(r, 0.95))) << "several repetitions: no one interval";
}

TEST(ReportPeer, JsonHoldsEveryPair) {
  const nlohmann::json j = nlohmann::json::parse(p2p_json({load_results(data + "peer_4gpu.json")}, {}));
  ASSERT_EQ(j.at("devices").size(), 4u);
  const nlohmann::json& push = j.at("cases").at(0);
  EXPECT_EQ(push.at("case"), "peer/copy/access:on/dir:push/bytes:64M");
  EXPECT_EQ(push.at("pairs").size(), 12u) << "4 x 3 pairs, no diagonal";
  int errors = 0;
  for (const auto& p : push.at("pairs")) errors += p.at("state") == "error";
  EXPECT_EQ(errors, 1);
}

TEST(ReportPeer, GpusJudgesEachRowAgainstItsOwnCeiling) {
  result_file f = load_results(data + "peer_2gpu.json", gpus_reads({}));
  const result* peer = f.find("peer/copy/access:on/dir:push/src:0/dst:1/bytes:64M");
  const result* host = f.find("host/copy/dir:h2d/host:pinned/api:memcpy_async/bytes:64M");
  const result* dram = f.find("global/read_offset/type:f32/offset:0/l2:cold/bytes:1G");
  ASSERT_TRUE(peer && host && dram);
  const ceiling_share p = share_of_ceiling(*peer, f.peak_gbps());
  EXPECT_EQ(p.ceiling, "link");
  EXPECT_NEAR(p.pct, 100 * peer->counters.at("gb_per_s") / 478.1, 1e-9) << "of the link, never of DRAM";
  EXPECT_EQ(share_of_ceiling(*host, f.peak_gbps()).ceiling, "pcie");
  EXPECT_NEAR(share_of_ceiling(*dram, f.peak_gbps()).pct, 100 * 2905.4 / 3352.3, 1e-9);
  gpus_options o;
  o.filter = "peer/copy|host|global";
  const document d = view_gpus({f}, o);
  for (const table& t : d.tables) {
    const std::string want = t.title == "global/read_offset" ? "% peak" : t.title == "host/copy" ? "% pcie peak" : "% link";
    EXPECT_EQ(t.header.at(2), want) << t.title;
  }
  EXPECT_EQ(labelled_peak("timing:events peak:pcie_both_directions work:copy"), "pcie_both_directions");
  EXPECT_EQ(labelled_peak("timing:events work:copy"), "");
}

TEST(ReportPeer, HtmlShadesTheCellsAndExplainsTheShade) {
  document d;
  table t;
  t.title = "m";
  t.header = {"src", "0", "1"};
  t.rows = {{{"0"}, {"-", NAN, tone::muted}, {"390", 390, tone::plain, 0.82}}};
  t.heat = heat_scale{"shade: % of the link", 100};
  d.tables.push_back(t);
  const std::string html = render_html(d);
  EXPECT_NE(html.find("style=\"background:#"), std::string::npos);
  EXPECT_NE(html.find("<div class=\"legend\">shade: % of the link"), std::string::npos);
  EXPECT_NE(html.find(">100</span>"), std::string::npos);
  d.tables[0].heat.reset();
  d.tables[0].rows[0][2].heat = NAN;
  EXPECT_EQ(render_html(d).find("legend"), std::string::npos) << "no heatmap, no heatmap CSS";
}

}  // namespace
}  // namespace membench::report
