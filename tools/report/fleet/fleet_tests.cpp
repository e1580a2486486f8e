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

test_case part_case(const fleet_state& s, const fleet& f, std::size_t gpu, const ft::part_result& r, ft::part p,
                    const std::string& name) {
  test_case c{gpu_suite(s, f, gpu), name, part_status(r.v), to_string(r.v), {}, r.why.text};
  // A GPU judged on no rows of its own is not vouched for, whatever the part says.
  if (p == ft::part::gpu && r.v == ft::verdict::not_judged) c.status = test_status::error;
  for (reason_code code : r.why.codes) c.reasons.push_back(to_string(code));
  return c;
}

// A GPU's parts against its fleet, and with --since against its own earlier runs: a drift
// that fails the command fails its case.
void add_part_cases(test_run& run, const fleet_state& s, const fleet& f, std::size_t gpu) {
  for (const ft::part p : {ft::part::gpu, ft::part::host}) {
    const std::string name = p == ft::part::gpu ? "GPU work" : "host work";
    run.cases.push_back(part_case(s, f, gpu, f.results[gpu].of(p), p, name));
    if (!f.drift.empty()) {
      test_case c = part_case(s, f, gpu, f.drift[gpu].of(p), p, fmt::format("{} since {}", name, s.since));
      // Too few runs on a side is a drift not measured, not a GPU not vouched for.
      if (f.drift[gpu].of(p).v == ft::verdict::not_judged) c.status = test_status::skipped;
      run.cases.push_back(std::move(c));
    }
  }
}

}  // namespace

test_run fleet_tests(const fleet_state& s, const std::vector<gpu_summary>& gpus) {
  test_run run;
  run.command = "fleet";
  bool by_level = false;
  for (const fleet& f : s.fleets) by_level = by_level || grouped_by_level(f.ref);
  // By level, the parts' cases too: they decide the exit code (all GPU-work rows 4 % slower
  // is no level beyond its threshold, yet the GPU is slow), and with --since the drift.
  if (by_level) add_level_cases(run, s, level_outcomes(s, gpus));
  for (const gpu_summary& g : gpus) add_part_cases(run, s, s.fleets[g.fleet], g.gpu);
  for (const gpu_at_host& g : s.no_recent_run)
    run.cases.push_back({fmt::format("{} on {}", g.uuid, g.host), "GPU work", test_status::error, "not judged", {},
                         fmt::format("no run since {}", s.since)});
  // The files that could not be read come first among those set aside (copies follow).
  for (int i = 0; i < s.unreadable && i < static_cast<int>(s.set_aside.size()); ++i)
    run.cases.push_back({"unreadable", s.set_aside[i], test_status::error, "unreadable", {}, s.set_aside[i]});
  return run;
}

}  // namespace membench::report
