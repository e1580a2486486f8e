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

struct name_param {
  std::string key;
  std::string value;
  bool operator==(const name_param&) const = default;
};

/// `<space>/<experiment>/<key>:<value>/...`; lowercase [a-z0-9_] tokens, keys from
/// schema::name_keys() (names with other keys are rejected).
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

/// Which of the segments Google Benchmark appends to a registered name (after its own
/// arguments, in this order: `min_time:S`, `min_warmup_time:S`, `iterations:N`,
/// `repeats:N`, the time type `process_time` and/or `manual_time` or `real_time`, then
/// `threads:N`) strip_framework_suffix takes off.
enum class framework_suffix {
  time_type,  ///< only how the run was timed: the other segments tell benchmarks apart
  all,        ///< every one (a membench name has none of its own after its keys)
};

/// `name` without the segments Google Benchmark appended at its end that `what` selects
/// (`BM_x/8/manual_time/threads:2` -> `BM_x/8/threads:2`, or `BM_x/8` for `all`). The first
/// segment always stays. An aggregate's `_mean` is not a segment: take it off first.
std::string strip_framework_suffix(std::string_view name, framework_suffix what);

/// Parses a name as written by str(), tolerating Google Benchmark's suffixes
/// (`/manual_time`, `/repeats:N`, `_mean`, ...). Throws std::invalid_argument.
bench_name parse_name(std::string_view text);

/// Any Google Benchmark name; never throws. A membench name reads as parse_name reads it.
/// Another program's name (`BM_copy/1024/threads:8`) has no space: its first segment is
/// the experiment and every further segment a parameter, `key:value` as Google Benchmark's
/// ArgNames write it, a bare value as positional `arg0`, `arg1`, ...; the time type at the
/// end (`/manual_time`, `/real_time`, `/process_time`) is dropped.
bench_name parse_any_name(std::string_view text);

}  // namespace membench
