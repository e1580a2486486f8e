// The rows of one benchmark name folded into one result: repetitions to their median, an
// aggregates-only file to its median (or mean) and cv.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "common/stats.hpp"
#include "read/reader_rows.hpp"

namespace membench::report {
namespace {

constexpr std::uint32_t end_of_chain = 0xffffffff;

// Each name's rows as a chain in file order: `first` of each row is its name's first row,
// `next` the name's next row.
struct chains {
  std::vector<std::uint32_t> first, next;
  std::size_t names = 0;
};

// The first row of each row's name (sorted by the names' hashes: most names have one row).
std::vector<std::uint32_t> first_rows(const std::vector<raw_row*>& rows) {
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_hash(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) by_hash[i] = {rows[i]->hash, static_cast<std::uint32_t>(i)};
  std::sort(by_hash.begin(), by_hash.end());
  std::vector<std::uint32_t> first(rows.size());
  for (std::size_t i = 0; i < by_hash.size(); ++i) {
    const std::uint32_t r = by_hash[i].second;
    first[r] = r;
    for (std::size_t j = i; j-- > 0 && by_hash[j].first == by_hash[i].first;) {
      if (rows[by_hash[j].second]->named.name == rows[r]->named.name) {
        first[r] = first[by_hash[j].second];  // sorted by position within a hash: the earlier row
        break;
      }
    }
  }
  return first;
}

// Chains the rows of each name; rejects a row that repeats another of its name (the same
// repetition, or the same aggregate).
chains chain_rows(const std::vector<raw_row*>& rows, const std::string& path) {
  chains c{first_rows(rows), std::vector<std::uint32_t>(rows.size(), end_of_chain), 0};
  std::vector<std::uint32_t> last(rows.size());
  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    const std::uint32_t head = c.first[i];
    if (head == i) {
      last[i] = i;
      ++c.names;
      continue;
    }
    const raw_row& r = *rows[i];
    for (std::uint32_t o = head; o != end_of_chain; o = c.next[o]) {
      if (rows[o]->aggregate == r.aggregate && (!r.aggregate.empty() || rows[o]->repetition == r.repetition))
        throw input_error(fmt::format("{}: duplicate benchmark '{}'{}", path, r.named.name,
                                      r.aggregate.empty() ? "" : fmt::format(" ({})", r.aggregate)));
    }
    c.next[last[head]] = i;
    last[head] = i;
  }
  return c;
}

// Repetitions: the median time and the median of each counter; every run kept.
void fold_repetitions(result& res, const std::vector<raw_row*>& iterations) {
  std::vector<double> times;
  std::map<std::string_view, std::vector<double>> per_counter;
  for (const raw_row* r : iterations) {
    times.push_back(r->named.time_us);
    for (const auto& [k, v] : r->named.counters) per_counter[k].push_back(v);
  }
  for (std::size_t k = 1; k < iterations.size(); ++k) {
    for (run& x : iterations[k]->named.runs) res.runs.push_back(std::move(x));
  }
  res.time_us = median_of(std::move(times));
  std::vector<counter_set::value_type> medians;
  for (auto& [k, v] : per_counter) medians.emplace_back(k, median_of(std::move(v)));
  res.counters = counter_set(std::move(medians));
}

// One name's rows (in file order) into its result.
result fold_group(const std::vector<raw_row*>& group, const std::string& path) {
  std::vector<raw_row*> iterations;
  raw_row* failed = nullptr;
  raw_row* agg_median = nullptr;
  raw_row* agg_mean = nullptr;
  const raw_row* agg_cv = nullptr;
  for (raw_row* r : group) {
    if (r->failed) {
      failed = r;
    } else if (r->aggregate.empty()) {
      iterations.push_back(r);
    } else if (r->aggregate == "median") {
      agg_median = r;
    } else if (r->aggregate == "mean") {
      agg_mean = r;
    } else if (r->aggregate == "cv") {
      agg_cv = r;
    }
  }
  raw_row* aggregate = agg_median != nullptr ? agg_median : agg_mean;  // aggregates-only file
  raw_row* first = failed != nullptr ? failed : !iterations.empty() ? iterations.front() : aggregate;
  if (first == nullptr)
    throw input_error(
        fmt::format("{}: benchmark '{}' has neither iteration rows nor a mean/median", path, group.front()->named.name));
  result res = std::move(first->named);
  if (failed == nullptr && iterations.size() > 1) {
    fold_repetitions(res, iterations);
  } else if (failed == nullptr && iterations.empty()) {
    res.rep_count = aggregate->repetitions;
    if (agg_cv != nullptr) res.rep_cv = agg_cv->named.time_us;  // Google Benchmark writes cv as a fraction
  }
  return res;
}

}  // namespace

std::vector<result> fold_rows(std::vector<std::vector<raw_row>>& parts, const std::string& path,
                              std::size_t& complexity) {
  std::vector<raw_row*> rows;
  complexity = 0;
  for (auto& part : parts) {
    for (raw_row& r : part) {
      if (r.complexity) ++complexity;
      else rows.push_back(&r);
    }
  }
  const chains c = chain_rows(rows, path);
  std::vector<result> results;
  results.reserve(c.names);
  std::vector<raw_row*> group;
  std::size_t part = 0, part_end = parts.empty() ? 0 : parts.front().size();
  for (std::uint32_t i = 0; i < rows.size(); ++i) {
    // A name's rows follow its first: a part behind every name begun is spent, and its
    // memory goes back before the results grow further.
    for (; i >= part_end && part + 1 < parts.size(); part_end += parts[++part].size()) std::vector<raw_row>().swap(parts[part]);
    if (c.first[i] != i) continue;
    if (c.next[i] == end_of_chain && rows[i]->aggregate.empty()) {  // one run, or an error: as read
      results.push_back(std::move(rows[i]->named));
      continue;
    }
    group.clear();
    for (std::uint32_t o = i; o != end_of_chain; o = c.next[o]) group.push_back(rows[o]);
    results.push_back(fold_group(group, path));
  }
  return results;
}

}  // namespace membench::report
