// Writing a result file so that a failure can never pass for success: the content goes to a
// temporary file beside the target, is flushed and closed with every step checked, and only
// then renamed over the target. A full disk, a vanished folder or a device like /dev/full
// leaves the old file whole and throws; no reader ever sees a half-written file.
#pragma once

#include <string>
#include <string_view>

namespace membench {

/// Replaces `path` with `content`, or throws std::runtime_error naming the path and the
/// reason; `path` is then as it was. A target that is not a regular file (a device, a
/// FIFO) is refused: it cannot be replaced by a rename.
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
  std::string path_, temp_;
  int fd_ = -1;
};

}  // namespace membench
