// profile's model: files grouped per GPU, each row's headline with its interval and flag,
// the latency ladder and the bandwidth by level. Rows are picked by what the GPU reports
// (its L2 size), never by a fixed size, so the page reads any GPU's run.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "common/levels.hpp"

#include "profile/profile.hpp"
#include "views/headline.hpp"
#include "views/sm_clock.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

std::string ctx(const result_file& f, std::string_view key) {
  const std::string v = f.context_value(std::string(key));
  return v == "?" ? std::string("not recorded") : v;
}

double ctx_number(const result_file& f, std::string_view key) {
  const auto v = numeric_value(f.context_value(std::string(key)));
  return v ? *v : NAN;
}

// A device index from the context ("none (why)" and absent: -1).
int device_of(const result_file& f) {
  const double d = ctx_number(f, "gpu_device");
  return std::isfinite(d) && d >= 0 && d < 1e6 ? static_cast<int>(d) : -1;
}

// A level's name as every output gives it (common/levels.hpp).
std::string title(std::string_view level) { return std::string(levels::find(level)->title); }

double param_number(const result& r, std::string_view key) {
  const auto v = numeric_value(r.param(key));
  return v ? *v : NAN;
}

// A parameter's value in a benchmark name (`src` of `peer/latency/src:3/...`).
std::string param_text(std::string_view name, std::string_view key) {
  const std::size_t at = name.find(fmt::format("/{}:", key));
  if (at == std::string_view::npos) return "?";
  const std::size_t from = at + key.size() + 2;
  return std::string(name.substr(from, name.find('/', from) - from));
}

// Who a file's GPU is: its UUID, else its name, host and PCI bus (files from before the
// UUID; a bus id names a slot within one host, and many hosts have a GPU at 0000:18:00.0).
std::string gpu_key(const result_file& f) {
  const std::string uuid = f.context_value(std::string(schema::context_key("gpu_uuid").key));
  if (uuid != "?") return uuid;
  return f.gpu() + "\n" + f.context_value(std::string(schema::context_key("host_name").key)) + "\n" +
         f.context_value(std::string(schema::context_key("gpu_pci_bus_id").key));
}

bool peer_rows_only(const result_file& f) {
  return !f.results.empty() &&
         std::all_of(f.results.begin(), f.results.end(), [](const result& r) { return r.space() == "peer"; });
}

// Every row of `family` in the GPU's files that `keep` accepts.
template <class Keep>
std::vector<std::pair<const result*, const result_file*>> rows_of(const std::vector<const result_file*>& files,
                                                                  std::string_view family, Keep keep) {
  std::vector<std::pair<const result*, const result_file*>> out;
  for (const result_file* f : files) {
    for (const result& r : f->results) {
      if (r.family() == family && keep(r, *f)) out.emplace_back(&r, f);
    }
  }
  return out;
}

// The row of the highest (lowest) headline among those that are findings, else among all (flagged).
template <class Keep>
profile_value best(const std::vector<const result_file*>& files, std::string_view family, const std::string& label,
                   Keep keep, bool highest = true) {
  const result* top = nullptr;
  const result_file* at = nullptr;
  bool top_clean = false;
  for (const auto& [r, f] : rows_of(files, family, keep)) {
    const schema::headline* h = headline_of(*r);
    const auto v = h != nullptr ? r->value(h->metric) : std::nullopt;
    if (!v) continue;
    const bool clean = flag_of(*r, *f).empty();
    if (top == nullptr || (clean && !top_clean) || (clean == top_clean && (*v > *top->value(h->metric)) == highest && *v != *top->value(h->metric))) {
      top = r, at = f, top_clean = clean;
    }
  }
  return value_of(top, label, at);
}

// The chase row of the largest (or smallest) span within [low, high] bytes.
profile_value chase_rung(const std::vector<const result_file*>& files, const std::string& label, double low,
                         double high, bool largest) {
  const result* pick = nullptr;
  const result_file* at = nullptr;
  const auto rows = rows_of(files, "global/latency", [&](const result& r, const result_file&) {
    const double b = param_number(r, "bytes");
    return r.param("load") == "plain" && r.param("spacing") == "128" && b >= low && b <= high;
  });
  for (const auto& [r, f] : rows) {
    const double b = param_number(*r, "bytes");
    if (pick == nullptr || (largest ? b > param_number(*pick, "bytes") : b < param_number(*pick, "bytes")))
      pick = r, at = f;
  }
  const std::string size = pick != nullptr ? fmt::format("{} ({})", label, pick->param("bytes")) : label;
  return value_of(pick, size, at);
}

