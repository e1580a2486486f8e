// The standard views of a result folder as data: reports/views.json names each view's
// output file, its input files and the membench-report command lines that write it.
// `membench-report views DIR` runs them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace membench::report {

/// A view's input: the first alternative (a path or a glob, relative to the folder) that
/// matches a file; a glob gives every file it matches, sorted.
struct view_input {
  std::vector<std::string> any_of;
  bool optional = false;  ///< the steps that use it are left out when it matches nothing
};

/// One step of a view: a command line (`$name` stands for an input's files) or a line of text.
struct view_step {
  std::vector<std::string> args;
  std::string text;
};

struct view_spec {
  std::string name;
  std::string output;   ///< relative to the folder
  std::string if_rows;  ///< the view is made only when its inputs hold a benchmark this regex finds
  std::vector<std::pair<std::string, view_input>> inputs;
  std::vector<view_step> steps;
};

/// Parses a views file. throws input_error naming `path` and the entry at fault
std::vector<view_spec> parse_view_specs(std::string_view json_text, const std::string& path);

/// DIR/views.json, else the nearest views.json in DIR's parents; "" when there is none.
std::string find_views_file(const std::string& dir);

/// The files an input resolves to, relative to `dir` (a folder's name, never a pattern: only
/// the alternatives are globs); empty when no alternative matches.
std::vector<std::string> resolve_input(const std::string& dir, const view_input& in);

/// A step's arguments with each `$name` replaced by that input's files; nullopt when the
/// step uses an optional input that resolved to nothing. throws input_error for an input
/// the view does not declare
std::optional<std::vector<std::string>> expand_step(const view_step& step,
                                                    const std::map<std::string, std::vector<std::string>>& inputs);

}  // namespace membench::report
