// views: the standard views of a result folder, each made by running its steps (command
// lines of this tool) with their output collected, then written or compared.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "core/escape.hpp"
#include "core/input_text.hpp"
#include "common/output_file.hpp"
#include "views/view_sets.hpp"

namespace membench::report {
namespace {

using input_files = std::map<std::string, std::vector<std::string>>;

std::string read_file(const std::string& path) { return read_input_text(path, path, std::size_t{16} << 20); }

// The files of each input of a view; nullopt (and a note) when a required one has none.
std::optional<input_files> view_inputs(const view_spec& v, const std::string& dir) {
  input_files inputs;
  std::string missing;
  for (const auto& [name, in] : v.inputs) {
    inputs[name] = resolve_input(dir, in);
    if (inputs[name].empty() && !in.optional && missing.empty()) missing = in.any_of.empty() ? name : in.any_of.front();
  }
  if (missing.empty()) return inputs;
  std::fprintf(stderr, "views: %s: skipped (no %s)\n", terminal_text(v.name).c_str(), terminal_text(missing).c_str());
  return std::nullopt;
}

// Whether the view's inputs hold a benchmark its if_rows finds (and a note when not).
bool has_rows(const view_spec& v, const input_files& inputs, session& s) {
  if (v.if_rows.empty()) return true;
  const name_filter rows(v.if_rows, fmt::format("{}: if_rows", v.name));
  for (const auto& [name, files] : inputs) {
    for (const result_file& f : s.load(files, {})) {
      if (std::any_of(f.results.begin(), f.results.end(), [&](const result& r) { return rows(r.name); })) return true;
    }
  }
  std::fprintf(stderr, "views: %s: skipped (no benchmark matches %s)\n", terminal_text(v.name).c_str(), terminal_text(v.if_rows).c_str());
  return false;
}

// Whether a step of the view runs here (and a note when none does): one whose every command
// reads an optional input the folder lacks has nothing to make it, and an empty file written
// as "made" would pass for the view.
bool has_steps(const view_spec& v, const input_files& inputs) {
  bool commands = false;
  for (const view_step& one : v.steps) {
    if (one.args.empty()) continue;
    if (expand_step(one, inputs)) return true;
    commands = true;
  }
  if (!commands) return true;  // lines of text only: the view is that text
  std::fprintf(stderr, "views: %s: skipped (every step reads an optional input this folder lacks)\n",
               terminal_text(v.name).c_str());
  return false;
}

// The view's text from its steps, given to `sink` as each step makes it; false when a step
// failed (a regression is a finding, not a failure).
bool make_view(const view_spec& v, const input_files& inputs, session& s, command_runner step,
               const std::function<void(std::string_view)>& sink) {
  s.capture = sink;
  for (const view_step& one : v.steps) {
    const auto args = one.args.empty() ? std::nullopt : expand_step(one, inputs);
    if (!one.args.empty() && !args) continue;  // an optional input this folder does not have
    const int rc = args ? step(*args, s) : write_text(one.text + "\n", "", s);
    if (rc != exit_ok && rc != exit_regression) {
      const std::string what = args ? fmt::format("'{}'", fmt::join(*args, " ")) : "a line of text";
      std::fprintf(stderr, "views: %s: %s failed\n", terminal_text(v.name).c_str(), terminal_text(what).c_str());
      s.capture = nullptr;
      return false;
    }
  }
  s.capture = nullptr;
  return true;
}

// Compares a view's text, as its steps make it, with the file it would write, a piece at
// a time (neither is held whole).
class view_comparer {
 public:
  explicit view_comparer(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)) {
    struct stat st {};
    same_ = fd_ >= 0 && ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);  // a view's file is a regular file, or it differs
    if (same_) size_ = static_cast<std::uint64_t>(st.st_size);
  }
  ~view_comparer() {
    if (fd_ >= 0) ::close(fd_);
  }
  view_comparer(const view_comparer&) = delete;
  view_comparer& operator=(const view_comparer&) = delete;

  void put(std::string_view text) {
    std::array<char, 1 << 16> chunk{};
    while (same_ && !text.empty()) {
      const std::size_t n = std::min(text.size(), chunk.size());
      same_ = offset_ + n <= size_ &&
              ::pread(fd_, chunk.data(), n, static_cast<off_t>(offset_)) == static_cast<ssize_t>(n) &&
              std::equal(chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(n), text.begin());
      offset_ += n;
      text.remove_prefix(n);
    }
  }
  bool missing() const { return fd_ < 0; }
  bool same() const { return same_ && offset_ == size_; }

