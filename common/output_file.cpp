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

output_file::output_file(const std::string& path) : path_(path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    errno = EINVAL;
    fail(path, "not a regular file, so it cannot be replaced");
  }
  std::string name = folder_of(path) + "/.membench-XXXXXX";
  std::vector<char> temp(name.begin(), name.end());
  temp.push_back('\0');
  fd_ = ::mkstemp(temp.data());
  if (fd_ < 0) fail(path, "cannot create a file in its folder");
  temp_ = temp.data();
}

output_file::~output_file() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void output_file::append(std::string_view piece) { write_all(fd_, piece, path_); }

void output_file::commit() {
  if (::fsync(fd_) != 0) fail(path_, "cannot flush");
  // mkstemp makes the file 0600; give it what a newly created file would get.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail(path_, "cannot close");  // the destructor removes the temporary file
  if (::rename(temp_.c_str(), path_.c_str()) != 0) fail(path_, "cannot rename the finished file into place");
  temp_.clear();
}

void write_output_file(const std::string& path, std::string_view content) {
  output_file out(path);
  out.append(content);
  out.commit();
}

}  // namespace membench
