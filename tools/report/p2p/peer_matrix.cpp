#include "p2p/peer_matrix.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "common/stats.hpp"
#include "core/escape.hpp"
#include "stats/intervals.hpp"

namespace membench::report {
namespace {

// A device index as a name or a context writes it: digits only, at most max_peer_device.
std::optional<int> device_index(std::string_view text) {
  int v = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || v < 0 || v > max_peer_device)
    return std::nullopt;
  return v;
}

// Takes `segment` (src:3) into `slot` when it is the key's; false when it is another key's.
bool take_device(std::string_view segment, std::string_view key, std::string_view name, int& slot) {
  if (segment.size() <= key.size() || segment.substr(0, key.size()) != key || segment[key.size()] != ':') return false;
  const std::string_view text = segment.substr(key.size() + 1);
  const auto index = device_index(text);
  if (!index)
    throw input_error(fmt::format("peer row '{}': {} '{}' is no device index (0 to {})", name, key, text, max_peer_device));
  if (slot >= 0) throw input_error(fmt::format("peer row '{}': {} given twice", name, key));
  slot = *index;
  return true;
}

peer_layout layout_of(const peer_place& p) {
  return p.src >= 0 && p.dst >= 0 ? peer_layout::matrix : p.src >= 0 ? peer_layout::from_src : peer_layout::into_dst;
}

}  // namespace

std::optional<peer_place> peer_place_of(std::string_view name) {
  if (name.substr(0, 5) != "peer/") return std::nullopt;
  const std::string_view src_key = schema::name_key("src").key, dst_key = schema::name_key("dst").key;
  peer_place p;
  for (std::size_t start = 0; start <= name.size();) {
    const std::size_t slash = std::min(name.find('/', start), name.size());
    const std::string_view segment = name.substr(start, slash - start);
    if (!take_device(segment, src_key, name, p.src) && !take_device(segment, dst_key, name, p.dst))
      p.case_key += fmt::format("{}{}", p.case_key.empty() ? "" : "/", segment);
    start = slash + 1;
  }
  if (p.src < 0 && p.dst < 0) return std::nullopt;
  return p;
}

const result* peer_case::at(int src, int dst) const {
  const auto it = rows.find({src, dst});
  return it == rows.end() ? nullptr : it->second;
}

const result* peer_case::at_cell(int src, int gpu) const {
  switch (layout) {
    case peer_layout::matrix: return at(src, gpu);
    case peer_layout::into_dst: return at(-1, gpu);
    case peer_layout::from_src: return at(gpu, -1);
  }
  return nullptr;
}

std::map<int, std::string> parse_peer_uuids(std::string_view text, const std::string& path) {
  std::map<int, std::string> out;
  const std::string_view key = schema::context_key("peer_gpu_uuids").key;
  for (std::size_t start = 0; !text.empty() && start <= text.size();) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view entry = text.substr(start, comma - start);
    start = comma + 1;
    const std::size_t eq = entry.find('=');
    const auto index = device_index(entry.substr(0, eq));
    if (eq == std::string_view::npos || !index || eq + 1 == entry.size())
      throw input_error(fmt::format("{}: context {}: '{}' is not INDEX=UUID", path, key, entry));
    if (!out.emplace(*index, std::string(entry.substr(eq + 1))).second)
      throw input_error(fmt::format("{}: context {}: GPU {} named twice", path, key, *index));
  }
  return out;
}

std::string short_uuid(std::string_view uuid) {
  if (uuid.substr(0, 4) == "GPU-" || uuid.substr(0, 4) == "MIG-") uuid.remove_prefix(4);
  return std::string(utf8_prefix(uuid.substr(0, uuid.find('-')), 8));  // cut between characters
}

namespace {

// The devices every file's context names, one UUID an index. throws input_error
std::map<int, std::string> context_devices(const std::vector<const result_file*>& files) {
  std::map<int, std::string> uuids;
  std::map<int, const result_file*> named_by;
  const std::string key(schema::context_key("peer_gpu_uuids").key);
  for (const result_file* f : files) {
    const auto it = f->context.find(key);
    if (it == f->context.end()) continue;
    for (const auto& [index, uuid] : parse_peer_uuids(it->second, f->path)) {
      const auto [at, fresh] = uuids.emplace(index, uuid);
      if (!fresh && at->second != uuid)
        throw input_error(fmt::format("{} and {} name GPU {} differently ({} and {}): p2p reads the files of one host",
                                      named_by[index]->path, f->path, index, at->second, uuid));
      named_by.emplace(index, f);
    }
  }
  return uuids;
}

// A row and the file it came from, while a name may still be in a later file.
struct kept_row {
  const result* r;
  const result_file* file;
};

// The row of a name kept so far, or `next`: the measured one; two measured rows are an error.
void keep_row(kept_row& kept, kept_row next) {
  if (kept.r->error && !next.r->error) {
    kept = next;
  } else if (!kept.r->error && !next.r->error) {
    throw input_error(fmt::format("'{}' is measured in both {} and {}: p2p reads one run (compare tells runs apart)",
                                  next.r->name, kept.file->path, next.file->path));
  }
}

// The case of `key`, added in the order cases come. throws input_error for a layout that differs
peer_case& case_of(peer_set& set, std::unordered_map<std::string, std::size_t>& at, const peer_place& p) {
  const auto [it, fresh] = at.emplace(p.case_key, set.cases.size());
  if (fresh) set.cases.push_back({p.case_key, layout_of(p), {}});
  peer_case& c = set.cases[it->second];
  if (c.layout != layout_of(p))
    throw input_error(fmt::format("peer case '{}': some rows name src and dst, others only one of them", c.key));
  return c;
}

// Every peer row the filter keeps, by name (one per name), in the order of the files.
std::vector<std::pair<peer_place, kept_row>> peer_rows(const file_refs& files, const name_filter& filter,
                                                       peer_set& set) {
  std::vector<std::pair<peer_place, kept_row>> rows;
  std::unordered_map<std::string_view, std::size_t> by_name;
  std::size_t older = 0;
  for (const result_file& f : files) {
    bool any = false;
    for (const result& r : f.results) {
      if (!filter(r.name)) continue;
      std::optional<peer_place> p = peer_place_of(r.name);
      older += !p && r.space() == "peer";
      if (!p) continue;
      any = true;
      const auto [it, fresh] = by_name.emplace(r.name, rows.size());
      if (fresh) rows.push_back({std::move(*p), {&r, &f}});
      else keep_row(rows[it->second].second, {&r, &f});
    }
    if (any) set.files.push_back(&f);
  }
  if (older > 0)
    set.notes.push_back(fmt::format("left out: {} peer row(s) without src: or dst: (the pair rows of d0 and d1)", older));
  return rows;
}

}  // namespace