 private:
  int fd_;
  std::uint64_t size_ = 0, offset_ = 0;
  bool same_ = false;
};

// --check: whether the view's file differs from what its steps make (and a note when it
// does); nullopt when a step failed.
std::optional<bool> check_view(const view_spec& v, const input_files& inputs, session& s, command_runner step) {
  view_comparer old(s.locate(v.output));
  if (!make_view(v, inputs, s, step, [&old](std::string_view text) { old.put(text); })) return std::nullopt;
  if (old.same()) return false;
  std::fprintf(stderr, "views: %s: %s %s\n", terminal_text(v.name).c_str(), terminal_text(v.output).c_str(), old.missing() ? "is missing" : "differs");
  return true;
}

// Writes the view's file as its steps make it, renamed into place once they all ran, and
// never over one of the inputs. exit_ok, or exit_unusable (and why, on stderr).
int write_view(const view_spec& v, const input_files& inputs, session& s, command_runner step) {
  const std::string target = s.locate(v.output);
  try {
    membench::output_file out(target);
    if (!make_view(v, inputs, s, step, [&out](std::string_view text) { out.append(text); })) return exit_unusable;
    if (const std::string* in = s.input_named(target)) {
      std::fprintf(stderr, "membench-report: %s: refused: it is the input %s (an output never replaces an input)\n",
                   terminal_text(target).c_str(), terminal_text(*in).c_str());
      return exit_unusable;
    }
    out.commit();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "membench-report: %s\n", terminal_text(e.what()).c_str());
    return exit_unusable;
  }
  std::fprintf(stderr, "views: %s -> %s\n", terminal_text(v.name).c_str(), terminal_text(target).c_str());
  return exit_ok;
}

// Every file any view reads, before any view is written: a view's file must not replace a
// file another view reads (it would be read after, or lost), whether the view declares it as
// an input or a step names it as it is (`compare $in x.json`).
void protect_inputs(const std::vector<view_spec>& specs, const std::string& dir, session& s) {
  for (const view_spec& v : specs) {
    for (const auto& [name, in] : v.inputs) {
      for (const std::string& path : resolve_input(dir, in)) s.inputs.push_back(s.locate(path));
    }
    for (const view_step& one : v.steps) {
      for (const std::string& arg : one.args) {
        std::error_code missing;  // an option or a word is no file: nothing to protect
        if (!arg.starts_with('$') && std::filesystem::is_regular_file(s.locate(arg), missing))
          s.inputs.push_back(s.locate(arg));
      }
    }
  }
}

}  // namespace

int run_views(const views_args& a, command_runner step) {
  const std::string file = a.views_file.empty() ? find_views_file(a.dir) : a.views_file;
  if (file.empty()) throw input_error(fmt::format("{}: no views.json here or in a parent folder (--views FILE)", a.dir));
  const std::vector<view_spec> specs = parse_view_specs(read_file(file), file);
  // A name --only gives that no view has would check nothing and pass.
  for (const std::string& name : a.only) {
    if (std::none_of(specs.begin(), specs.end(), [&](const view_spec& v) { return v.name == name; }))
      throw input_error(fmt::format("--only {}: {} has no view of that name", terminal_text(name), terminal_text(file)));
  }
  session s;
  s.dir = a.dir;
  s.in_views = true;
  s.inputs.push_back(file);
  protect_inputs(specs, a.dir, s);
  int made = 0, differ = 0;
  for (const view_spec& v : specs) {
    if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), v.name) == a.only.end()) continue;
    const std::optional<input_files> inputs = view_inputs(v, a.dir);
    if (!inputs || !has_steps(v, *inputs) || !has_rows(v, *inputs, s)) continue;
    if (a.check) {
      const std::optional<bool> differs = check_view(v, *inputs, s, step);
      if (!differs) return exit_unusable;
      differ += *differs ? 1 : 0;
    } else if (const int rc = write_view(v, *inputs, s, step); rc != exit_ok) {
      return rc;
    }
    ++made;
  }
  if (a.check) std::fprintf(stderr, "views: %d made, %d differ\n", made, differ);
  // A run that made no view (every one skipped: a mistyped folder) has done nothing, and a
  // check that compared none has checked nothing: neither is a pass.
  if (made == 0)
    throw input_error(a.check ? "views --check: no view could be made here: nothing was checked"
                              : fmt::format("views: no view could be made in {}: nothing was written", a.dir));
  return differ > 0 ? exit_regression : exit_ok;
}

}  // namespace membench::report
