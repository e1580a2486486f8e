// compare --format json: what compare decided, for other programs (CI systems, dashboards,
// reports/make_findings.py): the record of each benchmark or pair (compare_record.cpp), and
// the summary; and --format junit and ctrf: a test case per pair. Numbers in full precision;
// null where a number is unknown (no interval, a side without a time).
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compare/compare_stages.hpp"
#include "render/render_record.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the docs list them

record correction_record(const family_outcome& fam, const compare_options& opt) {
  record r;
  r.add("method", opt.family == correction::bh ? "bh" : "none");
  if (opt.family == correction::bh) {
    r.add("compared", count_value(fam.compared)).add("kept", count_value(fam.kept));
    r.add("demoted", count_value(fam.demoted)).add("level_pct", number_value(100 * fam.level));
  }
  return r;
}

record summary(const family_outcome& fam, const compare_counts& c, const compare_options& opt) {
  record r;
  r.add("compared", count_value(c.compared)).add("slower", count_value(c.slower)).add("faster", count_value(c.faster));
  r.add("same", count_value(c.same)).add("unsure", count_value(c.unsure)).add("unusable", count_value(c.unusable));
  r.add("geomean_ratio", number_value(c.geomean_ratio)).add("correction", correction_record(fam, opt));
  r.add("threshold_pct", opt.threshold_pct).add("margin_pct", opt.margin_pct).add("confidence_pct", opt.confidence_pct);
  return r;
}


test_case pair_case(const benchmark_pair& p, const decision* x, const compare_options& opt) {
  test_case c{"compare", pair_name(p), test_status::skipped, to_string(p.state), {}, p.why};
  if (x == nullptr) {
    // Missing or an error row on a side: the input cannot vouch for the benchmark.
    if (p.state == pair_state::unusable) c.status = test_status::failed;
    return c;
  }
  c.verdict = to_string(x->v);
  if (x->v == verdict::unsure)
    for (reason_code r : x->why.codes) c.reasons.push_back(to_string(r));
  const bool fails = x->v == verdict::slower || (x->v == verdict::unsure && opt.unsure_fails);
  c.status = fails ? test_status::failed : x->v == verdict::unsure ? test_status::skipped : test_status::passed;
  c.message = fmt::format("{}: {:+.2f} % ({:.4g} us to {:.4g} us){}", c.verdict, 100 * x->change, x->base_us, x->new_us,
                          x->v == verdict::unsure ? "; " + x->why.text : std::string());
  return c;
}

}  // namespace

test_run compare_tests(const std::vector<benchmark_pair>& pairs, const decided_pairs& d, const compare_options& opt) {
  test_run run;
  run.command = "compare";
  std::size_t j = 0;  // the next decision, in the order of the pairs decided
  for (const benchmark_pair& p : pairs) run.cases.push_back(pair_case(p, p.state == pair_state::decide ? &d.decisions[j++] : nullptr, opt));
  return run;
}

std::string compare_json(const compare_sides& files, const std::vector<benchmark_pair>& pairs, const decided_pairs& d,
                         const family_outcome& fam, const compare_counts& counts, const compare_options& opt) {
  std::vector<record> records;
  std::size_t j = 0;  // the next decision, in the order of the pairs decided
  for (const benchmark_pair& p : pairs) {
    const decision* x = p.state == pair_state::decide ? &d.decisions[j++] : nullptr;
    records.push_back(pair_record(p, files_of(p, files), x, opt));
  }
  const json out = {{"benchmarks", records_json(records)}, {"summary", record_json(summary(fam, counts, opt))}};
  return json_text(out, 2);
}

}  // namespace membench::report
