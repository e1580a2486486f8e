// fleet's first stage: the files as fleets (one model and build each), a fleet's GPUs by
// their UUID, and its rows with every GPU's usable runs of each.
#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>
#include <set>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "core/escape.hpp"
#include "fleet/fleet_stages.hpp"

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

fleet& fleet_for(std::vector<fleet>& fleets, const fleet_key& key, const fleet_identity_values& stratum) {
  for (fleet& f : fleets) {
    if (f.key == key && f.stratum == stratum) return f;
  }
  fleets.emplace_back();
  fleets.back().key = key;
  fleets.back().stratum = stratum;
  return fleets.back();
}

// GPU `uuid` on the file's host in fleet `fi`, made on its first file; `index` finds it in
// one step. One UUID on two hosts is two GPUs until shown otherwise: merged, a slow GPU's
// runs would hide among another's (a file copied between hosts, a GPU moved).
fleet_gpu& gpu_for(fleet& f, std::size_t fi, const std::string& uuid, const result_file& file,
                   std::map<std::pair<std::size_t, std::string>, std::size_t>& index) {
  const std::string host = context_of(file, schema::context_key("host_name").key);
  const auto [it, fresh] = index.try_emplace({fi, uuid + '\n' + host}, f.gpus.size());
  if (fresh) f.gpus.push_back({uuid, host, {}, {}});
  return f.gpus[it->second];
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

const std::vector<std::string_view>& stratum_keys() {
  static const std::vector<std::string_view> keys{
      schema::context_key("gpu_board_part").key, schema::context_key("gpu_vbios").key,
      schema::context_key("gpu_mem_clock_mhz").key, schema::context_key("nvml_power_limit_w").key};
  return keys;
}

namespace {

// The stratum fields a file names, with their values (a field the file lacks is left out).
fleet_identity_values stratum_of(const result_file& f) {
  fleet_identity_values out;
  for (std::string_view key : stratum_keys()) {
    const std::string v = context_of(f, key);
    if (v != "?" && !v.empty()) out.emplace_back(std::string(key), std::vector<std::string>{v});
  }
  return out;
}

// A file whose rows all involve several GPUs (the peer matrix) is no run of the GPU its
// context names.
bool peer_rows_only(const result_file& f) {
  return !f.results.empty() && std::all_of(f.results.begin(), f.results.end(), multi_gpu_row);
}

}  // namespace

std::vector<fleet> group_fleets(const file_refs& files, bool allow_mixed, std::vector<std::string>* set_aside) {
  std::vector<fleet> fleets;
  std::vector<std::string> notes;
  std::map<std::string, std::string> first_of_run;  // a run's identity: its first file
  std::map<std::pair<std::size_t, std::string>, std::size_t> index;
  for (const result_file& file : files) {
    if (peer_rows_only(file)) {
      notes.push_back(fmt::format("{}: rows of several GPUs only (a peer matrix): no run of one GPU", file.path));
      continue;
    }
    // Each run once, whichever GPU, host or date a copy of it names: counted twice it would
    // narrow a spread, or make a second GPU out of one.
    if (const auto [it, fresh] = first_of_run.try_emplace(file.run_identity(), file.path); !fresh) {
      notes.push_back(fmt::format("{}: the same run as {} (its rows' times): counted once", file.path, it->second));
      continue;
    }
    const std::string uuid = uuid_of(file);
    fleet& f = fleet_for(fleets, key_of(file), stratum_of(file));
    gpu_for(f, static_cast<std::size_t>(&f - fleets.data()), uuid, file, index).files.push_back(&file);
  }
  if (set_aside != nullptr) set_aside->insert(set_aside->end(), notes.begin(), notes.end());
  std::vector<const fleet_key*> keys;
  std::string listed;
  for (const fleet& f : fleets) {
    if (std::any_of(keys.begin(), keys.end(), [&](const fleet_key* k) { return *k == f.key; })) continue;
    keys.push_back(&f.key);
    listed += fmt::format("; {}", f.key.text());
  }
  if (keys.size() > 1 && !allow_mixed)
    throw input_error(fmt::format("the files are of {} models or builds{} (--allow-mixed judges each as a fleet of "
                                  "its own)",
                                  keys.size(), listed));
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
  // The coarsest timer step of the GPU's files, as add_to_side keeps it.
  if (std::isnan(s.timer_resolution_us) || one.timer_resolution_us > s.timer_resolution_us)
    s.timer_resolution_us = one.timer_resolution_us;
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

// A run that did not converge has a median less precise than its interval says, and one
// throttled measured a GPU held back: neither is judged (the row fails where no run is left).
bool usable(const run& x) { return x.converged && x.throttle.empty(); }

void keep_usable_runs(side& s) {
  s.runs.erase(std::remove_if(s.runs.begin(), s.runs.end(), [](const run* x) { return !usable(*x); }), s.runs.end());
}

// A GPU's usable runs of one row over its files, or why it has none: the first problem of
// a file that has the row, unconverged when every run it had was, else missing.
left_out add_runs(side& s, const std::string& name, const fleet_gpu& g) {
  left_out why = left_out::missing;
  for (const result_file* f : g.files) {
    const result* r = f->find(name);
    if (r == nullptr) continue;
    const left_out problem = add_result(s, *r, *f);
    if (why == left_out::missing) why = problem;
  }
  const bool had_runs = !s.runs.empty();
  keep_usable_runs(s);
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

std::string level_group(const levels::level& l) { return fmt::format("level {}", l.title); }

void gather_rows(fleet& f, const name_filter& filter, std::vector<std::string>& multi_gpu, std::vector<std::string>* no_level) {
  std::set<std::string_view> seen;
  for (const fleet_gpu& g : f.gpus) {
    for (const result_file* file : g.files) {
      for (const result& r : file->results) {
        if (!filter(r.name) || !seen.insert(r.name).second) continue;
        if (multi_gpu_row(r)) {
          if (std::find(multi_gpu.begin(), multi_gpu.end(), r.name) == multi_gpu.end()) multi_gpu.push_back(r.name);
          continue;
        }
        const levels::level_row* level = levels::row_of(r.name);
        if (no_level != nullptr && level == nullptr) {
          no_level->push_back(r.name);
          continue;
        }
        fleet_row row;
        row.name = &r.name;
        row.family = no_level != nullptr ? level_group(*levels::find(level->level)) : r.family();
        for (const fleet_gpu& gpu : f.gpus) {
          row.sides.emplace_back();
          row.why.push_back(add_runs(row.sides.back(), r.name, gpu));
        }
        use_better_figure(row);
        f.rows.push_back(std::move(row));
      }
    }
  }
}

fleet_test::part part_of(const fleet_row& r) {
  // The runs must agree: a GPU's files relabelling a row as host work would take it out of
  // every GPU's judged work (host work of few runs is not judged).
  bool kernel = false, host = false;
  for (const side& s : r.sides) {
    for (const run* x : s.runs) (x->work == run::work_kind::kernel ? kernel : host) = true;
  }
  if (kernel && host)
    throw input_error(fmt::format("{}: some runs label it GPU work, others host work (work:): runs of one row "
                                  "measured differently are not one fleet's",
                                  *r.name));
  return host ? fleet_test::part::host : fleet_test::part::gpu;
}

std::vector<std::string> gpu_labels(const fleet& f) {
  // Twelve characters, not bytes: a UUID is whatever the file says, and a cut never splits one.
  const auto head = [](const std::string& uuid) { return std::string(utf8_prefix(uuid, 12)); };
  std::unordered_map<std::string, int> seen, whole;
  for (const fleet_gpu& g : f.gpus) ++seen[head(g.uuid)], ++whole[g.uuid];
  std::vector<std::string> out;
  for (const fleet_gpu& g : f.gpus) {
    std::string label = seen[head(g.uuid)] > 1 ? g.uuid : head(g.uuid);
    if (whole[g.uuid] > 1) label += "@" + g.host;  // one UUID on several hosts
    out.push_back(std::move(label));
  }
  return out;
}

}  // namespace membench::report
