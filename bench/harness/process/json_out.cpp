#include "json_out.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "common/naming.hpp"
#include "common/output_file.hpp"

namespace membench {
namespace {

std::string registered_name(const nlohmann::json& row) {
  return strip_framework_suffix(row.value("run_name", row.value("name", std::string())), framework_suffix::time_type);
}

// Writes row[key]: the repetition's kept list in microseconds, when there is one and it is not empty.
void attach(nlohmann::json& row, const char* key, const kept_lists& lists) {
  const auto it = lists.find(registered_name(row));
  if (it == lists.end()) return;
  const auto rep = static_cast<std::size_t>(row.value("repetition_index", 0));
  if (rep >= it->second.size() || it->second[rep].empty()) return;
  nlohmann::json us = nlohmann::json::array();
  for (double s : it->second[rep]) us.push_back(s * 1e6);
  row[key] = std::move(us);
}

}  // namespace

std::string annotated(const std::string& text, const std::string& name,
                      const std::vector<std::pair<std::string, std::string>>& context, const kept_lists& samples,
                      const kept_lists& batch_samples) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(name + ": not valid JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("benchmarks") || !j["benchmarks"].is_array())
    throw std::runtime_error(name + ": not a Google Benchmark JSON file");
  for (const auto& [k, v] : context) j["context"][k] = v;
  if (!samples.empty() || !batch_samples.empty()) {
    for (auto& row : j["benchmarks"]) {
      if (row.value("run_type", std::string("iteration")) != "iteration") continue;
      attach(row, "samples_us", samples);
      attach(row, "batch_samples_us", batch_samples);
    }
  }
  return j.dump(2) + '\n';
}

void annotate_output(const std::string& path, const std::vector<std::pair<std::string, std::string>>& context,
                     const kept_lists& samples, const kept_lists& batch_samples) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::stringstream text;
  text << in.rdbuf();
  write_output_file(path, annotated(text.str(), path, context, samples, batch_samples));
}

}  // namespace membench
