#include "cpu_affinity.hpp"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <map>

#include <fmt/format.h>

namespace membench {
namespace {

std::optional<int> parse_cpu(std::string_view s) {
  int v = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || v < 0 || v >= CPU_SETSIZE) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::vector<int>> parse_cpu_list(std::string_view text) {
  std::vector<int> cpus;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    const auto dash = item.find('-');
    const auto first = parse_cpu(item.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : parse_cpu(item.substr(dash + 1));
    if (!first || !last || *last < *first) return std::nullopt;
    for (int c = *first; c <= *last; ++c) cpus.push_back(c);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
    if (text.empty()) return std::nullopt;  // a trailing comma
  }
  if (cpus.empty()) return std::nullopt;
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return out;
}

std::vector<std::vector<int>> share_cpus(const std::vector<std::vector<int>>& local, const std::vector<int>& allowed) {
  std::vector<std::vector<int>> candidates;
  for (const auto& l : local) {
    std::vector<int> both;
    for (int c : l)
      if (std::find(allowed.begin(), allowed.end(), c) != allowed.end()) both.push_back(c);
    std::sort(both.begin(), both.end());
    candidates.push_back(both.empty() ? allowed : both);
  }
  // Devices with the same candidates, in the order given: each takes its part of them.
  std::map<std::vector<int>, std::vector<std::size_t>> sharing;
  for (std::size_t i = 0; i < candidates.size(); ++i) sharing[candidates[i]].push_back(i);
  std::vector<std::vector<int>> out(candidates.size());
  for (const auto& [cpus, devices] : sharing) {
    const std::size_t n = devices.size();
    for (std::size_t k = 0; k < n; ++k) {
      if (cpus.size() < n) {  // fewer CPUs than devices: they share round-robin
        out[devices[k]] = {cpus[k % std::max<std::size_t>(cpus.size(), 1)]};
        continue;
      }
      const std::size_t b = k * cpus.size() / n, e = (k + 1) * cpus.size() / n;
      out[devices[k]].assign(cpus.begin() + static_cast<std::ptrdiff_t>(b), cpus.begin() + static_cast<std::ptrdiff_t>(e));
    }
  }
  return out;
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return {};
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::optional<std::string> pin_to(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0)
    return fmt::format("cannot run on CPUs {}: {}", format_cpu_list(cpus), std::strerror(errno));
  return std::nullopt;
}

std::optional<std::string> pin_from_environment() {
  const char* v = std::getenv(device_cpus_env);
  if (v == nullptr || *v == '\0') return std::nullopt;
  const auto cpus = parse_cpu_list(v);
  if (!cpus) return fmt::format("{}='{}' is not a CPU list", device_cpus_env, v);
  return pin_to(*cpus);
}

}  // namespace membench
