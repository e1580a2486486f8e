// fleet's baselines: each stratum's reference (row centres, each scope's centre and variance
// components, the thresholds they were measured at), written (--baseline-out) in membench's
// form, which --baseline reads back, or in ReFrame's reference form; and read.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "fleet/fleet_stages.hpp"
#include "core/input_text.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;
namespace ft = fleet_test;

constexpr const char* baseline_format_name = "membench-fleet-baseline";
// 3: a reference per stratum, each scope's variance components, the thresholds.
constexpr int baseline_version = 3;

json rows_record(const fleet& f) {
  json rows = json::array();
  for (std::size_t i = 0; i < f.ref.rows.size(); ++i) {
    const ft::row_meta& r = f.ref.rows[i];
    rows.push_back({{"name", r.name}, {"family", r.family}, {"part", ft::to_string(r.p)},
                    {"figure", to_string(f.rows[i].fig)}, {"step", r.step},
                    {"centre_us", std::exp(f.ref.row_centre[i])}});
  }
  return rows;
}

json scopes_record(const ft::reference& ref) {
  json out = json::array();
  for (const ft::scope_ref& sc : ref.scopes) {
    out.push_back({{"kind", ft::to_string(sc.kind)}, {"part", ft::to_string(sc.p)}, {"name", sc.name},
                   {"centre", sc.centre}, {"between_sd", std::sqrt(sc.between)}, {"within_sd", std::sqrt(sc.within)},
                   {"within_tail_sd", std::sqrt(sc.within_tail)},
                   {"typical_runs", sc.typical_runs}, {"floor_sd", std::sqrt(sc.floor)}, {"gpus", sc.gpus},
                   {"majority", sc.majority}, {"split", sc.split}});
  }
  return out;
}

json identity_record(const fleet_identity_values& identity) {
  json out = json::object();
  for (const auto& [key, values] : identity) out[key] = values;
  return out;
}

json thresholds_record(const ft::settings& t) {
  return {{"all", t.all_pct}, {"family", t.family_pct}, {"row", t.row_pct}, {"host_all", t.host_all_pct},
          {"host_row", t.host_row_pct}};
}

