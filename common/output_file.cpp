#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace membench {
namespace {

[[noreturn]] void fail(const std::string& path, std::string_view what) {
  throw std::runtime_error(fmt::format("{}: {} ({})", path, what, std::strerror(errno)));
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

void write_all(int fd, std::string_view content, const std::string& temp) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(temp, "cannot write");
    content.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

void write_output_file(const std::string& path, std::string_view content) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    errno = EINVAL;
    fail(path, "not a regular file, so it cannot be replaced");
  }
  std::string name = folder_of(path) + "/.membench-XXXXXX";
  std::vector<char> temp(name.begin(), name.end());
  temp.push_back('\0');
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) fail(path, "cannot create a file in its folder");
  name = temp.data();
  try {
    write_all(fd, content, path);
    if (::fsync(fd) != 0) fail(path, "cannot flush");
  } catch (...) {
    ::close(fd);
    ::unlink(name.c_str());
    throw;
  }
  // mkstemp makes the file 0600; give it what a newly created file would get.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0) {
    const int saved = errno;
    ::unlink(name.c_str());
    errno = saved;
    fail(path, "cannot close");
  }
  if (::rename(name.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(name.c_str());
    errno = saved;
    fail(path, "cannot rename the finished file into place");
  }
}

}  // namespace membench
