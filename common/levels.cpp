#include "levels.hpp"

#include <algorithm>
#include <array>

namespace membench::levels {
namespace {

// Tokens Google Benchmark appends to a registered name: never part of a level row.
constexpr std::array<std::string_view, 8> benchmark_suffixes{"manual_time", "real_time", "process_time", "min_time:",
                                                             "min_warmup_time:", "iterations:", "repeats:", "threads:"};

bool benchmark_suffix(std::string_view token) {
  return std::any_of(benchmark_suffixes.begin(), benchmark_suffixes.end(), [token](std::string_view s) {
    return s.back() == ':' ? token.starts_with(s) : token == s;
  });
}

bool pair_token(std::string_view token) { return token.starts_with("src:") || token.starts_with("dst:"); }

}  // namespace

const char* to_string(measure m) noexcept {
  switch (m) {
    case measure::latency: return "latency";
    case measure::bandwidth: return "bandwidth";
    case measure::clock: return "clock";
  }
  return "?";
}

std::span<const level> all() noexcept { return level_table; }
std::span<const level_row> rows() noexcept { return row_table; }

const level* find(std::string_view key) noexcept {
  for (const level& l : level_table) {
    if (l.key == key) return &l;
  }
  return nullptr;
}

std::string row_shape(std::string_view name) {
  std::string out;
  std::size_t index = 0;
  for (std::size_t from = 0; from <= name.size(); ++index) {
    const std::size_t to = std::min(name.find('/', from), name.size());
    const std::string_view token = name.substr(from, to - from);
    from = to + 1;
    if (index >= 2 && (benchmark_suffix(token) || pair_token(token))) continue;
    if (!out.empty()) out += '/';
    out += token;
  }
  return out;
}

const level_row* row_of(std::string_view name) {
  const std::string shape = row_shape(name);
  for (const level_row& r : row_table) {
    if (r.row == shape) return &r;
  }
  return nullptr;
}

}  // namespace membench::levels
