#include "devices.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "harness/options/cli.hpp"
#include "harness/process/cpu_affinity.hpp"
#include "harness/process/interrupt.hpp"
#include "harness/process/rerun.hpp"

extern char** environ;

namespace membench {

std::variant<std::vector<int>, std::string> resolve_devices(const device_request& request, int count) {
  if (request.all) {
    std::vector<int> all(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) all[static_cast<std::size_t>(i)] = i;
    return all;
  }
  for (int index : request.indices) {
    if (index >= count)
      return fmt::format("invalid --devices: no device {}; {} CUDA device(s) present (0..{})", index, count, count - 1);
  }
  return request.indices;
}

namespace {

// `out` with `tag` before its extension (after its name when it has none).
std::string tagged_path(const std::string& out, const std::string& tag) {
  const auto slash = out.rfind('/');
  const auto dot = out.rfind('.');
  const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  return has_extension ? out.substr(0, dot) + tag + out.substr(dot) : out + tag;
}

}  // namespace

std::string device_output_path(const std::string& out, int index, const std::string& uuid) {
  return tagged_path(out, fmt::format(".gpu{}-{}", index, uuid));
}

std::string host_link_output_path(const std::string& out, int index, const std::string& uuid) {
  return tagged_path(out, fmt::format(".gpu{}-{}.host", index, uuid));
}

namespace {

// `args` without the options a launched process gets its own values of.
std::vector<std::string> common_args(const std::vector<std::string>& args) {
  auto starts = [](const std::string& a, std::string_view p) { return a.compare(0, p.size(), p) == 0; };
  std::vector<std::string> r;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (i > 0 && (starts(a, "--devices=") || starts(a, "--device=") || starts(a, "--benchmark_out=") ||
                  starts(a, "--progress=") || starts(a, "--peers=") || a == "--peers-only" ||
                  starts(a, "--host-link=")))
      continue;
    r.push_back(a);
  }
  return r;
}

}  // namespace

std::vector<std::string> device_args(const std::vector<std::string>& args, int index, const std::string& out,
                                     std::string_view progress, std::string_view host_link) {
  std::vector<std::string> r = common_args(args);
  r.push_back(fmt::format("--device={}", index));
  r.push_back("--peers=none");
  r.push_back(fmt::format("--host-link={}", host_link));
  if (!out.empty()) r.push_back("--benchmark_out=" + out);
  r.push_back(fmt::format("--progress={}", progress));
  return r;
}

std::string peers_output_path(const std::string& out) { return tagged_path(out, ".peers"); }

std::vector<std::string> peer_process_args(const std::vector<std::string>& args, int index, const std::string& pairs,
                                           const std::string& out, std::string_view progress) {
  std::vector<std::string> r = common_args(args);
  r.push_back(fmt::format("--device={}", index));
  r.push_back("--peers=" + pairs);
  r.push_back("--peers-only");
  if (!out.empty()) r.push_back("--benchmark_out=" + out);
  r.push_back(fmt::format("--progress={}", progress));
  return r;
}

namespace {

// The variable's whole number, or nothing where it is set to anything else ("abc", "2x", "0").
std::optional<int> concurrent_devices_value(const char* v) {
  const std::string_view text(v);
  int n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size() || n < 1 || n > (1 << 16)) return std::nullopt;
  return n;
}

}  // namespace

std::optional<std::string> check_concurrent_devices() {
  const char* v = std::getenv(concurrent_devices_env);
  if (v == nullptr || concurrent_devices_value(v)) return std::nullopt;
  return fmt::format("{}={}: expected a whole number of GPUs from 1 (membench sets it for the processes it starts)",
                     concurrent_devices_env, v);
}

int concurrent_devices() noexcept {
  static const int n = [] {
    const char* v = std::getenv(concurrent_devices_env);
    return v != nullptr ? concurrent_devices_value(v).value_or(1) : 1;
  }();
  return n;
}

