#include "naming.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "schema.hpp"

namespace membench {
namespace {

constexpr std::array<std::pair<char, int>, 4> size_units{{{'T', 40}, {'G', 30}, {'M', 20}, {'K', 10}}};

bool is_token(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool is_size_token(std::string_view s) {
  try {
    (void)parse_size(s);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

void check_param(const name_param& p) {
  const schema::field* key = schema::find_name_key(p.key);
  if (key == nullptr) throw std::invalid_argument(fmt::format("unknown name key '{}'", p.key));
  // Byte, element and cycle counts take size tokens (64M, 1K); everything else is a plain token.
  const std::string_view unit = key->unit;
  const bool ok = unit == "bytes" || unit == "elements" || unit == "cycles" ? is_size_token(p.value) : is_token(p.value);
  if (!ok) throw std::invalid_argument(fmt::format("bad value '{}' for key '{}'", p.value, p.key));
}

enum class segment_kind { own, setting, time_type };

// Google Benchmark's BenchmarkName::str() writes these after a benchmark's own arguments.
segment_kind classify_segment(std::string_view seg) {
  if (seg == "manual_time" || seg == "real_time" || seg == "process_time") return segment_kind::time_type;
  // Each with a number as Google Benchmark formats it (%d, %lu or %0.3f).
  const auto colon = seg.find(':');
  if (colon == std::string_view::npos || colon + 1 == seg.size()) return segment_kind::own;
  const std::string_view key = seg.substr(0, colon), value = seg.substr(colon + 1);
  const bool number = std::all_of(value.begin(), value.end(), [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
  for (std::string_view setting : {"min_time", "min_warmup_time", "iterations", "repeats", "threads"}) {
    if (number && key == setting) return segment_kind::setting;
  }
  return segment_kind::own;
}

}  // namespace

std::string strip_framework_suffix(std::string_view name, framework_suffix what) {
  std::string out(name);
  // Backwards over the appended segments; a slash at 0 would leave no name of its own.
  for (std::size_t end = out.size(); end > 0;) {
    const auto slash = out.rfind('/', end - 1);
    if (slash == std::string::npos || slash == 0) break;
    const segment_kind kind = classify_segment(std::string_view(out).substr(slash + 1, end - slash - 1));
    if (kind == segment_kind::own) break;
    if (kind == segment_kind::time_type || what == framework_suffix::all) out.erase(slash, end - slash);
    end = slash;
  }
  return out;
}

std::string format_size(std::uint64_t bytes) {
  if (bytes != 0) {
    for (auto [suffix, shift] : size_units) {
      const std::uint64_t unit = std::uint64_t{1} << shift;
      if (bytes % unit == 0) return fmt::format("{}{}", bytes / unit, suffix);
    }
  }
  return fmt::format("{}", bytes);
}

std::uint64_t parse_size(std::string_view text) {
  if (text.empty()) throw std::invalid_argument("empty size");
  int shift = 0;
  std::string_view digits = text;
  for (auto [suffix, s] : size_units) {
    if (text.back() == suffix) {
      shift = s;
      digits = text.substr(0, text.size() - 1);
      break;
    }
  }
  if (digits.empty() || digits.size() > 19 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw std::invalid_argument(fmt::format("bad size '{}' (expected digits with optional K, M, G, T)", text));
  }
  std::uint64_t value = std::stoull(std::string(digits));
  if (shift > 0 && value > (UINT64_MAX >> shift)) throw std::invalid_argument(fmt::format("size '{}' overflows", text));
  return value << shift;
}

std::string bench_name::str() const {
  if (!is_token(space) || !is_token(experiment)) {
    throw std::invalid_argument(fmt::format("bad space/experiment '{}/{}'", space, experiment));
  }
  std::string out = space + "/" + experiment;
  for (const auto& p : params) {
    check_param(p);
    out += fmt::format("/{}:{}", p.key, p.value);
  }
  return out;
}

std::optional<std::string> bench_name::get(std::string_view key) const {
  for (const auto& p : params) {
    if (p.key == key) return p.value;
  }
  return std::nullopt;
}

bench_name parse_name(std::string_view text) {
  for (std::string_view agg : {"_mean", "_median", "_stddev", "_cv"}) {
    if (text.size() > agg.size() && text.substr(text.size() - agg.size()) == agg) {
      text.remove_suffix(agg.size());
      break;
    }
  }
  const std::string own = strip_framework_suffix(text, framework_suffix::all);
  text = own;
  std::vector<std::string_view> segs;
  while (true) {
    auto slash = text.find('/');
    segs.push_back(text.substr(0, slash));
    if (slash == std::string_view::npos) break;
    text.remove_prefix(slash + 1);
  }
  if (segs.size() < 2) throw std::invalid_argument("name needs <space>/<experiment>");
  bench_name name{std::string(segs[0]), std::string(segs[1]), {}};
  for (std::size_t i = 2; i < segs.size(); ++i) {
    auto colon = segs[i].find(':');
    if (colon == std::string_view::npos) throw std::invalid_argument(fmt::format("segment '{}' is not key:value", segs[i]));
    name_param p{std::string(segs[i].substr(0, colon)), std::string(segs[i].substr(colon + 1))};
    check_param(p);
    name.params.push_back(std::move(p));
  }
  if (!is_token(name.space) || !is_token(name.experiment))
    throw std::invalid_argument(fmt::format("bad space/experiment '{}/{}'", name.space, name.experiment));
  return name;
}

bench_name parse_any_name(std::string_view text) {
  try {
    return parse_name(text);
  } catch (const std::invalid_argument&) {
    // Not a membench name: read it as Google Benchmark writes any benchmark's name.
  }
  const std::string own = strip_framework_suffix(text, framework_suffix::time_type);
  text = own;
  bench_name name;
  std::size_t positional = 0;
  for (bool first = true;; first = false) {
    const auto slash = text.find('/');
    const std::string_view seg = text.substr(0, slash);
    const auto colon = seg.find(':');
    if (first) {
      name.experiment = seg;
    } else if (colon != std::string_view::npos && colon > 0) {
      name.params.push_back({std::string(seg.substr(0, colon)), std::string(seg.substr(colon + 1))});
    } else {
      name.params.push_back({fmt::format("arg{}", positional++), std::string(seg)});
    }
    if (slash == std::string_view::npos) break;
    text.remove_prefix(slash + 1);
  }
  return name;
}

}  // namespace membench
