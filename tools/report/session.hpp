// Where one membench-report command runs and where its output goes: on its own (stdout or
// -o), or as a step of `views` (paths relative to a result folder, output collected, files
// read once for all steps).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "document.hpp"
#include "model.hpp"
#include "options.hpp"

namespace membench::report {

enum exit_code : int { exit_ok = 0, exit_regression = 1, exit_unusable = 2 };

struct session {
  std::string dir;                  ///< relative paths resolve here; "" = as given
  std::string* capture = nullptr;   ///< the output goes here instead of stdout or -o
  std::map<std::string, result_file> cache;  ///< views: every file read whole, once

  std::string locate(const std::string& path) const;
  /// Reads files at once, each on every core (one file's serial steps overlap another's
  /// parsing); in views, from the cache. throws input_error
  std::vector<result_file> load(const std::vector<std::string>& paths, const read_options& what);
};

/// --format, -o, --color.
struct output_options {
  std::string format = std::string(options::format.text);
  std::string output;
  std::string colour = std::string(options::color.text);
};

/// Writes text to `output` (relative to the session's folder), the session's capture or stdout.
int write_text(const std::string& text, const std::string& output, session& s);
/// Renders a document as `o` asks and writes it.
int emit(const document& d, const output_options& o, session& s);

}  // namespace membench::report