std::vector<profile_value> ladder_of(const std::vector<const result_file*>& files, double l2_bytes, int device) {
  const auto any = [](const result&, const result_file&) { return true; };
  std::vector<profile_value> out;
  out.push_back(chase_rung(files, title("l1"), 0, INFINITY, false));
  out.push_back(best(files, "shared/latency", title("shared"), any, false));
  out.push_back(chase_rung(files, title("l2_near"), 0, l2_bytes / 4, true));
  out.push_back(chase_rung(files, title("l2_far"), l2_bytes / 2, 0.8 * l2_bytes, true));
  out.push_back(chase_rung(files, title("dram"), 4 * l2_bytes, INFINITY, false));
  // The nearest peer: a kernel on this GPU chasing through another GPU's memory.
  const auto peer = [&](const result& r, const result_file&) { return param_number(r, "dst") == device; };
  out.push_back(best(files, "peer/latency", title("peer"), peer, false));
  if (!out.back().row.empty()) out.back().label = fmt::format("{} (GPU {}'s memory)", title("peer"), param_text(out.back().row, "src"));
  for (profile_value& v : out) {
    if (v.row.empty()) v.flag = "not measured";
  }
  return out;
}

}  // namespace

namespace {

std::vector<profile_value> levels_of(const std::vector<const result_file*>& files, int device) {
  const auto any = [](const result&, const result_file&) { return true; };
  const auto priced_row = [](const result& r, const result_file& f) {
    const schema::headline* h = headline_of(r);
    return h != nullptr && !std::isnan(price_row(r, *h, f.peak_gbps()).pct);
  };
  const auto pinned = [&](std::string_view dir) {
    return [dir, priced_row](const result& r, const result_file& f) {
      return r.param("dir") == dir && r.param("host") == "pinned" && priced_row(r, f);
    };
  };
  const auto own_peer = [device](const result& r, const result_file&) {
    return param_number(r, "src") == device || param_number(r, "dst") == device;
  };
  std::vector<profile_value> out;
  out.push_back(best(files, "cache/l1_bandwidth", title("l1"), any));
  out.push_back(best(files, "shared/bandwidth", title("shared"), any));
  out.push_back(best(files, "cluster/dsm_bandwidth", title("dsm"),
                     [](const result& r, const result_file&) { return param_number(r, "cluster") >= 2; }));
  out.push_back(best(files, "cache/l2_bandwidth", "L2", any));
  out.push_back(best(files, "global/read", title("dram") + " read", priced_row));
  out.push_back(best(files, "global/memcpy_d2d", title("dram") + " copy (cudaMemcpy)", any));
  out.push_back(best(files, "host/copy", title("pcie_h2d"), pinned("h2d")));
  out.push_back(best(files, "host/copy", title("pcie_d2h"), pinned("d2h")));
  out.push_back(best(files, "peer/copy", title("peer") + " copy", own_peer));
  for (profile_value& v : out) {
    if (v.row.empty()) v.flag = "not measured";
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> identity_of(const result_file& f) {
  return {
      {"GPU", ctx(f, schema::context_key("gpu_name").key)},
      {"UUID", ctx(f, schema::context_key("gpu_uuid").key)},
      {"PCI bus", ctx(f, schema::context_key("gpu_pci_bus_id").key)},
      {"compute capability", ctx(f, schema::context_key("gpu_compute_capability").key)},
      {"SMs", ctx(f, schema::context_key("gpu_sm_count").key)},
      {"SM clock (max, MHz)", ctx(f, schema::context_key("gpu_sm_clock_mhz").key)},
      {"SM clock under load at the start (MHz)", ctx(f, schema::context_key("membench_reference_sm_clock_mhz").key)},
      {"memory clock (MHz)", ctx(f, schema::context_key("gpu_mem_clock_mhz").key)},
      {"DRAM peak (GB/s, theoretical)", ctx(f, schema::context_key("gpu_peak_dram_gbps").key)},
      {"L2 (bytes)", ctx(f, schema::context_key("gpu_l2_bytes").key)},
      {"PCIe", ctx(f, schema::context_key("pcie_link").key)},
      {"ECC", ctx(f, schema::context_key("gpu_ecc").key)},
      {"driver", fmt::format("{} (CUDA {}), runtime {}", ctx(f, schema::context_key("nvml_driver_version").key),
                             ctx(f, schema::context_key("cuda_driver_version").key), ctx(f, schema::context_key("cuda_runtime_version").key))},
      {"build", fmt::format("{} ({}, {}), commit {}", ctx(f, schema::context_key("membench_cache_mode").key),
                            ctx(f, schema::context_key("membench_build_type").key), ctx(f, schema::context_key("membench_cuda_architectures").key),
                            ctx(f, schema::context_key("membench_git_commit").key))},
      {"compiler", ctx(f, schema::context_key("membench_compiler").key)},
      {"suite", fmt::format("{}, {} timing, intervals at {} %", ctx(f, schema::context_key("membench_suite").key),
                            ctx(f, schema::context_key("membench_timing").key), ctx(f, schema::context_key("membench_ci_level_pct").key))},
      {"date", ctx(f, "date")},
  };
}

// Files per GPU in the order they first appear; a file of peer rows alone (membench
// --devices writes one) joins every GPU its peer_gpu_uuids names, as that index.
struct gpu_group {
  std::vector<const result_file*> files;
  int device = -1;
};

std::vector<gpu_group> group_files(const file_refs& files) {
  std::vector<gpu_group> groups;
  std::map<std::string, std::size_t> at;
  auto add = [&](const std::string& key, const result_file* f, int device) {
    const auto [it, fresh] = at.emplace(key, groups.size());
    if (fresh) groups.push_back({{}, device});
    // One GPU is one model: files that say otherwise are of different GPUs (a copied UUID)
    // and would be pooled into one page.
    const result_file* first = fresh ? nullptr : groups[it->second].files.front();
    if (first != nullptr && !peer_rows_only(*first) && first->gpu() != f->gpu())
      throw input_error(fmt::format("{} and {}: one GPU ({}) named as two models ({}, {}): not one GPU's runs", first->path,
                                    f->path, key, first->gpu(), f->gpu()));
    groups[it->second].files.push_back(f);
  };
  for (const result_file& f : files) {
    if (f.gpu() == "unknown") throw input_error(fmt::format("{}: the context names no GPU (gpu_name)", f.path));
    if (!peer_rows_only(f)) add(gpu_key(f), &f, device_of(f));
  }
  for (const result_file& f : files) {
    if (!peer_rows_only(f)) continue;
    bool joined = false;
    const std::string list = f.context_value(std::string(schema::context_key("peer_gpu_uuids").key));
    for (auto& [key, i] : at) {
      const std::size_t p = list.find("=" + key);
      if (key.rfind("GPU-", 0) != 0 || p == std::string::npos) continue;
      const std::size_t comma = list.rfind(',', p);
      const std::size_t from = comma == std::string::npos ? 0 : comma + 1;
      const auto index = numeric_value(list.substr(from, p - from));
      // The peer file's context is of its own GPU: where that is this one, it must be its model.
      const result_file& first = *groups[i].files.front();
      if (gpu_key(f) == key && f.gpu() != first.gpu())
        throw input_error(fmt::format("{} and {}: one GPU ({}) named as two models ({}, {}): not one GPU's runs",
                                      first.path, f.path, key, first.gpu(), f.gpu()));
      if (index) groups[i].device = static_cast<int>(*index);
      groups[i].files.push_back(&f);
      joined = true;
    }
    if (!joined) add(gpu_key(f), &f, device_of(f));
  }
  return groups;
}

// A GPU's files per build, in the order default, ca, cg; a file of no such build (peer rows
// written without one) goes with the first. One entry when the files are of one build.
std::vector<std::pair<std::string, std::vector<const result_file*>>> split_builds(const std::vector<const result_file*>& files) {
  std::vector<std::pair<std::string, std::vector<const result_file*>>> out;
  for (const std::string build : {"default", "ca", "cg"}) {
    std::vector<const result_file*> of;
    for (const result_file* f : files) {
      if (f->build() == build) of.push_back(f);
    }
    if (!of.empty()) out.emplace_back(build, std::move(of));
  }
  if (out.size() < 2) return {{"", files}};
  for (const result_file* f : files) {
    const std::string b = f->build();
    if (b != "default" && b != "ca" && b != "cg") out.front().second.push_back(f);
  }
  return out;
}

// The builds side by side: the base build's ladder and levels in each build; the identity says which.
build_comparison builds_of(const std::vector<std::pair<std::string, std::vector<const result_file*>>>& split,
                           gpu_profile& p) {
  std::vector<std::string> names;
  std::vector<std::vector<const result_file*>> files;
  for (const auto& [name, of] : split) names.push_back(name), files.push_back(of);
  std::vector<const profile_value*> base;
  for (const profile_value& v : p.ladder) base.push_back(&v);
  for (const profile_value& v : p.levels) base.push_back(&v);
  build_comparison b = compare_builds(names, files, base);
  std::string joined;
  for (const std::string& n : names) joined += (joined.empty() ? "" : ", ") + n;
  for (auto& [what, value] : p.identity) {
    if (what == "build") value = fmt::format("{} side by side; the charts: {}", joined, value);
  }
  for (std::size_t i = 0; i < b.rows.size(); ++i) b.rows[i].unit = i < p.ladder.size() ? "ns" : "GB/s";
  return b;
}

}  // namespace

read_options profile_reads() { return {}; }  // every counter, and each run's evidence

std::string flag_of(const result& r, const result_file& file) {
  if (r.error) return r.skipped ? "skipped" : "error";
  std::string why;
  auto add = [&why](const std::string& w) { why += (why.empty() ? "" : ", ") + w; };
  const double* converged = r.counters.find(schema::counter("converged").key);
  const double* samples = r.counters.find(schema::counter("samples").key);
  const bool unconverged = std::any_of(r.runs.begin(), r.runs.end(), [](const run& x) { return !x.converged; });
  if (converged == nullptr || samples == nullptr) add("convergence not recorded");
  else if (unconverged || *converged == 0) add("unconverged");
  else if (*samples < 10) add("few samples");
  for (const run& x : r.runs) {
    if (!x.throttle.empty()) {
      add(fmt::format("throttled ({})", x.throttle));
      break;
    }
  }
  // A kernel row within 3x an empty launch times the launch more than its work.
  const double empty_us = ctx_number(file, schema::context_key("membench_empty_kernel_us").key);
  const bool kernel = !r.runs.empty() && r.runs.front().work == run::work_kind::kernel;
  if (kernel && empty_us > 0 && r.time_us < 3 * empty_us) add("floor: within 3x an empty launch");
  return why;
}

profile_value value_of(const result* r, const std::string& label, const result_file* file) {
  profile_value v;
  v.label = label;
  if (r == nullptr || file == nullptr) return v;
  v.row = r->name;
  v.flag = flag_of(*r, *file);
  const schema::headline* h = headline_of(*r);
  if (h == nullptr || r->error) return v;
  if (const auto x = r->value(h->metric)) v.value = *x;
  // The row's interval of its median time, carried over: a rate scales as 1/time, a latency as time.
  if (r->runs.size() == 1 && r->runs.front().ci_low_us > 0 && r->time_us > 0) {
    const run& x = r->runs.front();
    const bool rate = h->unit != "ns" && h->unit != "us" && h->metric != "slowdown";
    const double a = std::min(x.ci_low_us, r->time_us) / r->time_us, b = std::max(x.ci_high_us, r->time_us) / r->time_us;
    v.low = rate ? v.value / b : v.value * a;
    v.high = rate ? v.value / a : v.value * b;
  }
  const priced p = price_row(*r, *h, file->peak_gbps());
  v.pct = p.pct;
  v.ceiling = p.ceiling;
  return v;
}

std::vector<gpu_profile> build_profiles(const file_refs& files) {
  std::vector<gpu_profile> out;
  for (const gpu_group& group : group_files(files)) {
    const auto split = split_builds(group.files);
    const gpu_group g{split.front().second, group.device};  // the base build's files
    const result_file& first = *g.files.front();
    gpu_profile p;
    p.title = fmt::format("{} — memory profile", first.gpu());
    p.identity = identity_of(first);
    // The clock is the GPU's: a reading in any build's files is this GPU's reading.
    p.identity.emplace_back("SM clock, three readings (MHz)", sm_clock_line(read_sm_clock(group.files)));
    for (const result_file* f : group.files) p.notes.push_back(fmt::format("input: {}", f->path));
    const double l2 = ctx_number(first, schema::context_key("gpu_l2_bytes").key);
    if (!(l2 > 0)) p.notes.push_back("the context has no L2 size (gpu_l2_bytes): the L2 and DRAM rungs are left out");
    p.ladder = ladder_of(g.files, l2 > 0 ? l2 : NAN, g.device);
    p.levels = levels_of(g.files, g.device);
    p.lessons = profile_lessons(g.files);
    const auto measured = [](const profile_value& v) { return !v.row.empty(); };
    const auto shown = [](const profile_lesson& l) { return !l.bars.empty(); };
    if (std::none_of(p.ladder.begin(), p.ladder.end(), measured) &&
        std::none_of(p.levels.begin(), p.levels.end(), measured) &&
        std::none_of(p.lessons.begin(), p.lessons.end(), shown))
      throw input_error(fmt::format("{}: no membench row of a family profile shows (global/latency, global/read, ...)",
                                    first.path));
    if (split.size() > 1) p.builds = builds_of(split, p);
    out.push_back(std::move(p));
  }
  if (out.empty()) throw input_error("profile: no input file");
  return out;
}

}  // namespace membench::report
