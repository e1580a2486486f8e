#include "cli/session.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <thread>

#include "common/output_file.hpp"
#include "core/escape.hpp"
#include "render/render.hpp"

namespace membench::report {

std::string session::locate(const std::string& path) const {
  return dir.empty() || path.empty() || path.front() == '/' ? path : dir + "/" + path;
}

file_refs session::load(const std::vector<std::string>& paths, const read_options& what) {
  std::vector<std::pair<std::string, std::string>> unreadable;
  file_refs out = load_readable(paths, what, unreadable);
  if (!unreadable.empty()) throw input_error(unreadable.front().second);  // the first, in the order given
  return out;
}

file_refs session::load_readable(const std::vector<std::string>& paths, const read_options& what,
                                 std::vector<std::pair<std::string, std::string>>& unreadable) {
  std::vector<std::string> todo;
  for (const auto& p : paths) {
    inputs.push_back(locate(p));
    if (files_.count(p) == 0 && std::find(todo.begin(), todo.end(), p) == todo.end()) todo.push_back(p);
  }
  // Steps of views ask for different parts of a row: their files are read whole.
  const read_options reads = in_views ? read_options{} : what;
  // A few files at a time: each read holds its file open, and a thousand at once would run out
  // of descriptors (a valid file refused as "Too many open files").
  const std::size_t width = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
  std::vector<std::string> failed;
  for (std::size_t at = 0; at < todo.size(); at += width) {
    std::vector<std::future<result_file>> batch;
    for (std::size_t i = at; i < std::min(at + width, todo.size()); ++i)
      batch.push_back(std::async(std::launch::async, [path = locate(todo[i]), reads] { return load_results(path, reads); }));
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (auto problem = keep_loaded(todo[at + i], batch[i])) {
        unreadable.emplace_back(todo[at + i], *problem);
        failed.push_back(todo[at + i]);
      }
    }
  }
  std::vector<const result_file*> out;
  for (const auto& p : paths) {
    if (std::find(failed.begin(), failed.end(), p) == failed.end()) out.push_back(&files_.at(p));
  }
  return file_refs(std::move(out));
}

std::optional<std::string> session::keep_loaded(const std::string& p, std::future<result_file>& loading) {
  try {
    result_file read = loading.get();
    read.path = p;  // shown as given (in views, as the views file names it)
    if (read.complexity_rows > 0)
      std::fprintf(stderr, "membench-report: %s: %zu complexity row(s) (BigO, RMS) left out: a fit over sizes, not a time\n",
                   terminal_text(p).c_str(), read.complexity_rows);
    files_.emplace(p, std::move(read));
    return std::nullopt;
  } catch (const input_error& e) {
    return std::string(e.what());
  }
}

void session::release() {
  if (!in_views) files_.clear();
}

const std::string* session::input_named(const std::string& path) const {
  for (const std::string& in : inputs) {
    std::error_code missing;  // a path that does not exist is no input
    if (std::filesystem::equivalent(path, in, missing)) return &in;
  }
  return nullptr;
}

int write_text(const std::string& text, const std::string& output, session& s) {
  if (s.capture && output.empty()) {
    try {
      s.capture(text);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "membench-report: %s\n", terminal_text(e.what()).c_str());
      return exit_unusable;
    }
    return exit_ok;
  }
  if (s.capture) {  // a step of views whose own output would leave its view without it
    std::fprintf(stderr, "membench-report: %s: refused: a step of a view writes into the view's file, not elsewhere\n",
                 terminal_text(output).c_str());
    return exit_unusable;
  }
  if (output.empty()) {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      std::fprintf(stderr, "membench-report: cannot write standard output (%s)\n", std::strerror(errno));
      return exit_unusable;
    }
    return exit_ok;
  }
  const std::string path = s.locate(output);
  if (const std::string* in = s.input_named(path)) {
    std::fprintf(stderr, "membench-report: %s: refused: it is the input %s (an output never replaces an input)\n",
                 terminal_text(path).c_str(), terminal_text(*in).c_str());
    return exit_unusable;
  }
  try {
    membench::write_output_file(path, text);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "membench-report: %s\n", terminal_text(e.what()).c_str());
    return exit_unusable;
  }
  return exit_ok;
}

bool session::is_standard_output(const std::string& path) const {
  if (capture) return false;  // a step of views writes into its view, not standard output
  struct stat out {}, named {};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(locate(path).c_str(), &named) == 0 && out.st_dev == named.st_dev &&
         out.st_ino == named.st_ino;
}

int write_files(const std::vector<std::pair<std::string, std::string>>& files, session& s) {
  if (s.capture) {  // a step of views: as write_text takes each
    for (const auto& [output, text] : files) {
      if (const int rc = write_text(text, output, s); rc != exit_ok) return rc;
    }
    return exit_ok;
  }
  // Two outputs of one file (by any name): the second would replace the first.
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t k = 0; k < i; ++k) {
      std::error_code missing;
      const auto a = std::filesystem::absolute(s.locate(files[k].first), missing).lexically_normal();
      const auto b = std::filesystem::absolute(s.locate(files[i].first), missing).lexically_normal();
      if (a == b || std::filesystem::equivalent(a, b, missing)) {
        std::fprintf(stderr, "membench-report: %s and %s are one file: two outputs cannot share it\n",
                     terminal_text(files[k].first).c_str(), terminal_text(files[i].first).c_str());
        return exit_unusable;
      }
    }
  }
  std::vector<std::unique_ptr<membench::output_file>> staged;
  try {
    for (const auto& [output, text] : files) {
      const std::string path = s.locate(output);
      if (const std::string* in = s.input_named(path)) {
        std::fprintf(stderr, "membench-report: %s: refused: it is the input %s (an output never replaces an input)\n",
                     terminal_text(path).c_str(), terminal_text(*in).c_str());
        return exit_unusable;
      }
      staged.push_back(std::make_unique<membench::output_file>(path));
      staged.back()->append(text);
    }
    for (auto& f : staged) f->commit();  // renames: none before every file is whole
  } catch (const std::exception& e) {
    std::fprintf(stderr, "membench-report: %s\n", terminal_text(e.what()).c_str());
    return exit_unusable;
  }
  return exit_ok;
}

std::string rendered(const document& d, const output_options& o, const session& s) {
  const format f = o.format == "md" ? format::markdown : o.format == "csv" ? format::csv
                   : o.format == "html" ? format::html : o.format == "json" ? format::json : format::terminal;
  // NO_COLOR (no-color.org) counts when set and not empty, as membench reads it.
  const char* no_color = std::getenv("NO_COLOR");
  const bool tty = !s.capture && o.output.empty() && isatty(STDOUT_FILENO) != 0 &&
                   (no_color == nullptr || *no_color == '\0');
  const bool colour = o.colour == "always" || (o.colour == "auto" && tty);
  return render(d, f, colour);
}

int emit(const document& d, const output_options& o, session& s) { return write_text(rendered(d, o, s), o.output, s); }

}  // namespace membench::report
