#include "version.hpp"

#include <charconv>

#include <fmt/format.h>

namespace membench {

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
