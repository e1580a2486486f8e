#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "common/output_file.hpp"

namespace membench {
namespace {

std::string read_whole(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(OutputFile, ReplacesTheTargetWhole) {
  const std::string path = ::testing::TempDir() + "membench_output_file.json";
  write_output_file(path, "old\n");
  write_output_file(path, "{\"new\": 1}\n");
  EXPECT_EQ(read_whole(path), "{\"new\": 1}\n");
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_NE(st.st_mode & S_IRUSR, 0u);
  std::remove(path.c_str());
}

// /dev/full: every write fails with ENOSPC, as on a full disk; a stream checked only at
// its end reported success here.
TEST(OutputFile, AFullDeviceIsAnErrorNeverASuccess) {
  EXPECT_THROW(write_output_file("/dev/full", "x"), std::runtime_error);
}

TEST(OutputFile, AMissingFolderNamesThePath) {
  try {
    write_output_file("/no/such/dir/out.md", "x");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/no/such/dir/out.md"), std::string::npos) << e.what();
  }
}

// A file-size limit makes the write fail part-way, as a disk that fills up does (root too).
TEST(OutputFile, AFailedWriteLeavesTheOldFileAndNoTemporary) {
  const std::string dir = ::testing::TempDir() + "membench_output_dir";
  ::mkdir(dir.c_str(), 0755);
  const std::string path = dir + "/report.md";
  write_output_file(path, "the old report\n");
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = saved;
  small.rlim_cur = 4096;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  EXPECT_THROW(write_output_file(path, std::string(1 << 20, 'x')), std::runtime_error);
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(read_whole(path), "the old report\n");
  int entries = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) entries += e->d_name[0] != '.' || std::string(e->d_name).size() > 2;
    ::closedir(d);
  }
  EXPECT_EQ(entries, 1) << "only the report: the temporary was removed";
}

}  // namespace
}  // namespace membench