std::string membench_baseline(const fleet_state& s, const fleet_options& opt) {
  json fleets = json::array();
  for (const fleet& f : s.fleets) {
    // A stratum of too few GPUs is no reference (parse_baseline refuses it): left out, and
    // the report says so (fleet_document).
    if (!enough_for_baseline(f)) continue;
    json gpus = json::array();
    for (const fleet_gpu& g : f.gpus) gpus.push_back({{"uuid", g.uuid}, {"host", g.host}, {"runs", g.files.size()}});
    fleets.push_back({{"gpu_name", f.key.gpu_name}, {"memory_bytes", f.key.memory_bytes}, {"sm_count", f.key.sm_count},
                      {"max_sm_clock_mhz", f.key.max_sm_clock_mhz}, {"build", f.key.build},
                      {"stratum", identity_record(f.stratum)}, {"gpus", gpus},
                      {"identity", identity_record(fleet_identity(f))}, {"rows", rows_record(f)},
                      {"scopes", scopes_record(f.ref)}});
  }
  if (fleets.empty())
    throw input_error(fmt::format("--baseline-out: no stratum has {} GPUs or more: no reference to write",
                                  ft::settings{}.robust_gpus));
  json out = {{"format", baseline_format_name}, {"version", baseline_version},
              {"thresholds_pct", thresholds_record(opt.test)}, {"fleets", fleets}};
  return out.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

// {"MODEL/BUILD": {"ROW": [centre, lower, upper, "us"]}}: as fractions of the centre, the
// band one run of a healthy GPU keeps to on the row alone: the GPU-work threshold (every row a
// little slower is what a check of each row alone can see) beyond the row's healthy spread at
// the per-GPU level.
std::string reframe_baseline(const fleet_state& s, const fleet_options& opt) {
  json out = json::object();
  for (const fleet& f : s.fleets) {
    const std::string model = fmt::format("{}/{}", f.key.gpu_name, f.key.build);
    if (out.contains(model))
      throw input_error(fmt::format("--baseline-format reframe: two fleets are both '{}' (another stratum, memory "
                                    "size or clock): write them apart",
                                    model));
    json refs = json::object();
    for (const ft::scope_ref& sc : f.ref.scopes) {
      // A band over a fleet in two groups spans both: a GPU as slow as the slow group would pass.
      if (sc.split)
        throw input_error(fmt::format("--baseline-format reframe: {}'s reference splits on {} (no group of more than "
                                      "half its GPUs agrees): no band written; judge the fleet first and leave its "
                                      "slow GPUs out",
                                      model, ft::describe(sc)));
      if (sc.kind != ft::scope_kind::row || sc.gpus == 0) continue;
      const double z = ft::critical_z(opt.test, f.ref.scope_count(sc.p));
      const double sd = std::sqrt(sc.between + sc.run_variance(1) + sc.centre_variance() + sc.floor);
      const double half = std::log1p(opt.test.threshold_pct(sc.p, ft::scope_kind::all) / 100) + z * sd;
      const std::size_t r = sc.rows.front();
      refs[sc.name] = json::array({std::exp(f.ref.row_centre[r] + sc.centre), std::expm1(-half), std::expm1(half), "us"});
    }
    out[model] = refs;
  }
  return out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace

bool enough_for_baseline(const fleet& f) { return f.gpus.size() >= static_cast<std::size_t>(ft::settings{}.robust_gpus); }

std::string baseline_text(const fleet_state& s, const fleet_options& opt) {
  return opt.baseline_format == "reframe" ? reframe_baseline(s, opt) : membench_baseline(s, opt);
}

namespace {

figure figure_named(const std::string& name, const std::string& row) {
  for (figure f : {figure::single, figure::batch, figure::fastest}) {
    if (name == to_string(f)) return f;
  }
  throw input_error(fmt::format("row '{}': figure '{}' is none of single, batch, fastest", row, name));
}

ft::part part_named(const std::string& name) {
  if (name == "gpu") return ft::part::gpu;
  if (name == "host") return ft::part::host;
  throw input_error(fmt::format("part '{}' is neither gpu nor host", name));
}

// A baseline's identity or stratum: an object of identity fields, each a list of one value or more.
fleet_identity_values identity_of(const nlohmann::json& j, bool stratum) {
  if (!j.is_object()) throw input_error("identity: not an object of identity fields");
  fleet_identity_values out;
  for (const auto& [key, values] : j.items()) {
    const bool known = stratum ? std::find(stratum_keys().begin(), stratum_keys().end(), key) != stratum_keys().end()
                               : baseline_identity_key(key);
    if (!known) throw input_error(fmt::format("{}: '{}' is no field a baseline keeps there", stratum ? "stratum" : "identity", key));
    out.emplace_back(key, values.get<std::vector<std::string>>());
    if (out.back().second.empty()) throw input_error(fmt::format("identity: '{}' has no value", key));
  }
  if (stratum) {
    // In stratum_keys' order, as group_fleets makes them.
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      const auto& k = stratum_keys();
      return std::find(k.begin(), k.end(), a.first) < std::find(k.begin(), k.end(), b.first);
    });
  }
  return out;
}

double finite_at_least(const nlohmann::json& j, const char* key, double least, const std::string& what) {
  const double v = j.at(key).get<double>();
  if (!std::isfinite(v) || v < least) throw input_error(fmt::format("{}: {} out of range", what, key));
  return v;
}

// A count: a whole number from 0 to a million.
int count_at(const nlohmann::json& j, const char* key, const std::string& what) {
  const nlohmann::json& v = j.at(key);
  if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() > 1000000)
    throw input_error(fmt::format("{}: {} is no count", what, key));
  return static_cast<int>(v.get<std::int64_t>());
}

