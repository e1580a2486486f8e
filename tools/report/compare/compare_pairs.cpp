// compare's pairing: each benchmark of the BASE files with its results on both sides, and
// what keeps it from a verdict (skipped on both sides, missing, an error row, no time).
#include <algorithm>

#include <fmt/format.h>

#include "compare/compare_stages.hpp"

namespace membench::report {
namespace {

// Whether any of the first `files` files has the benchmark.
bool in_first(const std::vector<const result_file*>& side, const std::string& name, std::size_t files) {
  return std::any_of(side.begin(), side.begin() + static_cast<std::ptrdiff_t>(files),
                     [&](const result_file* f) { return f->find(name) != nullptr; });
}

bool all_skipped(const std::vector<const result*>& rs) {
  return std::any_of(rs.begin(), rs.end(), [](const result* r) { return r != nullptr; }) &&
         std::all_of(rs.begin(), rs.end(), [](const result* r) { return r == nullptr || r->skipped; });
}

// A side is its files together: a benchmark is missing when none of them has it (the CI
// runs kernel rows and host-work rows in separate processes, each file a part). "" when
// the side has no problem.
std::string side_problem(const std::vector<const result*>& rs, const std::vector<const result_file*>& files) {
  if (std::all_of(rs.begin(), rs.end(), [](const result* r) { return r == nullptr; }))
    return fmt::format("missing in {}", files_text(files));
  for (std::size_t k = 0; k < rs.size(); ++k) {
    if (rs[k] == nullptr) continue;
    if (rs[k]->error) return fmt::format("error row in {}: {}", files[k]->path, *rs[k]->error);
    if (!(rs[k]->time_us > 0)) return fmt::format("zero time in {}", files[k]->path);
  }
  return "";
}

}  // namespace

void classify(benchmark_pair& p, const compare_sides& files, bool allow_missing) {
  if (all_skipped(p.base) && all_skipped(p.next)) {
    // Skipped for the same reason on both sides (a size this GPU cannot hold): nothing to compare.
    p.state = pair_state::skipped_both;
    return;
  }
  // NEW missing it altogether is the news; else the first problem, BASE's before NEW's.
  const bool next_missing = std::all_of(p.next.begin(), p.next.end(), [](const result* r) { return r == nullptr; });
  p.why = side_problem(p.base, files.base);
  if (next_missing || p.why.empty()) p.why = side_problem(p.next, files.next);
  if (p.why.empty()) return;
  // --allow-missing: noted, and decided from the files that have it if each side has one.
  const bool each_side = std::any_of(p.base.begin(), p.base.end(), usable) &&
                         std::any_of(p.next.begin(), p.next.end(), usable);
  p.state = !allow_missing ? pair_state::unusable : each_side ? pair_state::decide : pair_state::left_out;
}

std::string pair_name(const benchmark_pair& p) {
  if (p.new_name == nullptr || *p.new_name == *p.name) return *p.name;
  return fmt::format("{} vs {}", *p.name, *p.new_name);
}

compare_sides files_of(const benchmark_pair& p, const compare_sides& files) {
  if (p.base_files.empty()) return files;
  return {p.base_files, p.next_files};
}

std::string files_text(const std::vector<const result_file*>& files) {
  std::string s;
  for (const result_file* f : files) s += fmt::format("{}{}", s.empty() ? "" : ", ", f->path);
  return s;
}

bool usable(const result* r) { return r != nullptr && !r->error && r->time_us > 0; }

std::vector<benchmark_pair> pair_benchmarks(const compare_sides& files, const compare_options& opt) {
  const name_filter filter(opt.filter);
  std::vector<benchmark_pair> pairs;
  for (std::size_t k = 0; k < files.base.size(); ++k) {
    for (const auto& r : files.base[k]->results) {
      if (!filter(r.name) || in_first(files.base, r.name, k)) continue;
      pairs.emplace_back();
      pairs.back().name = &r.name;
    }
  }
  bool shared = false;
  for (benchmark_pair& p : pairs) {
    for (const result_file* f : files.base) p.base.push_back(f->find(*p.name));
    for (const result_file* f : files.next) p.next.push_back(f->find(*p.name));
    shared = shared || std::any_of(p.next.begin(), p.next.end(), [](const result* r) { return r != nullptr; });
  }
  if (!shared)
    throw input_error(fmt::format("{} and {} share no benchmark matching --filter '{}'", files_text(files.base),
                                  files_text(files.next), opt.filter));
  for (benchmark_pair& p : pairs) classify(p, files, opt.allow_missing);
  return pairs;
}

std::vector<std::string> only_in_new(const compare_sides& files, const name_filter& filter) {
  std::vector<std::string> out;
  for (const result_file* f : files.next) {
    for (const auto& r : f->results) {
      if (filter(r.name) && !in_first(files.base, r.name, files.base.size()))
        out.push_back(fmt::format("only in {}: {}", f->path, r.name));
    }
  }
  return out;
}

}  // namespace membench::report
