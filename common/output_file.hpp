// Writing a result file so that a failure can never pass for success: the content goes to a
// temporary file beside the target (unnamed where the file system allows, so that a process
// killed mid-write leaves nothing behind), is flushed and closed with every step checked, and
// only then renamed over the target. A full disk or a vanished folder leaves the old file
// whole and throws; no reader ever sees a half-written file. The replaced file keeps its mode
// and owner; a link is followed to the file it names, which is replaced (the link stays); a
// file with other hard links is written in place once the whole content is on disk. Standard
// output (/dev/stdout, /dev/fd/N, /proc/self/fd/N), a terminal, /dev/null or a pipe are
// written as streams; anything else that is not a regular file is refused.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace membench {

/// Replaces `path` with `content`, or throws std::runtime_error naming the path and the
/// reason; `path` is then as it was (a stream has what was written).
void write_output_file(const std::string& path, std::string_view content);

/// The same, written in pieces as they are made (nothing held in memory): append() to the
/// temporary file, commit() to rename it over `path`. Destroyed without a commit, the
/// temporary file is removed and `path` is as it was. Every member throws
/// std::runtime_error as write_output_file does.
class output_file {
 public:
  explicit output_file(const std::string& path);
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  void append(std::string_view piece);
  void commit();

 private:
  struct file_kept {
    mode_t mode;
    uid_t uid;
    gid_t gid;
    bool linked;  ///< other hard links: written in place
  };
  std::string path_, target_, temp_;
  int fd_ = -1;
  bool borrowed_ = false;  ///< one of this process's descriptors: never closed here
  bool stream_ = false;    ///< a terminal, /dev/null or a pipe
  std::optional<file_kept> keep_;
};

}  // namespace membench
