// fleet's output declared once: a record per GPU, per scope called and per GPU and level
// whose fields are the JSON's keys and, where they have a heading, the columns of the tables
// people read. fleet_json.cpp, fleet_render.cpp and fleet_levels.cpp draw them; none lists a
// GPU's, a scope's or a level's fields.
#include <cmath>

#include <fmt/format.h>

#include "fleet/fleet_stages.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

std::string pct(double x) { return std::isnan(x) ? "-" : fmt::format("{:+.2f} %", 100 * x); }

tone mood_of(gpu_verdict v) {
  return v == gpu_verdict::outlier || v == gpu_verdict::failing ? tone::bad
         : v == gpu_verdict::undecided                          ? tone::muted
                                                                : tone::plain;
}

std::string verdict_text(gpu_verdict v, const std::string& reason) {
  return v == gpu_verdict::within ? reason : fmt::format("{}: {}", to_string(v), reason);
}

record part_record(const ft::part_result& p, gpu_verdict v) {
  std::vector<std::string> codes;
  for (reason_code c : p.why.codes) codes.push_back(to_string(c));
  record r;
  // A part not judged (host work of too few runs) is said as such, never as within.
  r.add("verdict", p.v == ft::verdict::not_judged ? "not judged" : to_string(v)).add("reason", p.why.text);
  r.add("reasons", codes).add("rows", count_value(p.rows)).add("failed_rows", count_value(p.failed));
  r.add("scopes_called", count_value(p.called.size()));
  return r;
}

// The rows to run again before acting on a part called slow.
std::vector<std::string> confirm_rows(const fleet& f, const ft::part_result& p) {
  std::vector<std::string> rows;
  if (p.v == ft::verdict::slow) {
    for (std::size_t r : ft::rows_to_confirm(p, f.ref)) rows.push_back(f.ref.rows[r].name);
  }
  return rows;
}

// Against the GPU's own earlier runs (--since); nothing when not asked.
void add_drift(record& r, const fleet_state& s, const gpu_summary& g) {
  if (s.since.empty()) {
    r.add("drift", field_value());
    return;
  }
  record d;
  d.add("since", s.since).add("verdict", to_string(g.drift_v)).add("host_verdict", to_string(g.host_drift_v));
  d.add("reason", g.drift_reason).add("earlier_runs", count_value(s.fleets[g.fleet].gpus[g.gpu].earlier.size()));
  const bool drifted = g.drift_v == gpu_verdict::outlier || g.host_drift_v == gpu_verdict::outlier;
  r.show("drift", std::move(d), fmt::format("against itself since {}", s.since),
         {g.drift_reason, NAN, drifted ? tone::bad : tone::plain});
}

// The failed rows of both parts, as the GPU table shows them: "GPU work / host work".
cell failed_cell(const ft::gpu_result& r) {
  const auto failed = [](const ft::part_result& p) { return fmt::format("{}/{}", p.failed, p.rows); };
  return {fmt::format("{} / {}", failed(r.of(ft::part::gpu)), failed(r.of(ft::part::host)))};
}

tone level_mood(const std::string& v) {
  return v == "slower" || v == "failing" ? tone::bad : v == "within" || v == "faster" ? tone::plain : tone::muted;
}

}  // namespace

record gpu_record(const fleet_state& s, const gpu_summary& g) {
  const int rank = g.rank;
  const fleet& f = s.fleets[g.fleet];
  const fleet_gpu& gpu = f.gpus[g.gpu];
  const ft::gpu_result& res = f.results[g.gpu];
  std::vector<std::string> confirm = confirm_rows(f, res.of(ft::part::gpu));
  for (std::string& row : confirm_rows(f, res.of(ft::part::host))) confirm.push_back(std::move(row));
  record r;
  r.show("rank", count_value(rank), "rank", {fmt::format("{}", rank), static_cast<double>(rank)});
  r.show("uuid", gpu.uuid, "GPU", {gpu.uuid}).show("host", gpu.host, "host", {gpu.host});
  r.add("fleet", count_value(g.fleet));
  r.show("runs", count_value(gpu.files.size()), "runs",
         {fmt::format("{}", gpu.files.size()), static_cast<double>(gpu.files.size())});
  r.show("gpu", part_record(res.of(ft::part::gpu), g.v), "failed rows", failed_cell(res));
  r.show("verdict", to_string(g.v), "GPU verdict", {verdict_text(g.v, g.reason), NAN, mood_of(g.v)});
  r.add("reason", g.reason);
  r.show("host_work", part_record(res.of(ft::part::host), g.host_v), "host verdict",
         {verdict_text(g.host_v, g.host_reason), NAN, mood_of(g.host_v)});
  add_drift(r, s, g);
  r.add("confirm_rows", confirm).add("confirm_filter", confirm.empty() ? field_value() : field_value(confirm_filter(confirm)));
  return r;
}

record scope_record(const fleet& f, std::size_t gi, std::size_t fi, const std::string& label, const ft::finding& k) {
  const ft::scope_ref& sc = f.ref.scopes[k.scope];
  const tone mood = k.slower ? tone::bad : k.faster ? tone::good : tone::plain;
  const char* said = k.slower ? "slower" : k.faster ? "faster" : "same";
  record r;
  r.show("uuid", f.gpus[gi].uuid, "GPU", {label}).add("fleet", count_value(fi));
  r.add("part", ft::to_string(sc.p)).add("kind", ft::to_string(sc.kind)).show("name", sc.name, "scope", {ft::describe(sc)});
  r.show("deviation", number_value(k.change()), "deviation", {pct(k.change()), 100 * k.change(), mood});
  r.show("sd", number_value(k.sd), "sd", {fmt::format("{:.2f} %", 100 * k.sd), 100 * k.sd});
  r.show("z", number_value(k.z), "z", {fmt::format("{:.1f}", k.z), k.z});
  r.show("runs", count_value(k.runs), "runs", {fmt::format("{}", k.runs), static_cast<double>(k.runs)});
  r.add("reference_gpus", count_value(sc.gpus)).show("verdict", said, "verdict", {said, NAN, mood});
  return r;
}

record level_record(const level_outcome& o) {
  const fleet_gpu& g = o.f->gpus[o.gpu];
  const bool judged = !std::isnan(o.change);
  std::vector<std::string> codes;
  for (reason_code c : o.reasons) codes.push_back(to_string(c));
  record r;
  r.show("uuid", g.uuid, "GPU", {g.uuid}).show("host", g.host, "host", {g.host});
  r.show("level", std::string(o.l->title), "level", {std::string(o.l->title)}).add("level_key", std::string(o.l->key));
  r.show("part", o.part, "part", {o.part}).show("verdict", o.verdict, "verdict", {o.verdict, NAN, level_mood(o.verdict)});
  r.show("deviation", number_value(o.change), "deviation", {judged ? pct(o.change) : "-", 100 * o.change});
  r.show("z", number_value(o.z), "z", {judged ? fmt::format("{:.1f}", o.z) : "-", o.z});
  r.show("rows", count_value(o.rows), "rows", {fmt::format("{}", o.rows), static_cast<double>(o.rows)});
  r.add("reasons", codes).add("message", o.message);
  return r;
}

}  // namespace membench::report
