#include "version.hpp"

#include <charconv>

#include <fmt/format.h>

namespace membench {

namespace {

bool is_hex(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

bool is_count(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// "3.g0695cf7c1234" from "3-g0695cf7c1234" (commits past the tag, then the commit); "" at
// the tag itself; nullopt for anything git would not have written.
std::optional<std::string> past_tag(std::string_view rest) {
  const std::size_t dash = rest.find("-g");
  if (dash == std::string_view::npos) return std::nullopt;
  const std::string_view count = rest.substr(0, dash);
  const std::string_view commit = rest.substr(dash + 2);
  if (!is_count(count) || !is_hex(commit)) return std::nullopt;
  return count == "0" ? fmt::format("g{}", commit) : fmt::format("{}.g{}", count, commit);
}

}  // namespace

std::string describe_version(std::string_view project, std::string_view git_description) {
  std::string_view d = git_description;
  constexpr std::string_view dirty_suffix = "-dirty";
  const bool dirty = d.ends_with(dirty_suffix);
  if (dirty) d.remove_suffix(dirty_suffix.size());
  if (d.empty()) return std::string(project);
  const std::string tag = fmt::format("v{}-", project);
  std::optional<std::string> build;
  if (d.starts_with(tag)) {
    build = past_tag(d.substr(tag.size()));
    // Exactly at a clean tag, the version says all.
    if (build && !dirty && d.substr(tag.size()).starts_with("0-")) return std::string(project);
  } else if (is_hex(d)) {
    build = fmt::format("g{}", d);
  }
  if (!build) return fmt::format("{}+unknown", project);
  return fmt::format("{}+{}{}", project, *build, dirty ? ".dirty" : "");
}

std::string full_version() { return describe_version(project_version(), git_describe()); }

std::string format_version() { return fmt::format("{}.{}", format_major, format_minor); }

std::optional<format_version_number> parse_format_version(std::string_view text) noexcept {
  format_version_number v;
  const char* const end = text.data() + text.size();
  const auto major = std::from_chars(text.data(), end, v.major);
  if (major.ec != std::errc() || major.ptr == end || *major.ptr != '.' || v.major < 0) return std::nullopt;
  const auto minor = std::from_chars(major.ptr + 1, end, v.minor);
  if (minor.ec != std::errc() || minor.ptr != end || v.minor < 0) return std::nullopt;
  return v;
}

}  // namespace membench
