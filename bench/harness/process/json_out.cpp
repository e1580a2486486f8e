#include "json_out.hpp"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "common/naming.hpp"
#include "common/output_file.hpp"

namespace membench {
namespace {

std::string registered_name(const nlohmann::json& row) {
  return strip_framework_suffix(row.value("run_name", row.value("name", std::string())), framework_suffix::time_type);
}

}  // namespace

void annotate_output(const std::string& path, const std::vector<std::pair<std::string, std::string>>& context,
                     const std::map<std::string, std::vector<std::vector<double>>>& samples) {
  nlohmann::json j;
  try {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot open");
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": not valid JSON: " + e.what());
  }
  if (!j.is_object() || !j.contains("benchmarks") || !j["benchmarks"].is_array())
    throw std::runtime_error(path + ": not a Google Benchmark JSON file");
  for (const auto& [k, v] : context) j["context"][k] = v;
  if (!samples.empty()) {
    for (auto& row : j["benchmarks"]) {
      if (row.value("run_type", std::string("iteration")) != "iteration") continue;
      const auto it = samples.find(registered_name(row));
      if (it == samples.end()) continue;
      const auto rep = static_cast<std::size_t>(row.value("repetition_index", 0));
      if (rep >= it->second.size()) continue;
      nlohmann::json us = nlohmann::json::array();
      for (double s : it->second[rep]) us.push_back(s * 1e6);
      row["samples_us"] = std::move(us);
    }
  }
  write_output_file(path, j.dump(2) + '\n');
}

}  // namespace membench
