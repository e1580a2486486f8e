// Where one membench-report command runs and where its output goes: on its own (stdout or
// -o), or as a step of `views` (paths relative to a result folder, output collected, files
// read once for all steps).
#pragma once

#include <functional>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.hpp"
#include "core/exit_codes.hpp"
#include "core/model.hpp"
#include "core/options.hpp"

namespace membench::report {

struct session {
  std::string dir;                  ///< relative paths resolve here; "" = as given
  /// Set: the output goes here instead of stdout or -o (views: into the view's file as
  /// the steps make it). throws std::runtime_error when it cannot take it
  std::function<void(std::string_view)> capture;
  std::vector<std::string> inputs;  ///< every file read (as located): no output may replace one
  bool in_views = false;            ///< running the steps of `views` (which may not run views)

  std::string locate(const std::string& path) const;
  /// The input `path` names by any name (`./x`, a symlink, a hard link); nullptr when none.
  const std::string* input_named(const std::string& path) const;
  /// Whether `path` is the file standard output writes to (/dev/stdout, or the file it is
  /// redirected to): a second output there would interleave with the first.
  bool is_standard_output(const std::string& path) const;
  /// The files, each read once for the session (a path given twice is one file) and kept
  /// there: those not read yet a few at a time (at most 8 open at once), each on a core (one file's serial steps
  /// overlap another's parsing). One command reads what `what` asks; the steps of views
  /// share files read whole. throws input_error
  file_refs load(const std::vector<std::string>& paths, const read_options& what);
  /// load, but a file that cannot be read is left out and said in `unreadable` (its path as
  /// given, and why), so that one truncated file does not stop a report on every other.
  file_refs load_readable(const std::vector<std::string>& paths, const read_options& what,
                          std::vector<std::pair<std::string, std::string>>& unreadable);
  /// Outside views, frees the files read: a command's document or text, once made, holds
  /// all it shows, and the output need not sit on top of its inputs. Their file_refs are
  /// dangling from here on. In views, the files stay for the next step.
  void release();

 private:
  /// The file `loading` read, kept under `p`; or why it could not be read.
  std::optional<std::string> keep_loaded(const std::string& p, std::future<result_file>& loading);

  std::map<std::string, result_file> files_;  ///< by path as given
};

/// --format, -o, --color.
struct output_options {
  std::string format = std::string(options::format.text);
  std::string output;
  std::string colour = std::string(options::color.text);
};

/// Writes text to `output` (relative to the session's folder) through a temporary file
/// renamed into place, to the session's capture or to stdout; exit_unusable (and why, on
/// stderr) when it cannot be written whole or `output` is one of the session's inputs.
int write_text(const std::string& text, const std::string& output, session& s);
/// Several files that belong together (a page and its charts), each (path, text): all made
/// whole before any replaces its file, so that a full disk leaves the old set as it was
/// rather than a page that disagrees with its charts (a step of views: one after another);
/// the exit code as write_text's.
int write_files(const std::vector<std::pair<std::string, std::string>>& files, session& s);
/// A document rendered as `o` asks (colour only for a terminal that takes it).
std::string rendered(const document& d, const output_options& o, const session& s);
/// Renders a document as `o` asks and writes it.
int emit(const document& d, const output_options& o, session& s);

}  // namespace membench::report