peer_set collect_peer_rows(const file_refs& files, const std::string& filter) {
  peer_set set;
  const auto rows = peer_rows(files, name_filter(filter), set);
  if (rows.empty()) {
    std::string paths;
    for (const auto& f : files) paths += fmt::format("{}{}", paths.empty() ? "" : ", ", f.path);
    throw input_error(fmt::format("no peer matrix rows (peer/.../src:I/dst:J/...) in {}{}", paths,
                                  filter.empty() ? "" : fmt::format(" that --filter '{}' keeps", filter)));
  }
  std::unordered_map<std::string, std::size_t> at;
  std::set<int> indices;
  for (const auto& [p, kept] : rows) {
    // One cell measured twice (its name's keys in another order, another file): which to show
    // is no choice to make silently.
    if (!case_of(set, at, p).rows.emplace(std::pair{p.src, p.dst}, kept.r).second)
      throw input_error(fmt::format("{}: the pair {} -> {} of its case is measured twice: p2p shows one row a pair",
                                    kept.r->name, p.src, p.dst));
    for (const int i : {p.src, p.dst})
      if (i >= 0) indices.insert(i);
  }
  for (const result_file* f : set.files) {
    if (f->ci_level() != set.ci_level())
      throw input_error(fmt::format("{} and {}: intervals at {:g} % and {:g} %: p2p shows one level",
                                    set.files.front()->path, f->path, 100 * set.ci_level(), 100 * f->ci_level()));
  }
  const std::map<int, std::string> uuids = context_devices(set.files);
  for (const auto& [index, uuid] : uuids) indices.insert(index);
  for (const int i : indices) {
    const auto it = uuids.find(i);
    set.devices.push_back({i, it == uuids.end() ? std::string() : it->second});
  }
  return set;
}

std::string case_value(const peer_case& c, const std::string& asked) {
  auto any_has = [&](std::string_view what) {
    return std::any_of(c.rows.begin(), c.rows.end(), [&](const auto& kv) {
      return what == "time" ? !kv.second->error : kv.second->counters.find(what) != nullptr;
    });
  };
  if (!asked.empty()) return any_has(asked) ? asked : std::string();
  for (const std::string_view v : {schema::counter("gb_per_s").key, schema::counter("ns_per_load").key}) {
    if (any_has(v)) return std::string(v);
  }
  return "time";
}

double interval_pct(const result& r, double ci_level) {
  if (r.error || r.runs.size() != 1 || !(r.time_us > 0)) return NAN;
  const run& x = r.runs.front();
  if (x.ci_low_us > 0 && x.ci_high_us >= x.ci_low_us)
    return 100 * std::max(x.ci_high_us - r.time_us, r.time_us - x.ci_low_us) / r.time_us;
  if (!(x.noise_pct >= 0 && x.sample_count >= 1)) return NAN;
  const double z = standard_normal_quantile(0.5 + ci_level / 2);
  return 100 * std::expm1(z * std::sqrt(detail::within_variance(x, evidence::noise, ci_level)));
}

peer_state state_of(const result* r, bool diagonal, const std::string& value) {
  if (r == nullptr) return diagonal ? peer_state::diagonal : peer_state::missing;
  if (r->error) return r->skipped ? peer_state::skipped : peer_state::error;
  return r->value(value) ? peer_state::measured : peer_state::no_value;
}

const char* to_string(peer_state s) {
  switch (s) {
    case peer_state::measured: return "measured";
    case peer_state::no_value: return "no_value";
    case peer_state::error: return "error";
    case peer_state::skipped: return "skipped";
    case peer_state::missing: return "missing";
    case peer_state::diagonal: return "diagonal";
  }
  return "";
}

}  // namespace membench::report
