// A declared record drawn for programs (JSON) and for people (a table's row).
#include "render/render_record.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;

json leaf_json(const field_value& v) {
  struct to_json {
    json operator()(std::monostate) const { return nullptr; }
    json operator()(bool b) const { return b; }
    json operator()(std::int64_t n) const { return n; }
    json operator()(double x) const { return std::isfinite(x) ? json(x) : json(nullptr); }
    json operator()(const std::string& s) const { return s; }
    json operator()(const std::vector<std::string>& list) const { return list; }
  };
  return std::visit(to_json{}, v);
}

json fields_json(const std::vector<field>& fields) {
  json out = json::object();
  for (const field& f : fields) out[f.key] = f.fields.empty() ? leaf_json(f.value) : fields_json(f.fields);
  return out;
}

}  // namespace

json record_json(const record& r) { return fields_json(r.fields); }

json records_json(const std::vector<record>& rs) {
  json out = json::array();
  for (const record& r : rs) out.push_back(record_json(r));
  return out;
}

std::vector<std::string> record_header(const record& r) {
  std::vector<std::string> out;
  for (const field& f : r.fields)
    if (!f.heading.empty()) out.push_back(f.heading);
  return out;
}

std::vector<cell> record_row(const record& r) {
  std::vector<cell> out;
  for (const field& f : r.fields)
    if (!f.heading.empty()) out.push_back(f.shown);
  return out;
}

std::string json_text(const json& j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace membench::report
