// Google Benchmark's own flags, checked before benchmark::Initialize sees them: it answers
// a format or time unit it does not know with its help and exit 0 (nothing ran, yet CI sees
// success), parses `nan` as a number, and reads any word but false/no/off as true.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "cli.hpp"
#include "common/schema.hpp"

namespace membench {
namespace {

enum class value_kind { boolean, color, count, seconds, format, time_unit, context, any };

struct benchmark_flag {
  std::string_view name;
  value_kind kind;
};

// Every flag of Google Benchmark 1.7 and 1.8 that membench passes on (benchmark_min_time is
// refused earlier: membench's stopping rule replaces it).
constexpr std::array benchmark_flags{
    benchmark_flag{"benchmark_list_tests", value_kind::boolean},
    benchmark_flag{"benchmark_filter", value_kind::any},
    benchmark_flag{"benchmark_min_warmup_time", value_kind::seconds},
    benchmark_flag{"benchmark_repetitions", value_kind::count},
    benchmark_flag{"benchmark_enable_random_interleaving", value_kind::boolean},
    benchmark_flag{"benchmark_report_aggregates_only", value_kind::boolean},
    benchmark_flag{"benchmark_display_aggregates_only", value_kind::boolean},
    benchmark_flag{"benchmark_format", value_kind::format},
    benchmark_flag{"benchmark_out_format", value_kind::format},
    benchmark_flag{"benchmark_out", value_kind::any},
    benchmark_flag{"benchmark_color", value_kind::color},
    benchmark_flag{"benchmark_time_unit", value_kind::time_unit},
    benchmark_flag{"benchmark_counters_tabular", value_kind::boolean},
    benchmark_flag{"benchmark_perf_counters", value_kind::any},
    benchmark_flag{"benchmark_context", value_kind::context},
    benchmark_flag{"v", value_kind::count},
};

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_one_of(std::string_view value, std::initializer_list<std::string_view> allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

bool is_boolean_word(std::string_view value) {
  return is_one_of(lower(value), {"true", "false", "1", "0", "yes", "no", "on", "off", "t", "f", "y", "n"});
}

bool is_count(std::string_view value) {
  long n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  return ec == std::errc{} && end == value.data() + value.size() && n >= 0 && n <= (1L << 30);
}

bool is_seconds(const std::string& value) {
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  return !value.empty() && end == value.c_str() + value.size() && std::isfinite(v) && v >= 0;
}

// KEY=VALUE[,KEY=VALUE...]: Google Benchmark warns of anything else from the environment and
// runs on without the context asked for.
bool is_context(std::string_view value) {
  while (true) {
    const std::size_t comma = value.find(',');
    const std::string_view item = value.substr(0, comma);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) return false;
    if (comma == std::string_view::npos) return true;
    value.remove_prefix(comma + 1);
  }
}

std::string_view expected(value_kind kind) {
  switch (kind) {
    case value_kind::boolean: return "true or false";
    case value_kind::color: return "auto, true or false";
    case value_kind::count: return "a whole number >= 0";
    case value_kind::seconds: return "a finite number of seconds >= 0";
    case value_kind::format: return "console, json or csv";
    case value_kind::time_unit: return "ns, us, ms or s";
    case value_kind::context: return "KEY=VALUE pairs joined by commas";
    case value_kind::any: return "any text";
  }
  return "?";
}

bool accepts(value_kind kind, const std::string& value) {
  switch (kind) {
    case value_kind::boolean: return is_boolean_word(value);
    case value_kind::color: return lower(value) == "auto" || is_boolean_word(value);
    case value_kind::count: return is_count(value);
    case value_kind::seconds: return is_seconds(value);
    case value_kind::format: return is_one_of(value, {"console", "json", "csv"});
    case value_kind::time_unit: return is_one_of(value, {"ns", "us", "ms", "s"});
    case value_kind::context: return is_context(value);
    case value_kind::any: return true;
  }
  return false;
}

// The keys Google Benchmark writes into the JSON context itself (1.7 and 1.8).
constexpr std::string_view benchmark_context_keys[] = {
    "date",   "host_name", "executable",         "num_cpus",        "mhz_per_cpu",        "cpu_scaling_enabled",
    "caches", "load_avg",  "library_build_type", "library_version", "json_schema_version"};

// A key the results file's context has already: membench's (the schema's, and any membench_
// key, such as membench_fresh_process_N_after) or Google Benchmark's own. Google Benchmark
// keeps the user's value and drops membench's later one with a warning (a gpu_uuid of the
// user's text, by which the fleet groups runs), or writes its own and the user's both.
bool reserved_context_key(std::string_view key) {
  return schema::find_context_key(key) != nullptr || key.substr(0, 9) == "membench_" ||
         std::find(std::begin(benchmark_context_keys), std::end(benchmark_context_keys), key) !=
             std::end(benchmark_context_keys);
}

// What is wrong with the keys of KEY=VALUE pairs (already well formed): one given twice (the
// context would hold one of the two values unsaid) or one the context has already.
std::optional<std::string> context_key_problem(std::string_view value) {
  std::vector<std::string_view> keys;
  for (std::size_t at = 0; at <= value.size();) {
    const std::size_t comma = std::min(value.find(',', at), value.size());
    const std::string_view item = value.substr(at, comma - at);
    const std::string_view key = item.substr(0, item.find('='));
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) return fmt::format("the key '{}' given twice", key);
    if (reserved_context_key(key))
      return fmt::format("the key '{}' is reserved for membench's or Google Benchmark's own context; name yours otherwise",
                         key);
    keys.push_back(key);
    at = comma + 1;
  }
  return std::nullopt;
}

// Null for an argument that is not one of Google Benchmark's flags with a value.
std::optional<std::string> check_one(std::string_view arg) {
  for (const benchmark_flag& flag : benchmark_flags) {
    const std::string prefix = fmt::format("--{}=", flag.name);
    if (arg.substr(0, prefix.size()) != prefix) continue;
    const std::string value(arg.substr(prefix.size()));
    if (!accepts(flag.kind, value)) return fmt::format("--{}={}: expected {}", flag.name, value, expected(flag.kind));
    if (flag.kind != value_kind::context) return std::nullopt;
    if (const auto problem = context_key_problem(value)) return fmt::format("--{}: {}", flag.name, *problem);
    return std::nullopt;
  }
  return std::nullopt;
}

// A flag given twice: Google Benchmark takes the last and drops the others unsaid (of two
// --benchmark_out, the first file would never be written).
std::optional<std::string> check_repeats(const std::vector<std::string>& args) {
  for (const benchmark_flag& flag : benchmark_flags) {
    const std::string bare = fmt::format("--{}", flag.name), prefix = bare + "=";
    std::size_t n = 0;
    for (std::size_t i = 1; i < args.size(); ++i) n += args[i] == bare || args[i].rfind(prefix, 0) == 0;
    if (n > 1) return fmt::format("{} given {} times: Google Benchmark would take the last alone; give it once", bare, n);
  }
  return std::nullopt;
}

// Google Benchmark takes each flag's default from the variable of its name in capitals
// (BENCHMARK_FORMAT=xml is --benchmark_format=xml): the same values are checked there, and the
// minimum time refused alike. Not v's variable V, too common a name to be meant for it.
std::optional<std::string> check_environment() {
  if (std::getenv("BENCHMARK_MIN_TIME") != nullptr)
    return "BENCHMARK_MIN_TIME is set: membench's stopping rule replaces it (--max-ci, --min-samples, --min-time, "
           "--max-time); unset it";
  for (const benchmark_flag& flag : benchmark_flags) {
    if (flag.kind == value_kind::any || flag.name == "v") continue;
    std::string variable(flag.name);
    std::transform(variable.begin(), variable.end(), variable.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    const char* value = std::getenv(variable.c_str());
    if (value == nullptr) continue;
    if (!accepts(flag.kind, value))
      return fmt::format("{}={} in the environment: expected {} (or unset it)", variable, value, expected(flag.kind));
    if (flag.kind != value_kind::context) continue;
    if (const auto problem = context_key_problem(value))
      return fmt::format("{}={} in the environment: {}", variable, value, *problem);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_benchmark_flags(const std::vector<std::string>& args) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (auto problem = check_one(args[i])) return problem;
  }
  if (auto problem = check_repeats(args)) return problem;
  return check_environment();
}

bool wants_list_only(const std::vector<std::string>& args) {
  constexpr std::string_view flag = "--benchmark_list_tests";
  bool list = false;  // the last one wins, as in Google Benchmark
  for (const std::string& a : args) {
    if (a == flag) list = true;
    if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0 && a[flag.size()] == '=')
      list = !is_one_of(lower(std::string_view(a).substr(flag.size() + 1)), {"false", "0", "no", "off", "f", "n"});
  }
  return list;
}

}  // namespace membench
