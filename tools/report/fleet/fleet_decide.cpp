// fleet's second stage: each fleet's runs as a matrix of log times, its reference (its own,
// or a baseline's), and each GPU judged against it (fleet/gpu_test.hpp).
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/schema.hpp"
#include "common/stats.hpp"
#include "core/dates.hpp"
#include "fleet/fleet_stages.hpp"

namespace membench::report {
namespace {

namespace ft = fleet_test;

// A run's time in the figure its row is judged on; NaN where the run does not carry it.
double figure_of(const run& x, figure fig) {
  switch (fig) {
    case figure::single: return x.time_us;
    case figure::batch: return x.batch.us;
    case figure::fastest: return x.fastest_us;
  }
  return NAN;
}

// One file's usable repetitions of a row as one run: the median of their figure, as a log;
// NaN where it has none (errored, skipped, unconverged or throttled).
double file_log(const result_file& file, const std::string& name, figure fig) {
  const result* r = file.find(name);
  if (r == nullptr || r->skipped || r->error || !(r->time_us > 0)) return NAN;
  if (r->runs.empty()) return fig == figure::single ? std::log(r->time_us) : NAN;
  std::vector<double> v;
  for (const run& x : r->runs) {
    const double t = figure_of(x, fig);
    if (x.converged && x.throttle.empty() && t > 0) v.push_back(t);
  }
  return v.empty() ? NAN : std::log(median_of(std::move(v)));
}

// The timer's step relative to a row's time: the files' measured step (or CUDA's documented
// one) over the launches a sample times, over the median of the GPUs' times.
double relative_step(const fleet_row& r) {
  std::vector<double> times;
  double step = NAN, launches = 1;
  for (const side& s : r.sides) {
    for (const run* x : s.runs) {
      times.push_back(figure_of(*x, r.fig));
      launches = std::max(1.0, x->launches);
    }
    if (std::isnan(step) && std::isfinite(s.timer_resolution_us)) step = s.timer_resolution_us;
  }
  if (times.empty()) return 0;
  const double t = median_of(std::move(times));
  return t > 0 ? (std::isnan(step) ? default_timer_step_us : step) / launches / t : 0;
}

}  // namespace

std::vector<ft::row_meta> row_metas(const fleet& f) {
  std::vector<ft::row_meta> out;
  for (const fleet_row& r : f.rows) out.push_back({*r.name, r.family, part_of(r), relative_step(r)});
  return out;
}

ft::matrix matrix_of(const fleet& f, const std::vector<ft::row_meta>& rows, const std::vector<figure>& figs,
                     bool earlier) {
  ft::matrix m;
  m.rows = rows;
  for (const fleet_gpu& g : f.gpus) {
    const std::vector<const result_file*>& files = earlier ? g.earlier : g.files;
    ft::matrix::gpu out;
    out.runs = files.size();
    out.logs.assign(out.runs * rows.size(), NAN);
    for (std::size_t k = 0; k < out.runs; ++k) {
      for (std::size_t r = 0; r < rows.size(); ++r) out.logs[k * rows.size() + r] = file_log(*files[k], rows[r].name, figs[r]);
    }
    m.gpus.push_back(std::move(out));
  }
  return m;
}

namespace {

// The baseline's group of a fleet's key and stratum; null when it has none.
const fleet_baseline::group* find_group(const fleet_baseline& b, const fleet& f) {
  for (const fleet_baseline::group& g : b.groups) {
    if (g.key == f.key.fields() && g.stratum == f.stratum) return &g;
  }
  return nullptr;
}

// The baseline's group of a fleet's key and stratum. throws input_error when it has none
const fleet_baseline::group& baseline_group(const fleet_baseline& b, const fleet& f) {
  if (const fleet_baseline::group* g = find_group(b, f)) return *g;
  std::string has;
  for (const fleet_baseline::group& g : b.groups)
    has += fmt::format("{}{} of stratum {}", has.empty() ? "" : "; ", fmt::join(g.key, ", "), stratum_text(g.stratum));
  throw input_error(fmt::format("{}: no baseline for {} of stratum {} (it has: {})", b.path, f.key.text(),
                                stratum_text(f.stratum), has.empty() ? "none" : has));
}

// A fleet judged against a baseline: its matrix over the baseline's rows (a row the GPUs
// lack fails), the rows they have that it lacks noted.
void take_baseline(fleet& f, const fleet_baseline::group& g) {
  f.ref = g.ref;
  f.reference_gpus = static_cast<int>(g.gpus.size());
  f.baseline_identity = g.identity;
  f.runs = matrix_of(f, g.ref.rows, g.figures);
  for (const fleet_row& r : f.rows) {
    const bool kept = std::any_of(g.ref.rows.begin(), g.ref.rows.end(), [&](const ft::row_meta& m) { return m.name == *r.name; });
    if (!kept) f.not_in_baseline.push_back(*r.name);
  }
}

// The user's level and failed-row share at the thresholds the baseline was measured at: its
// majorities and splits are of those.
ft::settings with_thresholds(ft::settings s, const ft::settings& baseline) {
  s.all_pct = baseline.all_pct;
  s.family_pct = baseline.family_pct;
  s.row_pct = baseline.row_pct;
  s.host_all_pct = baseline.host_all_pct;
  s.host_row_pct = baseline.host_row_pct;
  return s;
}

// What host work depends on beyond the GPU: how many GPUs shared the host while it ran and
// whether the host rows ran one GPU at a time.
std::string host_shape(const fleet_gpu& g) {
  const result_file& f = *g.files.front();
  const std::string link = f.context_value(std::string(schema::context_key("membench_host_link").key));
  return fmt::format("{} GPU(s) a host, host rows {}",
                     f.context_value(std::string(schema::context_key("membench_concurrent_devices").key)),
                     link == "?" ? "together" : link);
}

// Host work judged among GPUs of one host shape only: a GPU alone on its host copies faster
// than one beside three others, and neither is a slow host.
void judge_hosts_by_shape(fleet& f, const ft::settings& s) {
  std::map<std::string, std::vector<std::size_t>> shapes;
  for (std::size_t g = 0; g < f.gpus.size(); ++g) shapes[host_shape(f.gpus[g])].push_back(g);
  f.host_shapes = shapes.size();
  if (shapes.size() < 2) return;
  for (const auto& [shape, members] : shapes) {
    ft::matrix sub;
    sub.rows = f.runs.rows;
    for (std::size_t g : members) sub.gpus.push_back(f.runs.gpus[g]);
    const std::vector<ft::gpu_result> r = ft::judge(sub, ft::reference_of(sub, s), s);
    for (std::size_t k = 0; k < members.size(); ++k) {
      ft::part_result& host = f.results[members[k]].parts[static_cast<int>(ft::part::host)];
      host = r[k].of(ft::part::host);
      if (host.v != ft::verdict::pass) host.why.text += fmt::format(" (among the {} GPU(s) of host shape {})", members.size(), shape);
    }
  }
}

// Against a baseline, host work is judged only where the baseline's GPUs ran it on the
// newcomer's host shape.
void keep_host_shape(fleet& f, const fleet_baseline::group& g) {
  auto values = [&g](std::string_view key) {
    for (const auto& [k, v] : g.identity) {
      if (k == key) return v;
    }
    return std::vector<std::string>{};
  };
  const std::vector<std::string> devices = values(schema::context_key("membench_concurrent_devices").key);
  const std::vector<std::string> links = values(schema::context_key("membench_host_link").key);
  for (std::size_t i = 0; i < f.gpus.size(); ++i) {
    const result_file& file = *f.gpus[i].files.front();
    const std::string mine = file.context_value(std::string(schema::context_key("membench_concurrent_devices").key));
    const std::string link = file.context_value(std::string(schema::context_key("membench_host_link").key));
    const bool same = devices.size() == 1 && devices.front() == mine &&
                      (links.empty() ? link == "?" : links.size() == 1 && links.front() == link);
    if (same) continue;
    ft::part_result& host = f.results[i].parts[static_cast<int>(ft::part::host)];
    host = {};
    host.v = ft::verdict::not_judged;
    host.why.add(reason_code::host_other_shape,
                 fmt::format("host work not judged: the baseline's GPUs ran it on another host shape ({} GPU(s) a "
                             "host, host rows {}) than this GPU ({}, {})",
                             devices.empty() ? "?" : fmt::format("{}", fmt::join(devices, "/")), links.empty() ? "together" : fmt::format("{}", fmt::join(links, "/")),
                             mine, link == "?" ? "together" : link));
  }
}

}  // namespace

std::string stratum_text(const fleet_identity_values& stratum) {
  std::string out;
  for (const auto& [key, values] : stratum) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", key, fmt::join(values, "/"));
  return out.empty() ? "(none)" : out;
}

// The reference that judges a fleet: the baseline given, else for a fleet of fewer than
// model_below GPUs the model reference's group of its stratum (a few GPUs cannot show where
// healthy chips of their model fall: three alike make a healthy fourth at the model's edge
// look slow, and two slow of four hide each other; H100 fleets of 4 to 16 did, of 32 or more
// did not) when that group holds more GPUs than the fleet (fewer know less than the fleet itself:
// four reference GPUs judging sixteen called a healthy one), else none (the fleet's own).
const fleet_baseline::group* judging_group(const fleet& f, const fleet_options& opt, const fleet_baseline* against,
                                           const fleet_baseline* model) {
  if (against != nullptr) {
    // A reference of families judges no fleet grouped by level, nor the other way round.
    const fleet_baseline::group& g = baseline_group(*against, f);
    const char* baseline_by = grouped_by_level(g.ref) ? "level" : "family";
    if (baseline_by != opt.by)
      throw input_error(fmt::format("{}: its reference groups the rows by {}, this fleet by {} (--by): write the "
                                    "baseline with --by={}, or judge with --by={}",
                                    against->path, baseline_by, opt.by, opt.by, baseline_by));
    return &g;
  }
  if (model == nullptr || f.gpus.size() >= static_cast<std::size_t>(opt.model_below)) return nullptr;
  const fleet_baseline::group* g = find_group(*model, f);
  // Rows grouped otherwise than this judgement groups them (a quick-tier model for --by=level)
  // are another test's reference.
  const bool same_grouping = grouped_by_level(g != nullptr ? g->ref : ft::reference{}) == (opt.by == "level");
  return g != nullptr && same_grouping && g->gpus.size() > f.gpus.size() ? g : nullptr;
}

void decide_fleets(fleet_state& s, const fleet_options& opt, const fleet_baseline* against, const fleet_baseline* model) {
  s.test = against != nullptr ? with_thresholds(opt.test, against->test) : opt.test;
  for (fleet& f : s.fleets) {
    std::vector<figure> figs;
    ft::settings t = opt.test;
    if (const fleet_baseline::group* found = judging_group(f, opt, against, model)) {
      const fleet_baseline& from = against != nullptr ? *against : *model;
      const fleet_baseline::group& g = *found;
      f.reference_path = from.path;
      f.by_model = against == nullptr;
      take_baseline(f, g);
      t = with_thresholds(opt.test, from.test);
      f.results = ft::judge(f.runs, f.ref, t);
      keep_host_shape(f, g);
      figs = g.figures;
    } else {
      for (const fleet_row& r : f.rows) figs.push_back(r.fig);
      f.runs = matrix_of(f, row_metas(f), figs);
      f.ref = ft::reference_of(f.runs, t);
      f.reference_gpus = static_cast<int>(f.gpus.size());
      f.results = ft::judge(f.runs, f.ref, t);
      judge_hosts_by_shape(f, t);
    }
    if (!s.since.empty()) f.drift = ft::drift(matrix_of(f, f.ref.rows, figs, true), f.runs, f.ref, t);
  }
}

std::vector<gpu_at_host> split_by_date(std::vector<fleet>& fleets, const std::string& since) {
  // As instants, offsets applied: text compares "2026-11-30T01:00:00+05:00" after 2026-11-30.
  const double from = date_seconds(since);
  if (std::isnan(from)) throw input_error(fmt::format("--since: '{}' is not a date", since));
  std::vector<gpu_at_host> dropped;
  for (fleet& f : fleets) {
    std::vector<fleet_gpu> kept;
    for (fleet_gpu& g : f.gpus) {
      std::vector<const result_file*> now;
      for (const result_file* file : g.files) {
        const std::string date = file->context_value("date");
        const double at = date_seconds(date);
        if (std::isnan(at))
          throw input_error(fmt::format("{}: {} in its context: --since needs each run's date", file->path,
                                        date == "?" ? std::string("no date") : fmt::format("'{}' is no date", date)));
        (at < from ? g.earlier : now).push_back(file);
      }
      g.files = std::move(now);
      if (g.files.empty()) {
        dropped.push_back({g.uuid, g.host});
      } else {
        kept.push_back(std::move(g));
      }
    }
    f.gpus = std::move(kept);
  }
  fleets.erase(std::remove_if(fleets.begin(), fleets.end(), [](const fleet& f) { return f.gpus.empty(); }), fleets.end());
  return dropped;
}

}  // namespace membench::report
