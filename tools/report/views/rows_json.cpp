// rows: each row's facts as JSON, for programs that quote rows (reports/make_findings.py):
// its values, the interval of its median time and whether it can be quoted as it is.
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/schema.hpp"
#include "common/stats.hpp"
#include "stats/intervals.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the docs list them

// Fewer samples than this make a median whose interval is itself unreliable.
constexpr double min_samples = 10;

json number(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

json problem(const char* kind, const std::string& detail) { return {{"kind", kind}, {"detail", detail}}; }

// Why a row may not be quoted as it is: an error, convergence not recorded (files from
// before membench recorded it), not converged, too few samples, throttled.
json problems_of(const result& r) {
  json out = json::array();
  if (r.error) return json::array({problem("error", *r.error)});
  const double* converged = r.counters.find(schema::counter("converged").key);
  const double* samples = r.counters.find(schema::counter("samples").key);
  std::string throttle;
  bool unconverged = false;
  for (const run& x : r.runs) {
    unconverged = unconverged || !x.converged;
    if (x.throttle.empty() || throttle.find(x.throttle) != std::string::npos) continue;
    if (!throttle.empty()) throttle += ',';
    throttle += x.throttle;
  }
  if (converged == nullptr || samples == nullptr) {
    out.push_back(problem("unrecorded", "no converged or samples counter"));
  } else if (unconverged || *converged == 0) {
    out.push_back(problem("unconverged", ""));
  } else if (*samples < min_samples) {
    out.push_back(problem("few_samples", ""));
  }
  if (!throttle.empty()) out.push_back(problem("throttled", throttle));
  return out;
}

// The interval of the median time of a row of one run at the file's level: its own
// interval widened to contain the median, else the normal approximation from its noise.
json time_interval(const result& r, double ci_level) {
  if (r.runs.size() != 1) return nullptr;
  const run& x = r.runs.front();
  if (x.ci_low_us > 0 && x.ci_high_us > 0)
    return {{"low_us", std::min(x.ci_low_us, x.time_us)}, {"high_us", std::max(x.ci_high_us, x.time_us)},
            {"from", "ci"}};
  if (!(x.noise_pct >= 0 && x.sample_count >= 1)) return nullptr;
  const double z = standard_normal_quantile(0.5 + ci_level / 2);
  const double half = z * std::sqrt(detail::within_variance(x, evidence::noise, ci_level));
  return {{"low_us", x.time_us * std::exp(-half)}, {"high_us", x.time_us * std::exp(half)}, {"from", "noise"}};
}

json row_record(const result& r, double ci_level) {
  json counters = json::object();
  for (const auto& [name, v] : r.counters) counters[std::string(name)] = number(v);
  const json problems = problems_of(r);
  return {{"name", r.name},
          {"error", r.error ? json(*r.error) : json(nullptr)},
          {"label", std::string(r.label)},
          {"time_us", number(r.time_us)},
          {"counters", counters},
          {"interval", r.error ? json(nullptr) : time_interval(r, ci_level)},
          {"usable", problems.empty()},
          {"problems", problems}};
}

}  // namespace

std::string rows_json(const file_refs& files, const std::string& filter) {
  const name_filter keep(filter);
  json out = json::array();
  std::size_t kept = 0;
  for (const result_file& f : files) {
    // As table and fleet: a results file without rows (a run that wrote only its context)
    // is unusable, named; never answered with an empty list.
    if (f.results.empty()) throw input_error(fmt::format("{}: no benchmark rows (an empty \"benchmarks\" list)", f.path));
    json rows = json::array();
    for (const result& r : f.results) {
      if (keep(r.name)) rows.push_back(row_record(r, f.ci_level()));
    }
    kept += rows.size();
    out.push_back({{"path", f.path}, {"ci_level_pct", 100 * f.ci_level()}, {"context", f.context}, {"rows", rows}});
  }
  // As every other command: a filter that keeps nothing is a mistake to say, never an empty answer.
  if (kept == 0 && !filter.empty()) throw input_error(fmt::format("no benchmark matches --filter '{}'", filter));
  return json{{"files", out}}.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace membench::report
