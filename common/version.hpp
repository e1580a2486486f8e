// What a build and its output say they are: the project's version (CMake's
// project(VERSION), written into a generated source at configure time) and the version of
// the JSON layout membench writes (context key `membench_format_version`). membench writes
// the format version and membench-report checks it, both through this header.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace membench {

/// "0.1.0": CMake's PROJECT_VERSION.
const char* project_version() noexcept;

/// The JSON layout. A minor version only adds keys, which an older reader may ignore; a
/// major version changes what existing keys mean, so a reader refuses a newer major.
inline constexpr int format_major = 1;
inline constexpr int format_minor = 0;

struct format_version_number {
  int major = 0;
  int minor = 0;
};

/// "1.0": format_major.format_minor, as membench writes it.
std::string format_version();

/// "MAJOR.MINOR" (non-negative integers); nullopt for anything else.
std::optional<format_version_number> parse_format_version(std::string_view text) noexcept;

}  // namespace membench
