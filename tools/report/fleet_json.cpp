// fleet --format json: what fleet decided, for other programs: a record per fleet, per GPU
// (worst first) and per row called (every row with --all), and the summary. Numbers in full
// precision; null where one is unknown.
#include <cmath>

#include <nlohmann/json.hpp>

#include "fleet_stages.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the docs list them

json number(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

// The keys of left_out past none, as JSON names them.
constexpr const char* left_keys[] = {"missing", "error", "skipped", "unconverged", "not_in_baseline", "other_figure"};

json apart_record(const std::vector<apart_field>& fields) {
  json out = json::array();
  for (const apart_field& a : fields) out.push_back({{"key", a.key}, {"outliers", a.outliers}, {"within", a.within}});
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
          {"max_sm_clock_mhz", f.key.max_sm_clock_mhz}, {"build", f.key.build}, {"reference_gpus", f.reference_gpus},
          {"gpus", gpus}, {"outliers_apart", apart_record(outliers_apart(s, summaries, fi))}};
}

json gpu_record(const fleet_state& s, const gpu_summary& g, int rank) {
  const fleet_gpu& gpu = s.fleets[g.fleet].gpus[g.gpu];
  json left = json::object();
  for (int k = 1; k < left_out_count; ++k) left[left_keys[k - 1]] = g.left[k];
  json families = json::array();
  for (const family_score& f : g.families) {
    families.push_back({{"family", f.family}, {"compared", f.compared}, {"slower", f.slower}, {"faster", f.faster},
                        {"median_deviation", number(f.median_change)}});
  }
  return {{"rank", rank},          {"uuid", gpu.uuid},       {"host", gpu.host},
          {"fleet", g.fleet},      {"runs", gpu.files.size()}, {"compared", g.compared},
          {"slower", g.slower},    {"faster", g.faster},     {"same", g.same},
          {"one_row_slower", g.one_row_slower}, {"one_row_faster", g.one_row_faster},
          {"called_slower", g.called_slower}, {"called_slower_host_work", g.called_slower_host_work},
          {"unsure", g.unsure},    {"left_out", left},       {"median_deviation", number(g.median_change)},
          {"clock_mhz", number(g.clock_mhz)}, {"fleet_clock_mhz", number(g.fleet_clock_mhz)},
          {"verdict", to_string(g.v)}, {"reason", g.reason},  {"families", families}};
}

json row_record(const fleet_state& s, const judged& j, const fleet_options& opt) {
  const fleet& f = s.fleets[j.fleet];
  const decision& d = j.d;
  const row_centre& c = j.ref;
  return {{"uuid", f.gpus[j.gpu].uuid},
          {"fleet", j.fleet},
          {"name", *f.rows[j.row].name},
          {"family", f.rows[j.row].family},
          {"figure", to_string(f.rows[j.row].fig)},
          {"centre_us", number(d.base_us)},
          {"gpu_us", number(d.new_us)},
          {"deviation", number(d.change)},
          {"interval", {{"low", number(d.low)}, {"high", number(d.high)}, {"level_pct", opt.test.confidence_pct}}},
          {"spread", number(c.spread)},
          {"reference_gpus", c.gpus},
          {"evidence", to_string(d.from)},
          {"verdict", to_string(d.v)},
          {"one_row_verdict", to_string(j.one_row)},
          {"reason", d.v == verdict::unsure ? d.reason : ""}};
}

json summary(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt) {
  int n[3] = {};
  for (const gpu_summary& g : gpus) ++n[static_cast<int>(g.v)];
  json family = {{"method", opt.test.family == correction::bh ? "bh" : "none"}};
  if (opt.test.family == correction::bh) {
    family["compared"] = s.fam.compared;
    family["kept"] = s.fam.kept;
    family["demoted"] = s.fam.demoted;
    family["level_pct"] = number(100 * s.fam.level);
    family["one_row_kept"] = s.one_row_fam.kept;
    family["one_row_level_pct"] = number(100 * s.one_row_fam.level);
  }
  json multi = json::array();
  for (const std::string& name : s.multi_gpu) multi.push_back(name);
  return {{"gpus", gpus.size()}, {"outlier", n[0]}, {"unsure", n[1]}, {"within", n[2]},
          {"threshold_pct", opt.test.threshold_pct}, {"outlier_share_pct", opt.outlier_share_pct},
          {"one_row_threshold_pct", opt.one_row_threshold_pct}, {"calibration_runs", opt.calibration_runs},
          {"confidence_pct", opt.test.confidence_pct}, {"correction", family},
          {"baseline", s.baseline_path.empty() ? json(nullptr) : json(s.baseline_path)},
          {"multi_gpu_rows_left_out", multi}};
}

}  // namespace

std::string fleet_json(const fleet_state& s, const std::vector<gpu_summary>& gpus, const fleet_options& opt) {
  json fleets = json::array(), gpu_records = json::array(), rows = json::array();
  for (std::size_t fi = 0; fi < s.fleets.size(); ++fi) fleets.push_back(fleet_record(s, gpus, fi));
  std::vector<int> rank(s.fleets.size(), 0);  // within its fleet, as the tables rank
  for (const gpu_summary& g : gpus) {
    gpu_records.push_back(gpu_record(s, g, ++rank[g.fleet]));
    for (const judged& j : s.rows) {
      const bool called = j.d.v == verdict::slower || j.d.v == verdict::faster;
      if (j.fleet == g.fleet && j.gpu == g.gpu && (called || opt.test.show_all)) rows.push_back(row_record(s, j, opt));
    }
  }
  json out = {{"format", "membench-fleet"}, {"version", 1}, {"fleets", fleets}, {"gpus", gpu_records},
              {"rows", rows}, {"summary", summary(s, gpus, opt)}};
  return out.dump(2) + "\n";
}

}  // namespace membench::report
