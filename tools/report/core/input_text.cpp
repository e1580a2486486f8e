// Documents the report tool reads besides result files (input_text.hpp).
#include "core/input_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

namespace membench::report {
namespace {

// Opens `path` without blocking (a FIFO nobody writes to would wait in open() for ever; it
// reads as empty), then blocks on reads as any file does. throws input_error
int open_input(const std::string& path, const std::string& shown) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw input_error(fmt::format("{}: cannot open ({})", shown, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw input_error(fmt::format("{}: {}", shown, S_ISDIR(st.st_mode) ? "a folder, not a file" : "cannot read"));
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

}  // namespace

std::string read_input_text(const std::string& path, const std::string& shown, std::size_t limit) {
  const bool stdin_given = path == "-";
  const int fd = stdin_given ? STDIN_FILENO : open_input(path, shown);
  std::string text;
  std::array<char, 1 << 16> chunk{};
  ssize_t got = 0;
  while (text.size() <= limit) {
    got = ::read(fd, chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(chunk.data(), static_cast<std::size_t>(got));
  }
  if (!stdin_given) ::close(fd);
  if (got < 0) throw input_error(fmt::format("{}: cannot read ({})", shown, std::strerror(errno)));
  if (text.size() > limit)
    throw input_error(fmt::format("{}: longer than the {} MiB read from one document", shown, limit >> 20));
  return text;
}

}  // namespace membench::report
