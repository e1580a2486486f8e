// fleet's baselines: each fleet's centre and band per row, written (--baseline-out) in
// membench's form, which --baseline reads back, or in ReFrame's reference form; and read.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "fleet_stages.hpp"
#include "intervals.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;

constexpr const char* baseline_format_name = "membench-fleet-baseline";
// 2: each row says its figure (a copy's centre is of its fastest samples).
constexpr int baseline_version = 2;

const char* work_name(run::work_kind w) {
  return w == run::work_kind::host ? "host" : w == run::work_kind::copy ? "copy" : "kernel";
}

// The noisiest work any GPU's runs of the row time.
run::work_kind row_work(const fleet_row& r) {
  run::work_kind w = run::work_kind::kernel;
  for (const side& s : r.sides) w = std::max(w, detail::work_of(s, side{}));
  return w;
}

// The band of a row: the times of one run of a new GPU that fleet would call neither slower
// nor faster against this centre alone (no family correction): beyond the threshold by the
// interval's half-width, from the run's floor and the centre's uncertainty.
std::pair<double, double> band_of(const row_centre& c, run::work_kind w, const decide_options& o) {
  const double floor = o.run_spread_at(w, c.centre_us);
  const detail::side_spread one{floor * floor, INFINITY, NAN};
  const detail::side_spread centre{c.variance(), c.gpus > 1 ? c.gpus - 1.0 : INFINITY, NAN};
  const auto [lo, hi] = detail::t_interval(centre, one, o.confidence, 0);
  return {c.centre_us * (1 - o.threshold) * std::exp(lo), c.centre_us * (1 + o.threshold) * std::exp(hi)};
}

json fleet_rows(const fleet& f, const decide_options& o) {
  json rows = json::array();
  for (std::size_t i = 0; i < f.rows.size(); ++i) {
    const row_centre& c = f.centres[i];
    if (!c.known()) continue;
    const run::work_kind w = row_work(f.rows[i]);
    const auto [low, high] = band_of(c, w, o);
    rows.push_back({{"name", *f.rows[i].name}, {"work", work_name(w)}, {"figure", to_string(f.rows[i].fig)},
                    {"gpus", c.gpus}, {"centre_us", c.centre_us},
                    {"spread", c.spread}, {"clock_mhz", std::isfinite(c.clock_mhz) ? json(c.clock_mhz) : json(nullptr)},
                    {"run_spread", c.run_df > 0 ? json(std::sqrt(c.run_variance)) : json(nullptr)}, {"run_df", c.run_df},
                    {"band_low_us", low}, {"band_high_us", high}});
  }
  return rows;
}

json identity_record(const fleet_identity_values& identity) {
  json out = json::object();
  for (const auto& [key, values] : identity) out[key] = values;
  return out;
}

std::string membench_baseline(const fleet_state& s, const fleet_options& opt) {
  const decide_options o = opt.decide();
  json fleets = json::array();
  for (const fleet& f : s.fleets) {
    json gpus = json::array();
    for (const fleet_gpu& g : f.gpus) gpus.push_back({{"uuid", g.uuid}, {"host", g.host}, {"runs", g.files.size()}});
    fleets.push_back({{"gpu_name", f.key.gpu_name}, {"memory_bytes", f.key.memory_bytes}, {"sm_count", f.key.sm_count},
                      {"max_sm_clock_mhz", f.key.max_sm_clock_mhz}, {"build", f.key.build}, {"gpus", gpus},
                      {"identity", identity_record(fleet_identity(f))}, {"rows", fleet_rows(f, o)}});
  }
  json out = {{"format", baseline_format_name}, {"version", baseline_version},
              {"threshold_pct", opt.test.threshold_pct}, {"confidence_pct", opt.test.confidence_pct},
              {"fleets", fleets}};
  return out.dump(2) + "\n";
}