// A row's group as fleet makes it: its family, or under --by=level its level's.
void check_family(const std::string& name, const std::string& family) {
  const levels::level_row* level = levels::row_of(name);
  result r;
  r.set_name(name);
  const bool own = family == r.family();
  const bool levels_own = level != nullptr && family == level_group(*levels::find(level->level));
  if (!own && !levels_own)
    throw input_error(fmt::format("row '{}': family '{}' is neither its family nor its level's", name, family));
}

void read_rows(const nlohmann::json& rows, fleet_baseline::group& g) {
  for (const auto& r : rows) {
    const std::string name = r.at("name").get<std::string>();
    check_family(name, r.at("family").get<std::string>());
    const double centre = finite_at_least(r, "centre_us", 0, "row '" + name + "'");
    // A picosecond to eleven days: any time a row of membench's can take.
    if (!(centre >= 1e-6 && centre <= 1e12)) throw input_error(fmt::format("row '{}': centre_us out of range", name));
    g.ref.rows.push_back({name, r.at("family").get<std::string>(), part_named(r.at("part").get<std::string>()),
                          finite_at_least(r, "step", 0, "row '" + name + "'")});
    g.ref.row_centre.push_back(std::log(centre));
    g.figures.push_back(figure_named(r.at("figure").get<std::string>(), name));
  }
  std::vector<std::string> names;
  for (const ft::row_meta& m : g.ref.rows) names.push_back(m.name);
  std::sort(names.begin(), names.end());
  if (auto twice = std::adjacent_find(names.begin(), names.end()); twice != names.end())
    throw input_error(fmt::format("row '{}' given twice", *twice));
}

// The scopes the rows make, each with the statistics the file keeps of it.
void read_scopes(const nlohmann::json& scopes, fleet_baseline::group& g) {
  g.ref.scopes = ft::scopes_of(g.ref.rows);
  for (ft::scope_ref& sc : g.ref.scopes) {
    const auto it = std::find_if(scopes.begin(), scopes.end(), [&](const nlohmann::json& j) {
      return j.at("kind") == ft::to_string(sc.kind) && j.at("part") == ft::to_string(sc.p) && j.at("name") == sc.name;
    });
    if (it == scopes.end())
      throw input_error(fmt::format("no scope {} {} {}", ft::to_string(sc.p), ft::to_string(sc.kind), sc.name));
    const std::string what = fmt::format("scope {} {}", ft::to_string(sc.kind), sc.name);
    const double between = finite_at_least(*it, "between_sd", 0, what), within = finite_at_least(*it, "within_sd", 0, what);
    const double floor = finite_at_least(*it, "floor_sd", 0, what);
    const double tail = finite_at_least(*it, "within_tail_sd", 0, what);
    sc.centre = it->at("centre").get<double>();
    // A scope's centre and spreads are logs of ratios to the rows' centres: a tenfold one
    // is no healthy fleet's, and would vouch for a GPU ten times slower.
    if (!std::isfinite(sc.centre) || std::abs(sc.centre) > std::log(10.0)) throw input_error(what + ": centre out of range");
    for (double sd : {between, within, floor, tail}) {
      if (sd > std::log(10.0)) throw input_error(what + ": a spread out of range");
    }
    sc.between = between * between;
    sc.within = within * within;
    sc.within_tail = std::max(sc.within, tail * tail);
    sc.floor = floor * floor;
    sc.typical_runs = finite_at_least(*it, "typical_runs", 1, what);
    sc.gpus = count_at(*it, "gpus", what);
    sc.majority = count_at(*it, "majority", what);
    sc.split = it->at("split").get<bool>();
    // A split has no majority; no majority is a split but for host rows, which never split.
    const bool no_majority = 2 * sc.majority <= sc.gpus && sc.gpus > 0;
    if (sc.majority > sc.gpus || (sc.split && !no_majority) ||
        (no_majority && !sc.split && !(sc.p == ft::part::host && sc.kind == ft::scope_kind::row)))
      throw input_error(what + ": majority, gpus and split disagree");
  }
}

