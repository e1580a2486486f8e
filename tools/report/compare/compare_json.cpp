// compare --format json: what compare decided, for other programs (CI systems, dashboards,
// reports/make_findings.py): a record per benchmark or pair, and the summary. Numbers in
// full precision; null where a number is unknown (no interval, a side without a time).
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compare/compare_stages.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the docs list them

const char* state_name(pair_state s) {
  switch (s) {
    case pair_state::decide: return "decided";
    case pair_state::skipped_both: return "skipped";
    case pair_state::unusable: return "unusable";
    case pair_state::left_out: return "left_out";
  }
  return "?";
}

// The codes of why a verdict is unsure (none for a verdict that is not).
std::vector<reason_code> reason_codes_of(const decision& d) {
  return d.v == verdict::unsure ? d.why.codes : std::vector<reason_code>{};
}

json reason_codes(const decision& d) {
  json codes = json::array();
  for (reason_code c : reason_codes_of(d)) codes.push_back(to_string(c));
  return codes;
}

json number(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

json paths(const std::vector<const result_file*>& files) {
  json out = json::array();
  for (const result_file* f : files) out.push_back(f->path);
  return out;
}

// One side of a record: the row's name, its files, the factor its times were multiplied by
// (--pairs), and what the decision measured of it.
json side_record(const std::string& name, const std::vector<const result_file*>& files, double scale, double median_us,
                 double clock_mhz) {
  return {{"name", name},
          {"files", paths(files)},
          {"scale", scale},
          {"median_us", number(median_us)},
          {"clock_mhz", number(clock_mhz)}};
}

json pair_record(const benchmark_pair& p, const compare_sides& files, const decision* x, const compare_options& opt) {
  const decision none;
  const decision& d = x ? *x : none;
  const double threshold = std::isnan(p.threshold) ? opt.threshold_pct / 100 : p.threshold;
  const double margin = std::isnan(p.margin) ? opt.margin_pct / 100 : p.margin;
  json r = {{"base", side_record(*p.name, files.base, p.base_scale, d.base_us, d.base_clock_mhz)},
            {"new", side_record(p.new_name ? *p.new_name : *p.name, files.next, p.next_scale, d.new_us,
                                d.new_clock_mhz)},
            {"state", state_name(p.state)},
            {"verdict", x ? json(to_string(d.v)) : json(nullptr)},
            {"change", number(d.change)},
            {"interval", {{"low", number(d.low)}, {"high", number(d.high)}, {"level_pct", opt.confidence_pct}}},
            {"threshold_pct", 100 * threshold},
            {"margin_pct", 100 * margin},
            {"evidence", x ? json(to_string(d.from)) : json(nullptr)},
            {"figure", x ? json(to_string(d.fig)) : json(nullptr)},
            {"resolution_us", number(d.resolution_us)},
            {"cycles", {{"change", number(d.cycles_change)}, {"low", number(d.cycles_low)}, {"high", number(d.cycles_high)}}},
            {"reason", d.v == verdict::unsure ? d.why.text : ""},
            {"reasons", reason_codes(d)},
            {"problem", p.why}};
  return r;
}

json summary(const family_outcome& fam, const compare_counts& c, const compare_options& opt) {
  json family = {{"method", opt.family == correction::bh ? "bh" : "none"}};
  if (opt.family == correction::bh) {
    family["compared"] = fam.compared;
    family["kept"] = fam.kept;
    family["demoted"] = fam.demoted;
    family["level_pct"] = number(100 * fam.level);
  }
  return {{"compared", c.compared}, {"slower", c.slower}, {"faster", c.faster},   {"same", c.same},
          {"unsure", c.unsure},     {"unusable", c.unusable}, {"geomean_ratio", number(c.geomean_ratio)},
          {"correction", family},   {"threshold_pct", opt.threshold_pct}, {"margin_pct", opt.margin_pct},
          {"confidence_pct", opt.confidence_pct}};
}

}  // namespace

namespace {

test_case pair_case(const benchmark_pair& p, const decision* x, const compare_options& opt) {
  test_case c{"compare", pair_name(p), test_status::skipped, state_name(p.state), {}, p.why};
  if (x == nullptr) {
    // Missing or an error row on a side: the input cannot vouch for the benchmark.
    if (p.state == pair_state::unusable) c.status = test_status::failed;
    return c;
  }
  c.verdict = to_string(x->v);
  for (reason_code r : reason_codes_of(*x)) c.reasons.push_back(to_string(r));
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
  json records = json::array();
  std::size_t j = 0;  // the next decision, in the order of the pairs decided
  for (const benchmark_pair& p : pairs) {
    const decision* x = p.state == pair_state::decide ? &d.decisions[j++] : nullptr;
    records.push_back(pair_record(p, files_of(p, files), x, opt));
  }
  json out = {{"benchmarks", records}, {"summary", summary(fam, counts, opt)}};
  return out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace membench::report
