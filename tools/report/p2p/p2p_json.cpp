// p2p --format json: the peer matrices for programs. Per case every pair of the host's GPUs
// (the diagonal only where a row is on it): its state, the row, the value with the interval
// of the row's median, and the row's link; numbers in full precision, null where unknown.
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/schema.hpp"
#include "p2p/peer_matrix.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the docs list them

json number(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

json counter_of(const result* r, std::string_view key) {
  const double* v = r == nullptr ? nullptr : r->counters.find(key);
  return v == nullptr ? json(nullptr) : number(*v);
}

json index_or_null(int i) { return i >= 0 ? json(i) : json(nullptr); }

json pair_record(const result* r, int src, int dst, const std::string& value, double ci_level) {
  const peer_state state = state_of(r, src == dst, value);
  const std::optional<double> v = r == nullptr ? std::nullopt : r->value(value);
  return {{"src", index_or_null(src)},
          {"dst", index_or_null(dst)},
          {"state", to_string(state)},
          {"name", r == nullptr ? json(nullptr) : json(r->name)},
          {"value", v ? number(*v) : json(nullptr)},
          {"interval_pct", r == nullptr ? json(nullptr) : number(interval_pct(*r, ci_level))},
          {"pct_of_link", counter_of(r, schema::counter("pct_of_link").key)},
          {"link_gb_per_s", counter_of(r, schema::counter("link_gb_per_s").key)},
          {"link_nvlinks", counter_of(r, schema::counter("link_nvlinks").key)},
          {"message", r != nullptr && r->error ? json(*r->error) : json(nullptr)}};
}

const char* layout_name(peer_layout l) {
  switch (l) {
    case peer_layout::matrix: return "matrix";
    case peer_layout::into_dst: return "into_dst";
    case peer_layout::from_src: return "from_src";
  }
  return "";
}

json case_record(const peer_case& c, const std::vector<peer_device>& devices, const std::string& value,
                 double ci_level) {
  json pairs = json::array();
  for (const peer_device& a : devices) {
    if (c.layout != peer_layout::matrix) {
      const bool into = c.layout == peer_layout::into_dst;
      pairs.push_back(pair_record(c.at_cell(-1, a.index), into ? -1 : a.index, into ? a.index : -1, value, ci_level));
      continue;
    }
    for (const peer_device& b : devices) {
      const result* r = c.at(a.index, b.index);
      if (a.index != b.index || r != nullptr) pairs.push_back(pair_record(r, a.index, b.index, value, ci_level));
    }
  }
  return {{"case", c.key}, {"layout", layout_name(c.layout)}, {"value", value}, {"unit", unit_of(value)}, {"pairs", pairs}};
}

}  // namespace

std::string p2p_json(const file_refs& files, const common_options& opt) {
  if (!opt.value.empty()) (void)resolve_value(pointers(files), opt);  // throws: no file has the value
  const peer_set set = collect_peer_rows(files, opt.filter);
  const double ci_level = set.ci_level();
  json devices = json::array();
  for (const peer_device& d : set.devices)
    devices.push_back({{"index", d.index}, {"uuid", d.uuid.empty() ? json(nullptr) : json(d.uuid)}});
  json cases = json::array();
  for (const peer_case& c : set.cases) {
    const std::string value = case_value(c, opt.value);
    if (!value.empty()) cases.push_back(case_record(c, set.devices, value, ci_level));
  }
  if (cases.empty()) throw input_error(fmt::format("no peer matrix row has the value '{}'", opt.value));
  json inputs = json::array();
  for (const result_file* f : set.files) inputs.push_back(f->path);
  return json{{"inputs", inputs}, {"ci_level_pct", 100 * ci_level}, {"devices", devices},
              {"cases", cases}, {"notes", set.notes}}
             .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) +
         "\n";
}

}  // namespace membench::report
