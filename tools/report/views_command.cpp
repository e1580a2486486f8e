// views: the standard views of a result folder, each made by running its steps (command
// lines of this tool) with their output collected, then written or compared.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "commands.hpp"
#include "view_sets.hpp"

namespace membench::report {
namespace {

using input_files = std::map<std::string, std::vector<std::string>>;

// The most read from a views file that is not a regular file (a pipe, a device): /dev/zero
// would otherwise fill the memory.
constexpr std::size_t longest_stream = std::size_t{16} << 20;

std::string read_file(const std::string& path) {
  // Without blocking: a FIFO nobody writes to would wait in open() for ever (it reads as empty).
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw input_error(fmt::format("{}: cannot open", path));
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  std::array<char, 1 << 16> chunk{};
  ssize_t got = 0;
  while ((regular || text.size() <= longest_stream) && (got = ::read(fd, chunk.data(), chunk.size())) > 0)
    text.append(chunk.data(), static_cast<std::size_t>(got));
  ::close(fd);
  if (got < 0) throw input_error(fmt::format("{}: cannot read", path));
  if (!regular && text.size() > longest_stream)
    throw input_error(fmt::format("{}: not a regular file, and longer than the {} MiB read from one", path,
                                  longest_stream >> 20));
  return text;
}

// The files of each input of a view; nullopt (and a note) when a required one has none.
std::optional<input_files> view_inputs(const view_spec& v, const std::string& dir) {
  input_files inputs;
  std::string missing;
  for (const auto& [name, in] : v.inputs) {
    inputs[name] = resolve_input(dir, in);
    if (inputs[name].empty() && !in.optional && missing.empty()) missing = in.any_of.empty() ? name : in.any_of.front();
  }
  if (missing.empty()) return inputs;
  std::fprintf(stderr, "views: %s: skipped (no %s)\n", v.name.c_str(), missing.c_str());
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
  std::fprintf(stderr, "views: %s: skipped (no benchmark matches %s)\n", v.name.c_str(), v.if_rows.c_str());
  return false;
}

// The view's text from its steps; nullopt when a step failed (a regression is a finding,
// not a failure).
std::optional<std::string> make_view(const view_spec& v, const input_files& inputs, session& s, command_runner step) {
  std::string text;
  s.capture = &text;
  for (const view_step& one : v.steps) {
    if (one.args.empty()) {
      text += one.text + "\n";
      continue;
    }
    const auto args = expand_step(one, inputs);
    if (!args) continue;  // an optional input this folder does not have
    const int rc = step(*args, s);
    if (rc != exit_ok && rc != exit_regression) {
      std::fprintf(stderr, "views: %s: '%s' failed\n", v.name.c_str(), fmt::format("{}", fmt::join(*args, " ")).c_str());
      s.capture = nullptr;
      return std::nullopt;
    }
  }
  s.capture = nullptr;
  return text;
}

// Whether the view's file differs from `text` (and a note when it does).
bool differs(const view_spec& v, const std::string& target, const std::string& text) {
  std::optional<std::string> old;
  try {
    old = read_file(target);
  } catch (const input_error&) {
  }
  if (old == text) return false;
  std::fprintf(stderr, "views: %s: %s %s\n", v.name.c_str(), v.output.c_str(), old ? "differs" : "is missing");
  return true;
}

}  // namespace

int run_views(const views_args& a, command_runner step) {
  const std::string file = a.views_file.empty() ? find_views_file(a.dir) : a.views_file;
  if (file.empty()) throw input_error(fmt::format("{}: no views.json here or in a parent folder (--views FILE)", a.dir));
  const std::vector<view_spec> specs = parse_view_specs(read_file(file), file);
  session s;
  s.dir = a.dir;
  s.in_views = true;
  s.inputs.push_back(file);
  int made = 0, differ = 0;
  for (const view_spec& v : specs) {
    if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), v.name) == a.only.end()) continue;
    const std::optional<input_files> inputs = view_inputs(v, a.dir);
    if (!inputs || !has_rows(v, *inputs, s)) continue;
    const std::optional<std::string> text = make_view(v, *inputs, s, step);
    if (!text) return exit_unusable;
    ++made;
    const std::string target = s.locate(v.output);
    if (a.check) {
      differ += differs(v, target, *text) ? 1 : 0;
      continue;
    }
    if (const int rc = write_text(*text, v.output, s); rc != exit_ok) return rc;
    std::fprintf(stderr, "views: %s -> %s\n", v.name.c_str(), target.c_str());
  }
  if (a.check) std::fprintf(stderr, "views: %d made, %d differ\n", made, differ);
  return differ > 0 ? exit_regression : exit_ok;
}

}  // namespace membench::report