fleet_baseline::group group_of(const nlohmann::json& f) {
  fleet_baseline::group g;
  for (const char* k : {"gpu_name", "memory_bytes", "sm_count", "max_sm_clock_mhz", "build"})
    g.key.push_back(f.at(k).get<std::string>());
  g.stratum = identity_of(f.at("stratum"), true);
  for (const auto& gpu : f.at("gpus")) g.gpus.push_back(gpu.at("uuid").get<std::string>());
  std::vector<std::string> uuids = g.gpus;
  std::sort(uuids.begin(), uuids.end());
  if (auto twice = std::adjacent_find(uuids.begin(), uuids.end()); twice != uuids.end())
    throw input_error(fmt::format("GPU {} listed twice", *twice));
  // As a fleet's own reference needs them: fewer healthy GPUs are no reference.
  if (g.gpus.size() < static_cast<std::size_t>(ft::settings{}.robust_gpus))
    throw input_error(fmt::format("a fleet of {} GPU(s): a reference needs {} or more", g.gpus.size(), ft::settings{}.robust_gpus));
  g.identity = identity_of(f.at("identity"), false);
  read_rows(f.at("rows"), g);
  // A reference with no GPU work would vouch for every GPU on nothing.
  if (std::none_of(g.ref.rows.begin(), g.ref.rows.end(), [](const ft::row_meta& r) { return r.p == ft::part::gpu; }))
    throw input_error("a fleet without GPU-work rows");
  read_scopes(f.at("scopes"), g);
  ft::weigh_scopes(g.ref);
  g.ref.gpus = static_cast<int>(g.gpus.size());
  for (int& n : g.ref.part_gpus) n = g.ref.gpus;
  return g;
}

// A threshold in percent, within the range the command line takes (0 to 1000): one beyond it
// would vouch for any GPU.
double threshold_at(const nlohmann::json& t, const char* key, const std::string& what) {
  const double v = finite_at_least(t, key, 0, what);
  if (v > 1000) throw input_error(fmt::format("{}: {} above 1000 %", what, key));
  return v;
}

ft::settings thresholds_of(const nlohmann::json& t) {
  ft::settings s;
  const std::string what = "thresholds_pct";
  s.all_pct = threshold_at(t, "all", what);
  s.family_pct = threshold_at(t, "family", what);
  s.row_pct = threshold_at(t, "row", what);
  s.host_all_pct = threshold_at(t, "host_all", what);
  s.host_row_pct = threshold_at(t, "host_row", what);
  return s;
}

}  // namespace

fleet_baseline parse_baseline(std::string_view text, const std::string& path) {
  fleet_baseline b;
  b.path = path;
  const nlohmann::json j = parse_strict_json<nlohmann::json>(text, path);
  try {
    if (!j.is_object() || j.value("format", "") != baseline_format_name)
      throw input_error(fmt::format("not a fleet baseline (no \"format\": \"{}\"; a ReFrame reference is for ReFrame)",
                                    baseline_format_name));
    if (j.at("version") != baseline_version)
      throw input_error(fmt::format("baseline version {}, this membench-report reads {} (write it again with "
                                    "--baseline-out)",
                                    j.at("version").dump(), baseline_version));
    b.test = thresholds_of(j.at("thresholds_pct"));
    for (const auto& f : j.at("fleets")) {
      b.groups.push_back(group_of(f));
      const fleet_baseline::group& g = b.groups.back();
      const auto same = [&g](const fleet_baseline::group& o) { return o.key == g.key && o.stratum == g.stratum; };
      if (std::count_if(b.groups.begin(), b.groups.end(), same) > 1)
        throw input_error(fmt::format("two fleets of {} of stratum {}: which judges?", fmt::join(g.key, ", "),
                                      stratum_text(g.stratum)));
    }
    if (b.groups.empty()) throw input_error("no fleet in it");
  } catch (const input_error& e) {
    throw input_error(fmt::format("{}: {}", path, e.what()));
  } catch (const nlohmann::json::exception& e) {
    throw input_error(fmt::format("{}: not a fleet baseline ({})", path, e.what()));
  }
  return b;
}

}  // namespace membench::report