// {"MODEL/BUILD": {"ROW": [centre, lower, upper, "us"]}}: the band as fractions of the centre.
std::string reframe_baseline(const fleet_state& s, const fleet_options& opt) {
  const decide_options o = opt.decide();
  json out = json::object();
  for (const fleet& f : s.fleets) {
    const std::string model = fmt::format("{}/{}", f.key.gpu_name, f.key.build);
    if (out.contains(model))
      throw input_error(fmt::format("--baseline-format reframe: two fleets are both '{}' (another memory size or "
                                    "clock): write them apart",
                                    model));
    json refs = json::object();
    for (std::size_t i = 0; i < f.rows.size(); ++i) {
      const row_centre& c = f.centres[i];
      if (!c.known()) continue;
      const auto [low, high] = band_of(c, row_work(f.rows[i]), o);
      refs[*f.rows[i].name] = json::array({c.centre_us, low / c.centre_us - 1, high / c.centre_us - 1, "us"});
    }
    out[model] = refs;
  }
  return out.dump(2) + "\n";
}

}  // namespace

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

baseline_row row_of(const nlohmann::json& r) {
  auto maybe = [&r](const char* key) { return r.at(key).is_null() ? NAN : r.at(key).get<double>(); };
  const std::string name = r.at("name").get<std::string>();
  baseline_row b{r.at("centre_us").get<double>(), r.at("spread").get<double>(), r.at("gpus").get<int>(),
                 maybe("clock_mhz"), maybe("run_spread"), r.at("run_df").get<double>(),
                 figure_named(r.at("figure").get<std::string>(), name)};
  const bool runs_ok = b.run_df == 0 || (b.run_df > 0 && b.run_spread >= 0 && std::isfinite(b.run_spread));
  if (!(b.centre_us > 0) || !std::isfinite(b.centre_us) || !(b.spread >= 0) || !std::isfinite(b.spread) ||
      b.gpus < 1 || !runs_ok)
    throw input_error(fmt::format("row '{}': centre_us, spread, gpus or run_spread out of range", name));
  return b;
}

// A baseline's identity: an object of identity fields, each a list of one value or more.
fleet_identity_values identity_of(const nlohmann::json& j) {
  if (!j.is_object()) throw input_error("identity: not an object of identity fields");
  fleet_identity_values out;
  for (const auto& [key, values] : j.items()) {
    if (!baseline_identity_key(key)) throw input_error(fmt::format("identity: '{}' is no field a baseline keeps", key));
    out.emplace_back(key, values.get<std::vector<std::string>>());
    if (out.back().second.empty()) throw input_error(fmt::format("identity: '{}' has no value", key));
  }
  return out;
}

fleet_baseline::group group_of(const nlohmann::json& f) {
  fleet_baseline::group g;
  for (const char* k : {"gpu_name", "memory_bytes", "sm_count", "max_sm_clock_mhz", "build"})
    g.key.push_back(f.at(k).get<std::string>());
  for (const auto& gpu : f.at("gpus")) g.gpus.push_back(gpu.at("uuid").get<std::string>());
  for (const auto& r : f.at("rows")) g.rows.emplace_back(r.at("name").get<std::string>(), row_of(r));
  // Optional: a baseline written before it kept its GPUs' identity has none.
  if (f.contains("identity")) g.identity = identity_of(f.at("identity"));
  std::sort(g.rows.begin(), g.rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 1; i < g.rows.size(); ++i) {
    if (g.rows[i].first == g.rows[i - 1].first) throw input_error(fmt::format("row '{}' given twice", g.rows[i].first));
  }
  return g;
}

}  // namespace

fleet_baseline parse_baseline(std::string_view text, const std::string& path) {
  fleet_baseline b;
  b.path = path;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object() || j.value("format", "") != baseline_format_name)
      throw input_error(fmt::format("not a fleet baseline (no \"format\": \"{}\"; a ReFrame reference is for ReFrame)",
                                    baseline_format_name));
    if (j.at("version") != baseline_version)
      throw input_error(fmt::format("baseline version {}, this membench-report reads {} (write it again with "
                                    "--baseline-out)",
                                    j.at("version").dump(), baseline_version));
    for (const auto& f : j.at("fleets")) b.groups.push_back(group_of(f));
  } catch (const input_error& e) {
    throw input_error(fmt::format("{}: {}", path, e.what()));
  } catch (const nlohmann::json::exception& e) {
    throw input_error(fmt::format("{}: not a fleet baseline ({})", path, e.what()));
  }
  return b;
}

}  // namespace membench::report
