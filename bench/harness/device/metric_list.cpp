// The host side of the metrics pass: the metric list, derived counters, the label token.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "common/default_metrics.hpp"
#include "harness/device/metrics.hpp"

namespace membench {

const std::vector<std::string>& default_metrics() {
  static const std::vector<std::string> list = [] {
    std::vector<std::string> names;
    for (const auto& m : schema::default_metric_table) names.emplace_back(m.name);
    return names;
  }();
  return list;
}

std::vector<std::string> parse_metric_list(std::string_view text) {
  std::vector<std::string> out;
  while (true) {
    const auto comma = text.find(',');
    const std::string_view entry = text.substr(0, comma);
    if (entry.empty()) throw std::invalid_argument("empty metric name in the list");
    const bool ok = std::all_of(entry.begin(), entry.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    });
    if (!ok) throw std::invalid_argument(fmt::format("bad metric name '{}'", entry));
    if (std::find(out.begin(), out.end(), entry) != out.end())
      throw std::invalid_argument(fmt::format("metric '{}' listed twice", entry));
    out.emplace_back(entry);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return out;
}

std::vector<std::pair<std::string, double>> metric_counters(const std::vector<std::pair<std::string, double>>& values) {
  std::vector<std::pair<std::string, double>> out = values;
  auto find = [&](std::string_view name) -> const double* {
    for (const auto& [k, v] : values)
      if (k == name) return &v;
    return nullptr;
  };
  const double* sectors = find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  const double* requests = find("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  if (sectors != nullptr && requests != nullptr && *requests > 0)
    out.emplace_back("sectors_per_request", *sectors / *requests);
  return out;
}

std::vector<std::pair<std::string, double>> combine_kernels(const std::vector<std::string>& metrics,
                                                          const std::vector<std::vector<double>>& per_kernel) {
  std::vector<std::pair<std::string, double>> out;
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    const bool sum = metrics[m].size() > 4 && metrics[m].compare(metrics[m].size() - 4, 4, ".sum") == 0;
    if (per_kernel.size() != 1 && !sum) continue;
    double total = 0;
    for (const auto& k : per_kernel) total += k.at(m);
    out.emplace_back(metrics[m], total);
  }
  return out;
}

std::string metrics_unavailable_token(std::string_view reason) {
  std::string token;
  bool gap = false;
  for (char c : reason) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (keep) {
      if (gap && !token.empty()) token += '_';
      token += c;
      gap = false;
    } else {
      gap = true;
    }
  }
  return fmt::format("metrics:unavailable({})", token.empty() ? "unknown" : token);
}

}  // namespace membench
