// fleet --format json: what fleet decided, for other programs: a record per fleet (its
// stratum and reference), per GPU (worst first, its GPU and host verdicts) and per scope
// called (every scope with --all; those two declared in fleet_record.cpp), and the summary. Numbers in full precision; null where one
// is unknown.
#include <cmath>

#include <nlohmann/json.hpp>

#include "fleet/fleet_stages.hpp"
#include "render/render_record.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the docs list them
namespace ft = fleet_test;


json identity_record(const fleet_identity_values& values) {
  json out = json::object();
  for (const auto& [key, v] : values) out[key] = v;
  return out;
}

// Their UUIDs, as before a UUID on two hosts was two GPUs (the hosts are in the findings).
json no_run_since_uuids(const fleet_state& s) {
  json out = json::array();
  for (const gpu_at_host& g : s.no_recent_run) out.push_back(g.uuid);
  return out;
}

json apart_record(const std::vector<apart_field>& fields) {
  json out = json::array();
  for (const apart_field& a : fields) out.push_back({{"key", a.key}, {"outliers", a.outliers}, {"within", a.within}});
  return out;
}

json split_scopes(const fleet& f) {
  json out = json::array();
  for (const ft::scope_ref& sc : f.ref.scopes) {
    if (sc.split)
      out.push_back({{"part", ft::to_string(sc.p)}, {"kind", ft::to_string(sc.kind)}, {"name", sc.name},
                     {"gpus", sc.gpus}, {"majority", sc.majority}});
  }
  return out;
}

json fleet_record(const fleet_state& s, const std::vector<gpu_summary>& summaries, std::size_t fi) {
  const fleet& f = s.fleets[fi];
  json gpus = json::array();
  for (const fleet_gpu& g : f.gpus) {
    json files = json::array();
    for (const result_file* file : g.files) files.push_back(file->path);
    gpus.push_back({{"uuid", g.uuid}, {"host", g.host}, {"files", files}});
  }
  return {{"gpu_name", f.key.gpu_name}, {"memory_bytes", f.key.memory_bytes}, {"sm_count", f.key.sm_count},
          {"max_sm_clock_mhz", f.key.max_sm_clock_mhz}, {"build", f.key.build},
          {"stratum", identity_record(f.stratum)}, {"reference_gpus", f.reference_gpus},
          {"split_scopes", split_scopes(f)}, {"gpus", gpus},
          {"outliers_apart", apart_record(outliers_apart(s, summaries, fi))}};
}

json summary(const std::vector<gpu_summary>& gpus, const fleet_state& s) {
  int n[4] = {}, h[4] = {};
  for (const gpu_summary& g : gpus) {
    ++n[static_cast<int>(g.v)];
    ++h[static_cast<int>(g.host_v)];
  }
  json multi = json::array();
  for (const std::string& name : s.multi_gpu) multi.push_back(name);
  const ft::settings& t = s.test;
  return {{"gpus", gpus.size()},
          {"fleets", s.fleets.size()},
          {"outlier", n[0]},
          {"failing", n[1]},
          {"undecided", n[2]},
          {"within", n[3]},
          {"host_slow", h[0]},
          {"host_failing", h[1]},
          {"host_undecided", h[2]},
          {"thresholds_pct",
           {{"all", t.all_pct}, {"family", t.family_pct}, {"row", t.row_pct}, {"host_all", t.host_all_pct},
            {"host_row", t.host_row_pct}}},
          {"level", t.alpha},
          {"fail_share_pct", 100 * t.fail_share},
          {"baseline", s.baseline_path.empty() ? json(nullptr) : json(s.baseline_path)},
          {"since", s.since.empty() ? json(nullptr) : json(s.since)},
          {"no_run_since", no_run_since_uuids(s)},
          {"files_set_aside", s.set_aside},
          {"files_unreadable", s.unreadable},
          {"multi_gpu_rows_left_out", multi},
          {"rows_of_no_level_left_out", s.no_level}};
}

}  // namespace

std::string fleet_json(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt) {
  json fleets = json::array(), gpu_records = json::array(), scopes = json::array();
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) fleets.push_back(fleet_record(s, gpus, fi));
  for (const gpu_summary& g : gpus) {
    gpu_records.push_back(record_json(gpu_record(s, g)));
    const fleet& f = s.fleets[g.fleet];
    for (const ft::part_result& p : f.results[g.gpu].parts) {
      for (const ft::finding& k : p.findings) {
        if (k.slower || k.faster || opt.show_all)
          scopes.push_back(record_json(scope_record(f, g.gpu, g.fleet, f.gpus[g.gpu].uuid, k)));
      }
    }
  }
  json out = {{"format", "membench-fleet"}, {"version", 3},        {"summary", summary(gpus, s)},
              {"fleets", fleets},           {"gpus", gpu_records}, {"scopes", scopes}};
  // By level, a record per GPU and level (membench-check --format=json).
  std::vector<record> levels;
  for (const level_outcome& o : level_outcomes(s, gpus)) levels.push_back(level_record(o));
  if (!levels.empty()) out["levels"] = records_json(levels);
  return json_text(out, 2);
}

}  // namespace membench::report
