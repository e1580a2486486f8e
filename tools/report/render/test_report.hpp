// Verdicts as test results, for the CI systems and cluster validators that read them: JUnit
// XML (GitLab, Jenkins, GitHub's test reporters) and CTRF JSON (the Common Test Report
// Format). compare gives a test case per benchmark, fleet one per GPU and part (or, by
// level, per GPU and level); both renderers take the same record.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace membench::report {

/// How a CI system counts a case. An undecided verdict is an error, never a pass: a GPU
/// that could not be vouched for is not admitted on it.
enum class test_status { passed, failed, error, skipped };
const char* to_string(test_status s) noexcept;

struct test_case {
  std::string suite;                 ///< what groups it: "compare", a GPU's UUID
  std::string name;                  ///< the benchmark, or the part or level
  test_status status = test_status::passed;
  std::string verdict;               ///< the tool's own word: slower, unsure, outlier, within, ...
  std::vector<std::string> reasons;  ///< reason codes (docs/reasons.md)
  std::string message;               ///< the prose: why, with the numbers
};

struct test_run {
  std::string command;              ///< "compare", "fleet"
  std::vector<test_case> cases;
  std::int64_t start_ms = 0, stop_ms = 0;  ///< the command's start and end (ms since the epoch)
};

/// JUnit XML: <testsuites> with a <testsuite> per suite in first-seen order; failed cases
/// carry <failure>, errors <error>, skipped <skipped>, each with the message and reasons.
std::string junit_xml(const test_run& run);
/// CTRF JSON (reportFormat CTRF, specVersion 1.0.0): results.tool,
/// summary counts and a test per case (errors are failed, with rawStatus the verdict);
/// each test's extra holds the verdict and the reason codes.
std::string ctrf_json(const test_run& run);

/// junit_xml or ctrf_json by the format's name ("junit", "ctrf").
std::string test_report_text(const test_run& run, std::string_view format);

/// The clock for start_ms and stop_ms.
std::int64_t now_ms();

}  // namespace membench::report