int combined_exit_code(const std::vector<int>& codes) {
  int worst = 0;
  for (int c : codes) {
    if (c > 128) return c;  // stopped by a signal: that is what the run was
    worst = std::max(worst, c);
  }
  return worst;
}

namespace {

struct device_process {
  std::string tag;    ///< what its lines are marked with: gpu<N>, or peers
  pid_t pid = -1;
  int fd = -1;        ///< the read end of its stdout and stderr
  std::string line;   ///< what it printed since its last newline
  int status = -1;
};

// environ, with `cpus` (when not empty) as the process's device_cpus_env.
std::vector<std::string> child_environment(const std::string& cpus) {
  std::vector<std::string> env;
  const std::string key = std::string(device_cpus_env) + "=";
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, key.c_str(), key.size()) != 0) env.emplace_back(*e);
  if (!cpus.empty()) env.push_back(key + cpus);
  return env;
}

std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (const auto& s : strings) p.push_back(const_cast<char*>(s.c_str()));
  p.push_back(nullptr);
  return p;
}

pid_t spawn(const std::vector<std::string>& args, const std::string& cpus, int out_fd, pid_t group) {
  std::vector<char*> argv = pointers(args);
  const std::vector<std::string> env = child_environment(cpus);
  std::vector<char*> envp = pointers(env);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_fd, STDERR_FILENO);
  posix_spawnattr_init(&attr);
  // One process group for all of them: a signal reaches each once, through membench.
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, group);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw std::runtime_error(fmt::format("cannot start a process for a device: {}", std::strerror(rc)));
  return pid;
}

void start(device_process& p, const std::vector<std::string>& args, const std::string& cpus, pid_t group) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  p.pid = spawn(args, cpus, fds[1], group);
  close(fds[1]);
  p.fd = fds[0];
}

// Prints every whole line `p` has written, marked with its GPU; at the end, the rest.
void drain(device_process& p, bool at_end) {
  std::size_t start = 0;
  for (std::size_t nl; (nl = p.line.find('\n', start)) != std::string::npos; start = nl + 1)
    std::fprintf(stderr, "[%s] %.*s\n", p.tag.c_str(), static_cast<int>(nl - start), p.line.data() + start);
  p.line.erase(0, start);
  if (at_end && !p.line.empty()) std::fprintf(stderr, "[%s] %s\n", p.tag.c_str(), p.line.c_str());
  std::fflush(stderr);
}

