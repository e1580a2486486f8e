#include <gtest/gtest.h>

#include <dirent.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
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


std::string fresh_dir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + name;
  std::system(("rm -rf '" + dir + "'").c_str());
  ::mkdir(dir.c_str(), 0755);
  return dir;
}

int entries_in(const std::string& dir) {
  int n = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* e = ::readdir(d)) n += std::string(e->d_name) != "." && std::string(e->d_name) != "..";
    ::closedir(d);
  }
  return n;
}

TEST(OutputFile, KeepsTheModeOfTheFileItReplaces) {
  const std::string path = fresh_dir("membench_output_mode") + "/r.json";
  write_output_file(path, "old\n");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  write_output_file(path, "new\n");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(read_whole(path), "new\n");
}

TEST(OutputFile, KeepsHardLinks) {
  const std::string dir = fresh_dir("membench_output_links");
  write_output_file(dir + "/a.md", "old\n");
  ASSERT_EQ(::link((dir + "/a.md").c_str(), (dir + "/b.md").c_str()), 0);
  write_output_file(dir + "/a.md", "new, longer than the old\n");
  EXPECT_EQ(read_whole(dir + "/b.md"), "new, longer than the old\n") << "the other link sees the new content";
  write_output_file(dir + "/a.md", "short\n");
  EXPECT_EQ(read_whole(dir + "/b.md"), "short\n") << "and no tail of the longer one";
  struct stat st {};
  ASSERT_EQ(::stat((dir + "/a.md").c_str(), &st), 0);
  EXPECT_EQ(st.st_nlink, 2u);
  EXPECT_EQ(entries_in(dir), 2);
}

TEST(OutputFile, ReplacesTheFileALinkNamesAndKeepsTheLink) {
  const std::string dir = fresh_dir("membench_output_symlink");
  write_output_file(dir + "/real.md", "old\n");
  ASSERT_EQ(::symlink("real.md", (dir + "/link.md").c_str()), 0);
  write_output_file(dir + "/link.md", "new\n");
  struct stat st {};
  ASSERT_EQ(::lstat((dir + "/link.md").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link is still a link";
  EXPECT_EQ(read_whole(dir + "/real.md"), "new\n");
}

// Standard output redirected to a file: written through the descriptor, never replaced (as
// root, a rename over /dev/stdout replaced the machine's /dev/stdout).
TEST(OutputFile, StandardOutputIsWrittenNotReplaced) {
  const std::string path = fresh_dir("membench_output_stdout") + "/log";
  std::fflush(stdout);
  const int saved = ::dup(1);
  const int log = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(log, 0);
  ::dup2(log, 1);
  ::write(1, "before\n", 7);
  write_output_file("/dev/stdout", "report\n");
  ::write(1, "after\n", 6);
  ::dup2(saved, 1);
  ::close(saved);
  ::close(log);
  EXPECT_EQ(read_whole(path), "before\nreport\nafter\n");
  struct stat st {};
  ASSERT_EQ(::lstat("/dev/stdout", &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "/dev/stdout is still the link it was";
}

TEST(OutputFile, ALinkOfOnesOwnIntoProcIsRefused) {
  const std::string dir = fresh_dir("membench_output_proclink");
  ASSERT_EQ(::symlink("/dev/stdout", (dir + "/out.md").c_str()), 0);
  EXPECT_THROW(write_output_file(dir + "/out.md", "x"), std::runtime_error);
}

TEST(OutputFile, APipeNobodyReadsIsAnErrorNotAWait) {
  const std::string fifo = fresh_dir("membench_output_fifo") + "/report.md";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(write_output_file(fifo, "x"), std::runtime_error);
}

TEST(OutputFile, DevNullTakesAReport) { EXPECT_NO_THROW(write_output_file("/dev/null", "x")); }

// A process killed while it writes leaves no temporary file, where the file system has
// unnamed files (O_TMPFILE).
TEST(OutputFile, AKilledWriterLeavesNothingBehind) {
  const std::string dir = fresh_dir("membench_output_killed");
  const int probe = ::open(dir.c_str(), O_TMPFILE | O_RDWR, 0600);
  if (probe < 0) GTEST_SKIP() << "no unnamed files on this file system";
  ::close(probe);
  write_output_file(dir + "/r.json", "whole\n");
  const pid_t pid = ::fork();
  if (pid == 0) {
    output_file out(dir + "/r.json");
    out.append("half");
    ::kill(::getpid(), SIGKILL);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(read_whole(dir + "/r.json"), "whole\n");
  EXPECT_EQ(entries_in(dir), 1);
}

}  // namespace
}  // namespace membench
