// fleet --by=level's answer for an operator: one line per GPU and level of the memory
// hierarchy (common/levels.hpp), each with the verdict of the scope that stands for the level
// (its rows together, or its one row) and the evidence.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/levels.hpp"
#include "fleet/fleet_stages.hpp"
#include "render/render_record.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

// The scope that stands for a level in a reference: the level's group of rows, else its one
// row (a level with one row of a part has no group); npos when the reference has no row of it.
std::size_t level_scope(const ft::reference& ref, const levels::level& l) {
  const std::string group = level_group(l);
  std::size_t row_scope = std::string::npos;
  int rows = 0;
  for (std::size_t i = 0; i < ref.scopes.size(); ++i) {
    const ft::scope_ref& sc = ref.scopes[i];
    if (sc.kind == ft::scope_kind::family && sc.name == group) return i;
    if (sc.kind == ft::scope_kind::row && ref.rows[sc.rows.front()].family == group) ++rows, row_scope = i;
  }
  return rows == 1 ? row_scope : std::string::npos;
}

const ft::finding* finding_of(const ft::part_result& p, std::size_t scope) {
  for (const ft::finding& k : p.findings) {
    if (k.scope == scope) return &k;
  }
  return nullptr;
}

// The verdict word of one GPU on one level: the part's when the part is not judged on its
// scopes (failing, undecided, not judged), else the scope's.
std::string level_verdict(const ft::part_result& p, const ft::finding* k) {
  if (p.v == ft::verdict::failing || p.v == ft::verdict::undecided || p.v == ft::verdict::not_judged)
    return to_string(p.v);
  if (k == nullptr) return "no time";
  return k->slower ? "slower" : k->faster ? "faster" : "within";
}

bool ran_but_unreferenced(const fleet& f, const levels::level& l) {
  return std::any_of(f.not_in_baseline.begin(), f.not_in_baseline.end(), [&](const std::string& name) {
    const levels::level_row* r = levels::row_of(name);
    return r != nullptr && r->level == l.key;
  });
}

// One GPU on one level the reference has: the scope's finding, or the part's verdict.
level_outcome judged_level(const fleet& f, std::size_t gpu, const levels::level& l, std::size_t scope) {
  const ft::scope_ref& sc = f.ref.scopes[scope];
  const ft::part_result& p = f.results[gpu].of(sc.p);
  const ft::finding* k = finding_of(p, scope);
  level_outcome o{&f, gpu, &l, sc.p == ft::part::gpu ? "GPU" : "host", level_verdict(p, k), NAN, NAN,
                  static_cast<int>(sc.rows.size()), {}, p.why.text};
  if (k != nullptr && p.v != ft::verdict::failing && p.v != ft::verdict::undecided) {
    o.change = k->change();
    o.z = k->z;
    o.reasons = {k->slower ? reason_code::slower : reason_code::within};
    o.message = fmt::format("{:+.2f} % against the reference (z {:.1f}, {} row(s))", 100 * o.change, o.z, o.rows);
  } else {
    o.reasons = p.why.codes;
  }
  return o;
}

// How a CI system counts a level's verdict word: undecided and a level without a time are
// errors (never passed), a level the reference lacks is skipped, said.
test_status level_status(const std::string& v) {
  if (v == "slower" || v == "failing") return test_status::failed;
  if (v == "within" || v == "faster") return test_status::passed;
  if (v == "not judged" || v == "not in the reference") return test_status::skipped;
  return test_status::error;
}

}  // namespace

std::vector<level_outcome> level_outcomes(const fleet_state& s, const std::vector<gpu_summary>& gpus) {
  std::vector<level_outcome> out;
  for (const gpu_summary& g : gpus) {
    const fleet& f = s.fleets[g.fleet];
    if (!grouped_by_level(f.ref)) continue;
    for (const levels::level& l : levels::all()) {
      const std::size_t scope = level_scope(f.ref, l);
      if (scope != std::string::npos) {
        out.push_back(judged_level(f, g.gpu, l, scope));
      } else if (ran_but_unreferenced(f, l)) {
        // A level the GPU ran that its reference has no row of: said, never passed over.
        out.push_back({&f, g.gpu, &l, l.host_link ? "host" : "GPU", "not in the reference", NAN, NAN, 0, {},
                       "the GPU ran this level; the reference has no row of it"});
      }
    }
  }
  return out;
}

namespace {

std::string split_key(const fleet& f, const fleet_gpu& g) { return g.uuid + '\n' + g.host + '\n' + f.key.build; }

}  // namespace

void find_split_gpus(fleet_state& s) {
  std::set<std::string> seen;
  s.split_gpus.clear();
  for (const fleet& f : s.fleets) {
    for (const fleet_gpu& g : f.gpus) {
      std::string key = split_key(f, g);
      if (!seen.insert(key).second) s.split_gpus.insert(std::move(key));
    }
  }
}

bool in_several_strata(const fleet_state& s, const fleet& f, std::size_t gpu) {
  return s.split_gpus.count(split_key(f, f.gpus[gpu])) != 0;
}

std::string gpu_suite(const fleet_state& s, const fleet& f, std::size_t gpu) {
  const fleet_gpu& g = f.gpus[gpu];
  if (in_several_strata(s, f, gpu))
    return fmt::format("{} on {} ({} build; {})", g.uuid, g.host, f.key.build, stratum_text(f.stratum));
  return fmt::format("{} on {} ({} build)", g.uuid, g.host, f.key.build);
}

void add_level_cases(test_run& run, const fleet_state& s, const std::vector<level_outcome>& levels) {
  for (const level_outcome& o : levels) {
    test_case c{gpu_suite(s, *o.f, o.gpu), std::string(o.l->title), level_status(o.verdict), o.verdict, {}, o.message};
    for (reason_code r : o.reasons) c.reasons.push_back(to_string(r));
    run.cases.push_back(std::move(c));
  }
}

bool grouped_by_level(const ft::reference& ref) {
  return std::any_of(ref.rows.begin(), ref.rows.end(), [](const ft::row_meta& r) { return r.family.starts_with("level "); });
}

table level_table(const fleet_state& s, const std::vector<gpu_summary>& gpus) {
  table t;
  t.title = "each GPU by level";
  t.unit = "a line per GPU and level of the memory hierarchy; deviation: the level's rows against the reference's "
           "centre; verdict: slower or faster where called, else the part's when it is not judged level by level";
  for (const level_outcome& o : level_outcomes(s, gpus)) {
    const record r = level_record(o);
    if (t.header.empty()) t.header = record_header(r);
    t.rows.push_back(record_row(r));
  }
  return t;
}

}  // namespace membench::report
