#include "options.hpp"

#include <cmath>

#include <fmt/format.h>

namespace membench {

const char* to_string(timing_method m) noexcept {
  switch (m) {
    case timing_method::blocking: return "blocking";
    case timing_method::events: return "events";
    case timing_method::single: return "single";
  }
  return "?";
}

std::optional<timing_method> parse_timing_method(std::string_view s) noexcept {
  for (timing_method m : {timing_method::blocking, timing_method::events, timing_method::single}) {
    if (s == to_string(m)) return m;
  }
  return std::nullopt;
}

const char* to_string(suite_tier t) noexcept {
  switch (t) {
    case suite_tier::check: return "check";
    case suite_tier::quick: return "quick";
    case suite_tier::standard: return "default";
    case suite_tier::full: return "full";
  }
  return "?";
}

std::optional<suite_tier> parse_suite_tier(std::string_view s) noexcept {
  for (suite_tier t : {suite_tier::check, suite_tier::quick, suite_tier::standard, suite_tier::full}) {
    if (s == to_string(t)) return t;
  }
  return std::nullopt;
}

std::optional<progress_mode> parse_progress_mode(std::string_view s) noexcept {
  if (s == "auto") return progress_mode::automatic;
  if (s == "always") return progress_mode::always;
  if (s == "never") return progress_mode::never;
  return std::nullopt;
}

const char* to_string(host_link_mode m) noexcept {
  switch (m) {
    case host_link_mode::alone: return "alone";
    case host_link_mode::together: return "together";
    case host_link_mode::skip: return "skip";
    case host_link_mode::only: return "only";
  }
  return "?";
}

std::optional<host_link_mode> parse_host_link_mode(std::string_view s) noexcept {
  for (host_link_mode m : {host_link_mode::alone, host_link_mode::together, host_link_mode::skip, host_link_mode::only}) {
    if (s == to_string(m)) return m;
  }
  return std::nullopt;
}

std::optional<std::string> validate(const stopping_rule& r) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  auto non_negative = [](double v) { return std::isfinite(v) && v >= 0; };
  if (r.min_samples < 1) return fmt::format("--min-samples must be at least 1 (got {})", r.min_samples);
  if (!positive(r.max_ci_pct)) return fmt::format("--max-ci must be a positive percentage (got {})", r.max_ci_pct);
  if (!positive(r.max_ci_host_pct))
    return fmt::format("--max-ci-host must be a positive percentage (got {})", r.max_ci_host_pct);
  if (!(r.ci_level_pct >= 50 && r.ci_level_pct < 100))
    return fmt::format("--ci-level must be at least 50 and below 100 (got {})", r.ci_level_pct);
  if (!non_negative(r.max_time_s)) return fmt::format("--max-time must be >= 0 seconds (got {})", r.max_time_s);
  if (!non_negative(r.max_time_host_s))
    return fmt::format("--max-time-host must be >= 0 seconds (got {})", r.max_time_host_s);
  if (!non_negative(r.min_time_s)) return fmt::format("--min-time must be >= 0 seconds (got {})", r.min_time_s);
  if (!non_negative(r.row_limit_s)) return fmt::format("--row-limit must be >= 0 seconds (got {})", r.row_limit_s);
  return std::nullopt;
}

}  // namespace membench