// Forwards output until every process has closed its end.
void forward_output(std::vector<device_process>& ps) {
  std::size_t open = ps.size();
  while (open > 0) {
    std::vector<pollfd> fds;
    for (const auto& p : ps) fds.push_back({p.fd, POLLIN, 0});
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(fmt::format("poll: {}", std::strerror(errno)));
    }
    for (std::size_t i = 0; i < ps.size(); ++i) {
      if (ps[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char buf[4096];
      const ssize_t n = read(ps[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        ps[i].line.append(buf, static_cast<std::size_t>(n));
        drain(ps[i], false);
        continue;
      }
      drain(ps[i], true);
      close(ps[i].fd);
      ps[i].fd = -1;
      --open;
    }
  }
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

namespace {

// Which file each process writes: its GPU's, or the part merged into it afterwards.
enum class output_file_kind { device, host_link_part };

int run_processes(const std::vector<std::string>& args, const std::vector<int>& indices,
                  const std::vector<std::string>& uuids, const std::vector<std::string>& cpus,
                  std::string_view progress, std::string_view host_link, output_file_kind kind) {
  const std::string out = output_path(args);
  setenv(concurrent_devices_env, std::to_string(indices.size()).c_str(), 1);
  std::fflush(stdout);
  std::fflush(stderr);
  std::vector<device_process> ps(indices.size());
  install_interrupt_handlers();
  for (std::size_t i = 0; i < indices.size(); ++i) {
    ps[i].tag = fmt::format("gpu{}", indices[i]);
    const std::string path = out.empty() ? std::string()
                             : kind == output_file_kind::host_link_part
                                 ? host_link_output_path(out, indices[i], uuids[i])
                                 : device_output_path(out, indices[i], uuids[i]);
    start(ps[i], device_args(args, indices[i], path, progress, host_link), cpus[i], i == 0 ? 0 : ps[0].pid);
    if (i == 0) forward_signals_to(-ps[0].pid);
    std::fprintf(stderr, "membench: device %d (%s, CPUs %s) -> %s\n", indices[i], uuids[i].c_str(),
                 cpus[i].empty() ? "any" : cpus[i].c_str(), path.empty() ? "console" : path.c_str());
  }
  forward_output(ps);
  std::vector<int> codes;
  for (auto& p : ps) codes.push_back(wait_for(p.pid));
  forward_signals_to(0);
  for (std::size_t i = 0; i < ps.size(); ++i)
    if (codes[i] != 0) std::fprintf(stderr, "membench: device %d exited %d\n", indices[i], codes[i]);
  return combined_exit_code(codes);
}

}  // namespace

int run_on_devices(const std::vector<std::string>& args, const std::vector<int>& indices,
                   const std::vector<std::string>& uuids, const std::vector<std::string>& cpus,
                   std::string_view progress, std::string_view host_link) {
  return run_processes(args, indices, uuids, cpus, progress, host_link, output_file_kind::device);
}

namespace {

// Moves a GPU's host-link JSON into its file; what went wrong, or "".
std::string fold_host_link_file(const std::string& out, int index, const std::string& uuid,
                                const std::vector<std::string>& order) {
  const std::string part = host_link_output_path(out, index, uuid);
  const std::string main = device_output_path(out, index, uuid);
  if (access(part.c_str(), F_OK) != 0) return fmt::format("{}: not written", part);
  try {
    if (access(main.c_str(), F_OK) == 0) {
      merge_host_link_rows(main, part, order);
    } else if (std::rename(part.c_str(), main.c_str()) != 0) {
      return fmt::format("{}: cannot be renamed to {}: {}", part, main, std::strerror(errno));
    }
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

int run_host_link_alone(const std::vector<std::string>& args, const std::vector<int>& indices,
                        const std::vector<std::string>& uuids, const std::vector<std::string>& cpus,
                        std::string_view progress, const std::vector<std::string>& order) {
  const std::string out = output_path(args);
  std::vector<int> codes;
  for (std::size_t i = 0; i < indices.size() && interrupted_by() == 0; ++i) {
    std::fprintf(stderr, "membench: the host-bound rows of device %d alone\n", indices[i]);
    int rc = run_processes(args, {indices[i]}, {uuids[i]}, {cpus[i]}, progress, "only", output_file_kind::host_link_part);
    if (rc <= 128 && !out.empty()) {
      if (const std::string problem = fold_host_link_file(out, indices[i], uuids[i], order); !problem.empty()) {
        std::fprintf(stderr, "membench: the host-bound rows of device %d were not merged: %s\n", indices[i], problem.c_str());
        rc = combined_exit_code({rc, exit_usage});  // the results were not written, as for any output
      }
    }
    codes.push_back(rc);
    if (rc > 128) break;
  }
  return combined_exit_code(codes);
}

int run_peer_process(const std::vector<std::string>& args) {
  setenv(concurrent_devices_env, "1", 1);  // alone: no other membench process runs beside it
  std::fflush(stdout);
  std::fflush(stderr);
  std::vector<device_process> ps(1);
  ps[0].tag = "peers";
  install_interrupt_handlers();
  start(ps[0], args, "", 0);  // every CPU: it runs alone
  forward_signals_to(-ps[0].pid);
  const std::string out = output_path(args);
  std::fprintf(stderr, "membench: the peer rows (%s) -> %s\n", flag_value(args, "--peers").c_str(),
               out.empty() ? "console" : out.c_str());
  forward_output(ps);
  const int code = wait_for(ps[0].pid);
  forward_signals_to(0);
  if (code != 0) std::fprintf(stderr, "membench: the peer process exited %d\n", code);
  return code;
}

}  // namespace membench
