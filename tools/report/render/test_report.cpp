#include "render/test_report.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/escape.hpp"

namespace membench::report {
namespace {

// XML 1.0 text or attribute: control characters made visible first (XML cannot hold most
// of them, even escaped), then what XML cannot hold either (bytes of no UTF-8 sequence, the
// noncharacters U+FFFE and U+FFFF) as the same visible escapes, then the five markup characters.
std::string xml_text(std::string_view raw) {
  const std::string s = visible_controls(raw);
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_sequence(s, i, &cp);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i++]));
      continue;
    }
    if (cp == 0xFFFE || cp == 0xFFFF) {
      out += fmt::format("\\u{{{:x}}}", static_cast<unsigned>(cp));
    } else if (n == 1) {
      switch (s[i]) {
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default: out += s[i];
      }
    } else {
      out.append(s, i, n);
    }
    i += n;
  }
  return out;
}

std::string reasons_text(const test_case& c) {
  std::string out;
  for (const std::string& r : c.reasons) out += (out.empty() ? "" : ",") + r;
  return out;
}

struct tally {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  void add(test_status s) {
    ++tests;
    failures += s == test_status::failed;
    errors += s == test_status::error;
    skipped += s == test_status::skipped;
  }
};

std::string tally_attributes(const tally& t) {
  return fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"", t.tests, t.failures, t.errors, t.skipped);
}

void append_case(std::string& out, const test_case& c) {
  fmt::format_to(std::back_inserter(out), "    <testcase classname=\"{}\" name=\"{}\" time=\"0\"", xml_text(c.suite),
                 xml_text(c.name));
  if (c.status == test_status::passed) {
    out += "/>\n";
    return;
  }
  if (c.status == test_status::skipped) {  // <skipped> takes a message only
    fmt::format_to(std::back_inserter(out), ">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                   xml_text(c.verdict + ": " + c.message));
    return;
  }
  const char* element = c.status == test_status::failed ? "failure" : "error";
  fmt::format_to(std::back_inserter(out), ">\n      <{} message=\"{}\" type=\"{}\">{}</{}>\n    </testcase>\n", element,
                 xml_text(c.message), xml_text(c.verdict), xml_text(reasons_text(c)), element);
}

// The suites in the order their first case comes.
std::vector<std::string> suites_of(const test_run& run) {
  std::vector<std::string> out;
  for (const test_case& c : run.cases) {
    if (std::find(out.begin(), out.end(), c.suite) == out.end()) out.push_back(c.suite);
  }
  return out;
}

}  // namespace

const char* to_string(test_status s) noexcept {
  switch (s) {
    case test_status::passed: return "passed";
    case test_status::failed: return "failed";
    case test_status::error: return "error";
    case test_status::skipped: return "skipped";
  }
  return "?";
}

std::string junit_xml(const test_run& run) {
  tally all;
  for (const test_case& c : run.cases) all.add(c.status);
  const double seconds = static_cast<double>(std::max<std::int64_t>(0, run.stop_ms - run.start_ms)) / 1000;
  std::string out = fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"membench-report {}\" {} "
                                "time=\"{:.3f}\">\n",
                                xml_text(run.command), tally_attributes(all), seconds);
  for (const std::string& suite : suites_of(run)) {
    tally t;
    for (const test_case& c : run.cases) {
      if (c.suite == suite) t.add(c.status);
    }
    fmt::format_to(std::back_inserter(out), "  <testsuite name=\"{}\" {} time=\"0\">\n", xml_text(suite),
                   tally_attributes(t));
    for (const test_case& c : run.cases) {
      if (c.suite == suite) append_case(out, c);
    }
    out += "  </testsuite>\n";
  }
  return out + "</testsuites>\n";
}

std::string ctrf_json(const test_run& run) {
  using json = nlohmann::ordered_json;
  std::map<std::string, int> counts{{"passed", 0}, {"failed", 0}, {"skipped", 0}, {"pending", 0}, {"other", 0}};
  json tests = json::array();
  for (const test_case& c : run.cases) {
    const std::string status = c.status == test_status::passed    ? "passed"
                               : c.status == test_status::skipped ? "skipped"
                                                                  : "failed";
    ++counts[status];
    json t = {{"name", c.suite + " " + c.name}, {"status", status}, {"duration", 0}, {"suite", {c.suite}},
              {"rawStatus", c.verdict}};
    if (!c.message.empty()) t["message"] = c.message;
    t["extra"] = {{"verdict", c.verdict}, {"reasons", c.reasons}, {"error", c.status == test_status::error}};
    tests.push_back(std::move(t));
  }
  const json summary = {{"tests", run.cases.size()}, {"passed", counts["passed"]}, {"failed", counts["failed"]},
                        {"skipped", counts["skipped"]}, {"pending", 0},            {"other", 0},
                        {"start", run.start_ms},       {"stop", run.stop_ms}};
  const json doc = {{"reportFormat", "CTRF"},
                    {"specVersion", "1.0.0"},
                    {"generatedBy", "membench-report " + run.command},
                    {"results", {{"tool", {{"name", "membench-report"}}}, {"summary", summary}, {"tests", tests}}}};
  // Names are any bytes a results file held: invalid UTF-8 is replaced, never a throw.
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string test_report_text(const test_run& run, std::string_view format) {
  return format == "junit" ? junit_xml(run) : ctrf_json(run);
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace membench::report
