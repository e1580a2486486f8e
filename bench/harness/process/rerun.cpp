#include "rerun.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/output_file.hpp"
#include "interrupt.hpp"

extern char** environ;

namespace membench {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open", path));
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", path, e.what()));
  }
}

const nlohmann::json& benchmarks_of(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object() || !j.contains("benchmarks") || !j["benchmarks"].is_array())
    throw std::runtime_error(fmt::format("{}: no \"benchmarks\" array", path));
  return j["benchmarks"];
}

// A row's registered name: run_name without Google Benchmark's time suffix.
std::string registered_name(const nlohmann::json& row) {
  std::string n = row.value("run_name", row.value("name", ""));
  for (std::string_view suffix : {"/manual_time", "/real_time"}) {
    if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      n.resize(n.size() - suffix.size());
  }
  return n;
}

// `<space>/<experiment>` of a registered name.
std::string family_of(const std::string& name) {
  const auto first = name.find('/');
  return first == std::string::npos ? name : name.substr(0, name.find('/', first + 1));
}

// Where a row stands in one process's order: its name's place in `order`; a name not there
// (an aggregate of repetitions) ranks with its family's first row, any other row last.
class row_ranks {
 public:
  explicit row_ranks(const std::vector<std::string>& order) {
    for (std::size_t i = 0; i < order.size(); ++i) {
      names_.emplace(order[i], i);
      families_.emplace(family_of(order[i]), i);  // keeps the first
    }
  }
  std::size_t operator()(const nlohmann::json& row) const {
    const std::string name = registered_name(row);
    if (const auto it = names_.find(name); it != names_.end()) return it->second;
    if (const auto it = families_.find(family_of(name)); it != families_.end()) return it->second;
    return names_.size();
  }

 private:
  std::map<std::string, std::size_t> names_, families_;
};

}  // namespace

std::string exact_filter(const std::vector<std::string>& names) {
  std::string f = "^(";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) f += '|';
    for (char c : names[i]) {
      // Registered names are [a-z0-9_:/]; escape anything else a regex would read.
      if (std::strchr(".^$|()[]{}*+?\\", c) != nullptr) f += '\\';
      f += c;
    }
  }
  return f + ")(/|$)";
}

std::vector<std::string> rerun_args(const std::vector<std::string>& args, const std::vector<std::string>& names,
                                    const std::string& out_path) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (i > 0 && (starts_with(a, "--benchmark_filter=") || starts_with(a, "--benchmark_out=") ||
                  starts_with(a, "--benchmark_out_format=")))
      continue;
    out.push_back(a);
  }
  out.push_back("--benchmark_filter=" + exact_filter(names));
  if (!out_path.empty()) {
    out.push_back("--benchmark_out=" + out_path);
    out.push_back("--benchmark_out_format=json");
  }
  return out;
}

std::optional<std::string> fresh_process_obstacle(const std::vector<std::string>& args) {
  const std::string shown = flag_value(args, "--benchmark_format");
  if (!shown.empty() && shown != "console")
    return fmt::format("--benchmark_format={} on standard output: a second process would write a second document", shown);
  const std::string out_format = flag_value(args, "--benchmark_out_format");
  if (!output_path(args).empty() && !out_format.empty() && out_format != "json")
    return fmt::format("--benchmark_out_format={}: only JSON output is merged", out_format);
  return std::nullopt;
}

void merge_rerun(const std::string& main_path, const std::string& part_path, const std::vector<std::string>& names,
                 const std::string& culprit) {
  std::ifstream in(main_path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open", main_path));
  std::stringstream text;
  text << in.rdbuf();
  write_output_file(main_path, merged_rerun(text.str(), main_path, part_path, names, culprit));
}

std::string merged_rerun(const std::string& main_text, const std::string& main_path, const std::string& part_path,
                         const std::vector<std::string>& names, const std::string& culprit) {
  nlohmann::json main;
  try {
    main = nlohmann::json::parse(main_text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", main_path, e.what()));
  }
  const nlohmann::json part = read_json(part_path);
  const nlohmann::json& fresh = benchmarks_of(part, part_path);
  const std::set<std::string> replaced(names.begin(), names.end());
  nlohmann::json rows = nlohmann::json::array();
  bool inserted = false;
  for (const auto& row : benchmarks_of(main, main_path)) {
    if (replaced.count(registered_name(row)) == 0) {
      rows.push_back(row);
    } else if (!inserted) {
      for (const auto& r : fresh) rows.push_back(r);
      inserted = true;
    }
  }
  if (!inserted) {
    for (const auto& r : fresh) rows.push_back(r);
  }
  main["benchmarks"] = std::move(rows);
  // Context values are strings, as Google Benchmark writes them. The culprits in order:
  // this process's earlier ones, this one, then those of the fresh process's own reruns.
  auto culprits_of = [](const nlohmann::json& ctx) {
    std::vector<std::string> out;
    if (!ctx.is_object()) return out;
    const int n = std::stoi(ctx.value("membench_fresh_processes", std::string("0")));
    for (int k = 1; k <= n; ++k) out.push_back(ctx.value(fmt::format("membench_fresh_process_{}_after", k), std::string()));
    return out;
  };
  std::vector<std::string> culprits = culprits_of(main["context"]);
  culprits.push_back(culprit);
  for (auto& c : culprits_of(part.value("context", nlohmann::json::object()))) culprits.push_back(std::move(c));
  auto& context = main["context"];
  context["membench_fresh_processes"] = std::to_string(culprits.size());
  for (std::size_t k = 0; k < culprits.size(); ++k)
    context[fmt::format("membench_fresh_process_{}_after", k + 1)] = culprits[k];
  return main.dump(2) + '\n';
}

void merge_host_link_rows(const std::string& main_path, const std::string& part_path,
                          const std::vector<std::string>& order) {
  nlohmann::json main = read_json(main_path);
  const nlohmann::json part = read_json(part_path);
  std::vector<nlohmann::json> rows;
  for (const auto& r : benchmarks_of(main, main_path)) rows.push_back(r);
  for (const auto& r : benchmarks_of(part, part_path)) rows.push_back(r);
  const row_ranks rank(order);
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const nlohmann::json& a, const nlohmann::json& b) { return rank(a) < rank(b); });
  main["benchmarks"] = std::move(rows);
  main["context"]["membench_host_link"] = "alone";
  write_output_file(main_path, main.dump(2) + '\n');
  if (std::remove(part_path.c_str()) != 0)
    throw std::runtime_error(fmt::format("{}: merged into {}, but cannot be removed: {}", part_path, main_path,
                                         std::strerror(errno)));
}

int run_fresh_process(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(stdout);  // the child writes to the same streams after us
  std::fflush(stderr);
  pid_t pid = 0;
  if (const int rc = posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv.data(), environ); rc != 0)
    throw std::runtime_error(fmt::format("cannot start a fresh process: {}", std::strerror(rc)));
  forward_signals_to(pid);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      forward_signals_to(0);
      throw std::runtime_error(fmt::format("waiting for the fresh process: {}", std::strerror(errno)));
    }
  }
  forward_signals_to(0);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace membench
