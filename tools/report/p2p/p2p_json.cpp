// p2p --format json: the peer matrices for programs. Per case every pair of the host's GPUs
// (the diagonal only where a row is on it): its state, the row, the value with the interval
// of the row's median, and the row's link; numbers in full precision, null where unknown.
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/schema.hpp"
#include "p2p/peer_matrix.hpp"
#include "render/render_record.hpp"
#include "views/views.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;  // keys in the order the docs list them

field_value counter_of(const result* r, std::string_view key) {
  const double* v = r == nullptr ? nullptr : r->counters.find(key);
  return v == nullptr ? field_value() : number_value(*v);
}

field_value index_or_null(int i) { return i >= 0 ? count_value(i) : field_value(); }

// One pair of a case, declared once: the record every pair of every case writes.
record pair_record(const result* r, int src, int dst, const std::string& value, double ci_level) {
  const std::optional<double> v = r == nullptr ? std::nullopt : r->value(value);
  record p;
  p.add("src", index_or_null(src)).add("dst", index_or_null(dst)).add("state", to_string(state_of(r, src == dst, value)));
  p.add("name", r == nullptr ? field_value() : field_value(r->name)).add("value", v ? number_value(*v) : field_value());
  p.add("interval_pct", r == nullptr ? field_value() : number_value(interval_pct(*r, ci_level)));
  p.add("pct_of_link", counter_of(r, schema::counter("pct_of_link").key));
  p.add("link_gb_per_s", counter_of(r, schema::counter("link_gb_per_s").key));
  p.add("link_nvlinks", counter_of(r, schema::counter("link_nvlinks").key));
  p.add("message", r != nullptr && r->error ? field_value(*r->error) : field_value());
  return p;
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
  std::vector<record> pairs;
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
  return {{"case", c.key}, {"layout", layout_name(c.layout)}, {"value", value}, {"unit", unit_of(value)}, {"pairs", records_json(pairs)}};
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
  return json_text(json{{"inputs", inputs}, {"ci_level_pct", 100 * ci_level}, {"devices", devices},
                        {"cases", cases}, {"notes", set.notes}},
                   2);
}

}  // namespace membench::report
