#include "core/exit_codes.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

namespace membench::report {

std::string exit_codes_markdown() {
  std::string out = "<!-- exit-codes -->\n| code | meaning |\n|---|---|\n";
  for (const exit_status& e : exit_table)
    fmt::format_to(std::back_inserter(out), "| {} | {} |\n", static_cast<int>(e.code), e.meaning);
  return out + "<!-- /exit-codes -->\n";
}

std::string exit_codes_line() {
  std::string out;
  for (const exit_status& e : exit_table)
    fmt::format_to(std::back_inserter(out), "{}{} {}", out.empty() ? "" : ", ", static_cast<int>(e.code), e.brief);
  return out;
}

int with_stdout_flushed(const char* program, int rc) {
  errno = 0;
  if (std::fflush(stdout) == 0 && std::ferror(stdout) == 0) return rc;
  std::fprintf(stderr, "%s: cannot write standard output (%s)\n", program, std::strerror(errno));
  return exit_unusable;
}

}  // namespace membench::report
