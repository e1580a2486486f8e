// `[i/N] name, elapsed, ETA` on stderr while a run goes, never in the JSON. On a terminal
// one line is rewritten; elsewhere (`--progress=always` into a log) a line every ~5 s. A
// suite of several builds passes its place in MEMBENCH_SUITE_PART ("2/3") so the line can
// say which build runs and how long the suite has left.
#pragma once

#include <cstddef>
#include <string>

#include "harness/options/options.hpp"

namespace membench {

class progress {
 public:
  progress(std::size_t total, std::string build, progress_mode mode);
  ~progress();
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;

  void begin_row(const std::string& name);
  void end_row();

 private:
  std::size_t total_, done_ = 0;
  std::string build_;
  bool enabled_ = false, terminal_ = false;
  int part_ = 0, parts_ = 0;  // this build's place in a suite
  double start_s_ = 0, last_print_s_ = -1e9;
};

/// The line for row `i` (1-based) of `total` after `elapsed_s` (plain host logic, tested).
std::string progress_line(std::size_t i, std::size_t total, const std::string& build, int part, int parts,
                          double elapsed_s, const std::string& name);

}  // namespace membench
