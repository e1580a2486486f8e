// fleet's first stage: the files as fleets (one model and build each), a fleet's GPUs by
// their UUID, and its rows with every GPU's usable runs of each.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "fleet_stages.hpp"

namespace membench::report {
namespace {

std::string context_of(const result_file& f, std::string_view key) { return f.context_value(std::string(key)); }

std::string uuid_of(const result_file& f) {
  const std::string u = context_of(f, schema::context_key("gpu_uuid").key);
  if (u == "?" || u.empty())
    throw input_error(fmt::format("{}: no gpu_uuid in its context: fleet must know which GPU ran each file (membench "
                                  "writes it)",
                                  f.path));
  return u;
}

fleet& fleet_for(std::vector<fleet>& fleets, const fleet_key& key) {
  for (fleet& f : fleets) {
    if (f.key == key) return f;
  }
  fleets.emplace_back();
  fleets.back().key = key;
  return fleets.back();
}

fleet_gpu& gpu_for(fleet& f, const std::string& uuid, const result_file& file) {
  for (fleet_gpu& g : f.gpus) {
    if (g.uuid == uuid) return g;
  }
  f.gpus.push_back({uuid, context_of(file, schema::context_key("host_name").key), {}});
  return f.gpus.back();
}

}  // namespace

std::vector<std::string> fleet_key::fields() const { return {gpu_name, memory_bytes, sm_count, max_sm_clock_mhz, build}; }

std::string fleet_key::text() const {
  return fmt::format("{} ({} bytes, {} SMs, {} MHz), {} build", gpu_name, memory_bytes, sm_count, max_sm_clock_mhz,
                     build);
}

fleet_key key_of(const result_file& f) {
  return {f.gpu(), context_of(f, schema::context_key("gpu_global_mem_bytes").key),
          context_of(f, schema::context_key("gpu_sm_count").key),
          context_of(f, schema::context_key("nvml_max_sm_clock_mhz").key), f.build()};
}

const char* to_string(left_out w) noexcept {
  switch (w) {
    case left_out::none: return "none";
    case left_out::missing: return "missing";
    case left_out::error: return "error";
    case left_out::skipped: return "skipped";
    case left_out::unconverged: return "unconverged";
    case left_out::no_reference: return "not in the baseline";
    case left_out::other_figure: return "of another figure than the baseline's";
  }
  return "?";
}

std::vector<fleet> group_fleets(const file_refs& files, bool allow_mixed) {
  std::vector<fleet> fleets;
  for (const result_file& file : files) {
    const std::string uuid = uuid_of(file);
    gpu_for(fleet_for(fleets, key_of(file)), uuid, file).files.push_back(&file);
  }
  if (fleets.size() > 1 && !allow_mixed) {
    std::string keys;
    for (const fleet& f : fleets) keys += fmt::format("; {}: {} GPU(s)", f.key.text(), f.gpus.size());
    throw input_error(fmt::format("the files are of {} models or builds{} (--allow-mixed judges each as a fleet of "
                                  "its own)",
                                  fleets.size(), keys));
  }
  return fleets;
}

bool multi_gpu_row(const result& r) {
  return r.space() == "peer" || !r.param("src").empty() || !r.param("dst").empty();
}

namespace {

// Adds a result's runs to a side (an aggregates-only result as its aggregate, unless the side
// has runs); what keeps the result from adding any.
left_out add_result(side& s, const result& r, const result_file& f) {
  if (r.skipped) return left_out::skipped;
  if (r.error || !(r.time_us > 0)) return left_out::error;
  side one;
  add_to_side(one, r, f);
  s.ci_level = one.ci_level;
  if (std::isnan(s.reference_clock_mhz)) s.reference_clock_mhz = one.reference_clock_mhz;
  if (r.runs.empty()) {
    if (s.runs.empty() && std::isnan(s.aggregate_us)) {
      s.aggregate_us = one.aggregate_us;
      s.aggregate_cv = one.aggregate_cv;
      s.aggregate_count = one.aggregate_count;
    }
    return left_out::none;
  }
  s.runs.insert(s.runs.end(), one.runs.begin(), one.runs.end());
  return left_out::none;
}

// A run that did not converge has a median less precise than its interval says: left out of
// a GPU's few runs, kept among calibration_runs or more, whose measured spread carries it
// (compare's rule).
void keep_usable_runs(side& s, int calibration_runs) {
  if (calibration_runs > 0 && s.runs.size() >= static_cast<std::size_t>(std::max(2, calibration_runs))) return;
  s.runs.erase(std::remove_if(s.runs.begin(), s.runs.end(), [](const run* x) { return !x->converged; }), s.runs.end());
}

// A GPU's usable runs of one row over its files, or why it has none: the first problem of
// a file that has the row, unconverged when every run it had was, else missing.
left_out add_runs(side& s, const std::string& name, const fleet_gpu& g, int calibration_runs) {
  left_out why = left_out::missing;
  for (const result_file* f : g.files) {
    const result* r = f->find(name);
    if (r == nullptr) continue;
    const left_out problem = add_result(s, *r, *f);
    if (why == left_out::missing) why = problem;
  }
  const bool had_runs = !s.runs.empty();
  keep_usable_runs(s, calibration_runs);
  if (!s.runs.empty() || !std::isnan(s.aggregate_us)) return left_out::none;
  return had_runs ? left_out::unconverged : why;
}

// The figure a row's GPUs are judged on. A copy's fastest sample where every run is a copy
// that carries one: the GPUs of a host share its memory and root ports, and a copy beside
// theirs only ever takes longer, so its median carries its neighbours' copies and its
// fastest sample its own link. Else compare's choice: the batch figure where every run
// carries one with an interval and it resolves the row more finely.
void use_better_figure(fleet_row& row) {
  std::vector<const side*> compared;
  for (std::size_t k = 0; k < row.sides.size(); ++k) {
    if (row.why[k] == left_out::none) compared.push_back(&row.sides[k]);
  }
  row.fig = copies_with_fastest(compared) ? figure::fastest : better_figure(compared);
  if (row.fig == figure::single) return;
  for (std::size_t k = 0; k < row.sides.size(); ++k) {
    if (row.why[k] != left_out::none) continue;
    row.sides[k] = row.fig == figure::batch ? batch_side(row.sides[k]) : fastest_side(row.sides[k]);
  }
}

}  // namespace

void gather_rows(fleet& f, const name_filter& filter, std::vector<std::string>& multi_gpu, int calibration_runs) {
  std::set<std::string_view> seen;
  for (const fleet_gpu& g : f.gpus) {
    for (const result_file* file : g.files) {
      for (const result& r : file->results) {
        if (!filter(r.name) || !seen.insert(r.name).second) continue;
        if (multi_gpu_row(r)) {
          if (std::find(multi_gpu.begin(), multi_gpu.end(), r.name) == multi_gpu.end()) multi_gpu.push_back(r.name);
          continue;
        }
        fleet_row row;
        row.name = &r.name;
        row.family = r.family();
        for (const fleet_gpu& gpu : f.gpus) {
          row.sides.emplace_back();
          row.why.push_back(add_runs(row.sides.back(), r.name, gpu, calibration_runs));
        }
        use_better_figure(row);
        f.rows.push_back(std::move(row));
      }
    }
  }
}

std::string gpu_label(const fleet& f, std::size_t gpu) {
  auto short_form = [](const std::string& uuid) { return uuid.substr(0, 12); };
  const std::string mine = short_form(f.gpus[gpu].uuid);
  for (std::size_t k = 0; k < f.gpus.size(); ++k) {
    if (k != gpu && short_form(f.gpus[k].uuid) == mine) return f.gpus[gpu].uuid;
  }
  return mine;
}

}  // namespace membench::report
