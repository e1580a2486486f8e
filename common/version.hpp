// What a build and its output say they are: the project's version (CMake's
// project(VERSION), written into a generated source at configure time), the commit it was
// built from (re-read at every build), and the version of the JSON layout membench writes
// (context key `membench_format_version`). membench writes the format version and
// membench-report checks it, both through this header.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace membench {

/// "0.1.0": CMake's PROJECT_VERSION.
const char* project_version() noexcept;
/// Short git commit of the sources (with -dirty), written at build time; "unknown" outside git.
const char* git_commit() noexcept;
/// `git describe --tags --long --always --abbrev=12 --dirty --match v<project_version>` at
/// build time: "v0.1.0-3-g0695cf7c1234[-dirty]", or "0695cf7c1234[-dirty]" with no such
/// tag; "" outside git.
const char* git_describe() noexcept;

/// The version a build states (--version, context key `membench_version`): the project
/// version alone at its clean tag v<project> or outside git, else with what git says as
/// semantic-versioning build metadata: "0.1.0+3.g0695cf7c1234" (3 commits past v0.1.0),
/// "0.1.0+g0695cf7c1234" (no v0.1.0 tag behind it), ".dirty" appended for modified sources.
std::string describe_version(std::string_view project, std::string_view git_description);
/// describe_version(project_version(), git_describe()).
std::string full_version();

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
