#include "progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace membench {
namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string clock_text(double s) {
  const auto t = static_cast<long>(s + 0.5);
  return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60) : fmt::format("{}:{:02}", t / 60, t % 60);
}

}  // namespace

std::string progress_line(std::size_t i, std::size_t total, const std::string& build, int part, int parts,
                          double elapsed_s, const std::string& name) {
  const std::size_t done = i > 0 ? i - 1 : 0;
  std::string eta = "?";
  if (done > 0 && total >= done) {
    const double left = elapsed_s / static_cast<double>(done) * static_cast<double>(total - done);
    eta = clock_text(left);
    // Later builds of a suite run the same rows: about as long as this one in all.
    if (parts > part && part > 0)
      eta += fmt::format(", suite ~{}", clock_text(left + (parts - part) * elapsed_s * static_cast<double>(total) /
                                                              static_cast<double>(done)));
  }
  const std::string where = parts > 0 ? fmt::format("{} build {}/{}", build, part, parts) : fmt::format("{} build", build);
  return fmt::format("[{}/{}] {}, {} elapsed, ETA {}: {}", i, total, where, clock_text(elapsed_s), eta, name);
}

progress::progress(std::size_t total, std::string build, progress_mode mode)
    : total_(total), build_(std::move(build)), start_s_(now_s()) {
  terminal_ = isatty(STDERR_FILENO) != 0;
  enabled_ = mode == progress_mode::always || (mode == progress_mode::automatic && terminal_);
  if (const char* p = std::getenv("MEMBENCH_SUITE_PART")) {
    if (std::sscanf(p, "%d/%d", &part_, &parts_) != 2 || part_ < 1 || part_ > parts_) part_ = parts_ = 0;
  }
}

progress::~progress() {
  if (enabled_ && terminal_ && done_ > 0) std::fputc('\n', stderr);
}

void progress::begin_row(const std::string& name) {
  if (!enabled_) return;
  const double now = now_s();
  if (!terminal_ && now - last_print_s_ < 5) return;
  last_print_s_ = now;
  std::string line = progress_line(done_ + 1, total_, build_, part_, parts_, now - start_s_, name);
  if (terminal_) {
    if (line.size() > 150) line.resize(150);
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

void progress::end_row() {
  ++done_;
  // Google Benchmark prints the row's result next: the line makes way for it.
  if (enabled_ && terminal_) std::fputs("\r\033[K", stderr);
}

}  // namespace membench
