// Benchmark names are the primary key: filters, CI history, the report tool and
// `ncu --kernel-name` all join on them. One module makes them and parses them back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace membench {

/// "64K", "1M", "3G": the largest binary unit that divides exactly; plain bytes otherwise.
std::string format_size(std::uint64_t bytes);

/// Inverse of format_size ("64M" -> 67108864). Throws std::invalid_argument on bad text.
std::uint64_t parse_size(std::string_view text);

struct name_key {
  std::string_view key;
  std::string_view unit;
  std::string_view meaning;
};

/// Every key a benchmark name may use, with its unit. Names with other keys are rejected.
const std::vector<name_key>& name_keys();

struct name_param {
  std::string key;
  std::string value;
  bool operator==(const name_param&) const = default;
};

/// `<space>/<experiment>/<key>:<value>/...`; lowercase [a-z0-9_] tokens.
struct bench_name {
  std::string space;
  std::string experiment;
  std::vector<name_param> params;

  /// Throws std::invalid_argument if a token or key is not allowed.
  std::string str() const;
  std::optional<std::string> get(std::string_view key) const;
  std::string family() const { return space + "/" + experiment; }
  bool operator==(const bench_name&) const = default;
};

/// Parses a name as written by str(), tolerating Google Benchmark's suffixes
/// (`/manual_time`, `/repeats:N`, `_mean`, ...). Throws std::invalid_argument.
bench_name parse_name(std::string_view text);

}  // namespace membench
