#include "session.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <future>

#include "common/output_file.hpp"
#include "render.hpp"

namespace membench::report {

std::string session::locate(const std::string& path) const {
  return dir.empty() || path.empty() || path.front() == '/' ? path : dir + "/" + path;
}

std::vector<result_file> session::load(const std::vector<std::string>& paths, const read_options& what) {
  std::vector<result_file> files;
  for (const auto& p : paths) inputs.push_back(locate(p));
  if (dir.empty()) {
    std::vector<std::future<result_file>> pending;
    for (const auto& p : paths) pending.push_back(std::async(std::launch::async, [p, &what] { return load_results(p, what); }));
    for (auto& f : pending) files.push_back(f.get());  // rethrows the first input_error
    return files;
  }
  for (const auto& p : paths) {
    auto it = cache.find(p);
    if (it == cache.end()) {
      it = cache.emplace(p, load_results(locate(p))).first;
      it->second.path = p;  // shown as the views file names it
    }
    files.push_back(it->second);
  }
  return files;
}

namespace {

// The input `path` names by any name (`./x`, a symlink, a hard link); nullptr when none.
const std::string* input_named(const std::string& path, const std::vector<std::string>& inputs) {
  for (const std::string& in : inputs) {
    std::error_code missing;  // a path that does not exist is no input
    if (std::filesystem::equivalent(path, in, missing)) return &in;
  }
  return nullptr;
}

}  // namespace

int write_text(const std::string& text, const std::string& output, session& s) {
  if (s.capture != nullptr && output.empty()) {
    *s.capture += text;
    return exit_ok;
  }
  if (output.empty()) {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      std::fprintf(stderr, "membench-report: cannot write standard output (%s)\n", std::strerror(errno));
      return exit_unusable;
    }
    return exit_ok;
  }
  const std::string path = s.locate(output);
  if (const std::string* in = input_named(path, s.inputs)) {
    std::fprintf(stderr, "membench-report: %s: refused: it is the input %s (an output never replaces an input)\n",
                 path.c_str(), in->c_str());
    return exit_unusable;
  }
  try {
    membench::write_output_file(path, text);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "membench-report: %s\n", e.what());
    return exit_unusable;
  }
  return exit_ok;
}

int emit(const document& d, const output_options& o, session& s) {
  const format f = o.format == "md" ? format::markdown : o.format == "csv" ? format::csv
                   : o.format == "html" ? format::html : format::terminal;
  const bool tty = s.capture == nullptr && o.output.empty() && isatty(STDOUT_FILENO) != 0 &&
                   std::getenv("NO_COLOR") == nullptr;
  const bool colour = o.colour == "always" || (o.colour == "auto" && tty);
  return write_text(render(d, f, colour), o.output, s);
}

}  // namespace membench::report
