#include "output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace membench {
namespace {

[[noreturn]] void fail(const std::string& path, std::string_view what) {
  throw std::runtime_error(fmt::format("{}: {} ({})", path, what, std::strerror(errno)));
}

[[noreturn]] void refuse(const std::string& path, std::string_view what) {
  errno = EINVAL;
  fail(path, what);
}

std::string folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

void write_all(int fd, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(path, "cannot write");
    content.remove_prefix(static_cast<std::size_t>(n));
  }
}

// The descriptor a path names when it is one of this process's own (standard output as
// /dev/stdout, /dev/fd/1 or /proc/self/fd/1): written as a stream, never replaced.
std::optional<int> own_descriptor(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"}) {
    if (!starts_with(path, prefix)) continue;
    const std::string digits = path.substr(prefix.size());
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return std::atoi(digits.c_str());
  }
  return std::nullopt;
}

// What `path` names once its links are followed, one link at a time: a rename replaces a
// link itself, so the file behind it is what is replaced. A link of /dev or /proc (/dev/stdout,
// /proc/self/fd/1) names one of this process's descriptors, and any file of /proc is the
// kernel's: `stream` is set. A plain file in a folder of /dev (/dev/shm, a tmpfs) is a file.
struct resolved {
  std::string path;
  bool stream = false;
};

resolved resolve(const std::string& path) {
  resolved r{path};
  for (int hops = 0; hops < 40; ++hops) {
    if (starts_with(r.path, "/proc/")) r.stream = true;
    struct stat st {};
    if (::lstat(r.path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return r;
    if (starts_with(r.path, "/dev/")) r.stream = true;
    std::vector<char> buf(PATH_MAX + 1);
    const ssize_t n = ::readlink(r.path.c_str(), buf.data(), buf.size() - 1);
    if (n < 0) fail(path, "cannot read the link");
    const std::string link(buf.data(), static_cast<std::size_t>(n));
    r.path = link.front() == '/' ? link : folder_of(r.path) + "/" + link;
  }
  errno = ELOOP;
  fail(path, "cannot follow its links");
}

// A name for a temporary file beside `path` that no other writer picks.
std::string temporary_name(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}/.membench-{}-{}-{}", folder_of(path), ::getpid(), counter++, std::rand());
}

// Copies the finished temporary file into `target` in place: the only write that keeps a
// file's other hard links. It runs only once the whole content is on disk.
void copy_in_place(int from, const std::string& target) {
  const int to = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (to < 0) fail(target, "cannot open it to write in place");
  if (::lseek(from, 0, SEEK_SET) < 0) fail(target, "cannot read back the finished file");
  std::vector<char> buf(1 << 16);
  off_t total = 0;
  for (;;) {
    const ssize_t n = ::read(from, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(target, "cannot read back the finished file");
    if (n == 0) break;
    write_all(to, std::string_view(buf.data(), static_cast<std::size_t>(n)), target);
    total += n;
  }
  if (::ftruncate(to, total) != 0 || ::fsync(to) != 0) fail(target, "cannot finish writing in place");
  if (::close(to) != 0) fail(target, "cannot close");
}

}  // namespace

output_file::output_file(const std::string& path) : path_(path) {
  if (const auto fd = own_descriptor(path)) {
    // One of this process's descriptors: it must be open, and open to write.
    const int flags = ::fcntl(*fd, F_GETFL);
    if (flags < 0) fail(path, "not an open descriptor of this process");
    if ((flags & O_ACCMODE) == O_RDONLY) refuse(path, "a descriptor open to read only");
    fd_ = *fd;
    borrowed_ = true;
    return;
  }
  const resolved r = resolve(path);
  target_ = r.path;
  // The final name is made by the rename at the end: one the file system cannot hold would
  // fail only then, after the whole run.
  const std::string name = target_.substr(target_.rfind('/') == std::string::npos ? 0 : target_.rfind('/') + 1);
  const long longest = ::pathconf(folder_of(target_).c_str(), _PC_NAME_MAX);
  if (name.size() > static_cast<std::size_t>(longest > 0 ? longest : NAME_MAX)) {
    errno = ENAMETOOLONG;
    fail(path, "a file name longer than its file system takes");
  }
  struct stat st {};
  const bool exists = ::stat(target_.c_str(), &st) == 0;
  if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    // A terminal, /dev/null, a pipe: written as a stream; nothing there can be replaced.
    // Opened without blocking: a FIFO nobody reads would wait in open() for ever (ENXIO).
    fd_ = ::open(target_.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) fail(path, errno == ENXIO ? "a pipe nobody reads" : "cannot open");
    ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    stream_ = true;
    return;
  }
  if (exists && !S_ISREG(st.st_mode)) refuse(path, "not a regular file, a terminal or a pipe, so it cannot be written");
  // Through /dev or /proc to a file: standard output redirected to a log, reached by a
  // link of one's own; replacing that file would cut the log off from its writer. A file of
  // /proc is the kernel's.
  if (r.stream) refuse(path, "a link through /dev or /proc, or a file of /proc: name a file, or /dev/stdout itself");
  if (exists) keep_ = file_kept{st.st_mode & 07777, st.st_uid, st.st_gid, st.st_nlink > 1};
  // An unnamed file vanishes with the process, however it ends; a file system without them
  // gets a named one, removed on every path but a kill.
  fd_ = ::open(folder_of(target_).c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    std::string name = folder_of(target_) + "/.membench-XXXXXX";
    std::vector<char> temp(name.begin(), name.end());
    temp.push_back('\0');
    fd_ = ::mkstemp(temp.data());
    if (fd_ < 0) fail(path, "cannot create a file in its folder");
    temp_ = temp.data();
  }
}

output_file::~output_file() {
  if (fd_ >= 0 && !borrowed_) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void output_file::append(std::string_view piece) { write_all(fd_, piece, path_); }

void output_file::commit() {
  if (borrowed_ || stream_) {
    if (stream_ && ::close(std::exchange(fd_, -1)) != 0) fail(path_, "cannot close");
    return;
  }
  if (::fsync(fd_) != 0) fail(path_, "cannot flush");
  // The replaced file's mode and owner; a new file gets what a newly created file would.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, keep_ ? keep_->mode : 0666 & ~mask);
  if (keep_ && ::fchown(fd_, keep_->uid, keep_->gid) != 0) ::fchmod(fd_, keep_->mode & 0777);
  if (keep_ && keep_->linked) {
    copy_in_place(fd_, target_);
  } else if (temp_.empty()) {
    const std::string name = temporary_name(target_);
    if (::linkat(AT_FDCWD, fmt::format("/proc/self/fd/{}", fd_).c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) != 0)
      fail(path_, "cannot name the finished file");
    temp_ = name;
  }
  if (::close(std::exchange(fd_, -1)) != 0) fail(path_, "cannot close");  // the destructor removes the temporary
  if (keep_ && keep_->linked) return;
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail(path_, "cannot rename the finished file into place");
  temp_.clear();
}

void write_output_file(const std::string& path, std::string_view content) {
  output_file out(path);
  out.append(content);
  out.commit();
}

}  // namespace membench
