// fleet's verdicts as test results (JUnit, CTRF): a case per GPU and part, or per GPU and
// level where the fleet is grouped by level; what was not judged is an error or skipped,
// never a pass.
#include <fmt/format.h>

#include "fleet/fleet_stages.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

test_status part_status(ft::verdict v) {
  switch (v) {
    case ft::verdict::pass: return test_status::passed;
    case ft::verdict::slow:
    case ft::verdict::failing: return test_status::failed;
    case ft::verdict::undecided: return test_status::error;
    case ft::verdict::not_judged: return test_status::skipped;
  }
  return test_status::error;
}

test_case part_case(const fleet& f, std::size_t gpu, ft::part p) {
  const ft::part_result& r = f.results[gpu].of(p);
  test_case c{f.gpus[gpu].uuid, p == ft::part::gpu ? "GPU work" : "host work", part_status(r.v), to_string(r.v), {},
              r.why.text};
  // A GPU judged on no rows of its own is not vouched for, whatever the part says.
  if (p == ft::part::gpu && r.v == ft::verdict::not_judged) c.status = test_status::error;
  for (reason_code code : r.why.codes) c.reasons.push_back(to_string(code));
  return c;
}

}  // namespace

test_run fleet_tests(const fleet_state& s, const std::vector<gpu_summary>& gpus) {
  test_run run;
  run.command = "fleet";
  bool by_level = false;
  for (const fleet& f : s.fleets) by_level = by_level || grouped_by_level(f.ref);
  if (by_level) {
    add_level_cases(run, level_outcomes(s, gpus));
  } else {
    for (const gpu_summary& g : gpus) {
      run.cases.push_back(part_case(s.fleets[g.fleet], g.gpu, ft::part::gpu));
      run.cases.push_back(part_case(s.fleets[g.fleet], g.gpu, ft::part::host));
    }
  }
  for (const std::string& uuid : s.no_recent_run)
    run.cases.push_back({uuid, "GPU work", test_status::error, "not judged", {}, fmt::format("no run since {}", s.since)});
  // The files that could not be read come first among those set aside (copies follow).
  for (int i = 0; i < s.unreadable && i < static_cast<int>(s.set_aside.size()); ++i)
    run.cases.push_back({"unreadable", s.set_aside[i], test_status::error, "unreadable", {}, s.set_aside[i]});
  return run;
}

}  // namespace membench::report
