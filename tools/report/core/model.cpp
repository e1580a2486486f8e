#include "core/model.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <deque>
#include <functional>
#include <mutex>
#include <unordered_map>

#include <fmt/format.h>

#include "common/naming.hpp"
#include "common/schema.hpp"
#include "common/version.hpp"

namespace membench::report {

std::string_view intern(std::string_view name) {
  // Each thread keeps its own lookup cache in front of the shared store.
  thread_local std::unordered_map<std::string_view, std::string_view> cache;
  if (const auto it = cache.find(name); it != cache.end()) return it->second;
  static std::mutex lock;
  static std::deque<std::string> store;
  static std::unordered_map<std::string_view, std::string_view> index;
  std::string_view kept;
  {
    const std::lock_guard<std::mutex> guard(lock);
    const auto it = index.find(name);
    kept = it != index.end() ? it->second : std::string_view(store.emplace_back(name));
    index.emplace(kept, kept);
  }
  cache.emplace(kept, kept);
  return kept;
}

namespace {

// One copy of each list of counter names for the process, its names interned. Each thread
// keeps the list it used last (rows of one family repeat it) and a lookup cache in front
// of the shared store.
const std::vector<std::string_view>* intern_names(const std::vector<counter_set::value_type>& v) {
  using names = std::vector<std::string_view>;
  thread_local const names* last = nullptr;
  const auto same = [&v](const names& n) {
    return std::equal(n.begin(), n.end(), v.begin(), v.end(),
                      [](std::string_view a, const counter_set::value_type& b) { return a == b.first; });
  };
  if (last != nullptr && same(*last)) return last;
  std::string key;
  for (const auto& c : v) {
    key += c.first;
    key += '\0';
  }
  thread_local std::unordered_map<std::string, const names*> cache;
  if (const auto it = cache.find(key); it != cache.end()) return last = it->second;
  static std::mutex lock;
  static std::deque<names> store;
  static std::unordered_map<std::string, const names*> index;
  {
    const std::lock_guard<std::mutex> guard(lock);
    const names*& kept = index[key];
    if (kept == nullptr) {
      names& n = store.emplace_back();
      for (const auto& c : v) n.push_back(intern(c.first));
      kept = &n;
    }
    last = kept;
  }
  cache.emplace(std::move(key), last);
  return last;
}

}  // namespace

counter_set::counter_set(std::vector<value_type> v) {
  auto by_name = [](const value_type& a, const value_type& b) { return a.first < b.first; };
  // Google Benchmark writes counters in name order: usually nothing to sort.
  if (!std::is_sorted(v.begin(), v.end(), by_name)) std::stable_sort(v.begin(), v.end(), by_name);
  v.erase(std::unique(v.begin(), v.end(), [](const value_type& a, const value_type& b) { return a.first == b.first; }),
          v.end());
  if (v.empty()) return;
  names_ = intern_names(v);
  values_.reserve(v.size());
  for (const auto& c : v) values_.push_back(c.second);
}

const double* counter_set::find(std::string_view name) const noexcept {
  if (names_ == nullptr) return nullptr;
  const auto it = std::lower_bound(names_->begin(), names_->end(), name);
  return it != names_->end() && *it == name ? &values_[static_cast<std::size_t>(it - names_->begin())] : nullptr;
}

double counter_set::at(std::string_view name) const {
  const double* v = find(name);
  if (v == nullptr) throw std::out_of_range(std::string(name));
  return *v;
}

void result::set_name(std::string n) {
  name = std::move(n);
  params_.clear();
  const bench_name parsed = parse_any_name(name);
  // The parts appear in the name in order: find each from where the last one ended.
  std::size_t cursor = 0;
  auto locate = [&](std::string_view text) {
    const std::size_t at = std::string_view(name).find(text, cursor);
    if (at == std::string_view::npos) return span{};
    cursor = at + text.size();
    return span{static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(text.size())};
  };
  space_ = locate(parsed.space);
  experiment_ = locate(parsed.experiment);
  constexpr std::size_t limit = 0xfffe;  // parameters of longer names stay unread
  if (name.size() > limit) return;
  auto narrow = [](std::size_t offset, std::size_t length) {
    return short_span{static_cast<std::uint16_t>(offset), static_cast<std::uint16_t>(length)};
  };
  params_.reserve(parsed.params.size());
  std::uint16_t positional = 0;
  for (const auto& p : parsed.params) {
    const span keyed = locate(p.key + ":" + p.value);
    if (keyed.length > 0) {
      params_.push_back({narrow(keyed.offset, p.key.size()), narrow(keyed.offset + p.key.size() + 1, p.value.size())});
    } else {  // a bare value: positional `arg<N>`
      const span value = locate(p.value);
      params_.push_back({short_span{0xffff, positional++}, narrow(value.offset, value.length)});
    }
  }
}

std::string_view result::param_key(std::size_t i) const noexcept {
  const short_span k = params_[i].key;
  if (k.offset != 0xffff) return part(k);
  static const std::array<std::string, 16> numbered = [] {
    std::array<std::string, 16> a;
    for (std::size_t j = 0; j < a.size(); ++j) a[j] = fmt::format("arg{}", j);
    return a;
  }();
  return k.length < numbered.size() ? std::string_view(numbered[k.length]) : intern(fmt::format("arg{}", k.length));
}

std::string_view result::param(std::string_view key) const noexcept {
  for (std::size_t i = 0; i < params_.size(); ++i) {
    if (param_key(i) == key) return param_value(i);
  }
  return {};
}

std::string result::family() const {
  return space().empty() ? std::string(experiment()) : fmt::format("{}/{}", space(), experiment());
}

std::string result::param_text() const {
  std::string s;
  for (std::size_t i = 0; i < param_count(); ++i) {
    if (!s.empty()) s += ' ';
    s += param_key(i);
    s += ':';
    s += param_value(i);
  }
  return s.empty() ? name : s;
}

std::optional<double> result::value(std::string_view what) const {
  if (error) return std::nullopt;
  if (what == "time") return time_us;
  const double* v = counters.find(what);
  if (v == nullptr) return std::nullopt;
  return *v;
}

std::string result_file::build() const {
  const auto it = context.find(std::string(schema::context_key("membench_cache_mode").key));
  return it == context.end() ? "unknown" : it->second;
}

std::string result_file::gpu() const {
  const auto it = context.find(std::string(schema::context_key("gpu_name").key));
  return it == context.end() ? "unknown" : it->second;
}

namespace {

double context_number(const result_file& f, std::string_view key, double otherwise) {
  const auto it = f.context.find(std::string(key));
  if (it == f.context.end()) return otherwise;
  double v = 0;
  const auto [p, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  return ec == std::errc() ? v : otherwise;
}

std::uint64_t name_hash(std::string_view name) { return std::hash<std::string_view>{}(name); }

}  // namespace

double result_file::peak_gbps() const { return context_number(*this, schema::context_key("gpu_peak_dram_gbps").key, 0); }

double result_file::ci_level() const {
  const double pct = context_number(*this, schema::context_key("membench_ci_level_pct").key, 95);
  return pct > 0 && pct < 100 ? pct / 100 : 0.95;
}

double result_file::reference_clock_mhz() const {
  return context_number(*this, schema::context_key("membench_reference_sm_clock_mhz").key, NAN);
}

double result_file::timer_resolution_us() const {
  const double r = context_number(*this, schema::context_key("membench_timer_resolution_us").key, NAN);
  return r > 0 && r <= 1e6 ? r : NAN;  // a step of 0 or below, or of seconds, is no measurement
}

void check_format_version(const std::map<std::string, std::string>& context, const std::string& path) {
  const auto it = context.find(std::string(schema::context_key("membench_format_version").key));
  if (it == context.end()) return;
  const std::optional<format_version_number> v = parse_format_version(it->second);
  if (!v)
    throw input_error(fmt::format("{}: membench_format_version '{}' is not MAJOR.MINOR", path, it->second));
  // A newer minor only adds keys; a newer major changed what the keys mean.
  if (v->major > format_major)
    throw input_error(fmt::format("{}: membench_format_version {} is newer than this membench-report {} reads "
                                  "(format {}, any {}.x): read it with a newer membench-report",
                                  path, it->second, project_version(), format_version(), format_major));
}

void check_context_numbers(const std::map<std::string, std::string>& context, const std::string& path) {
  const auto check = [&](std::string_view key, double low, double high, std::string_view what) {
    const auto it = context.find(std::string(key));
    if (it == context.end()) return;
    const std::string& text = it->second;
    double v = NAN;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !(v > low && v <= high))
      throw input_error(fmt::format("{}: context {} '{}' is not {}", path, key, text.substr(0, 40), what));
  };
  check(schema::context_key("membench_ci_level_pct").key, 50 - 1e-9, 100 - 1e-9, "a level from 50 to below 100 %");
  check(schema::context_key("membench_timer_resolution_us").key, 0, 1e6, "a timer step in microseconds above 0");
}

void check_context(const std::map<std::string, std::string>& context, const std::string& path) {
  check_format_version(context, path);
  check_context_numbers(context, path);
}

std::string result_file::context_value(const std::string& key) const {
  const auto it = context.find(key);
  return it == context.end() ? "?" : it->second;
}

std::string result_file::run_identity() const {
  // In name order: a copy with its rows reordered is the same run.
  std::vector<std::string> rows;
  rows.reserve(results.size());
  std::size_t timed = 0;
  for (const result& r : results) {
    rows.push_back(fmt::format("{}={:.17g},", r.name, r.time_us));
    timed += r.time_us > 0;
  }
  std::sort(rows.begin(), rows.end());
  std::string out;
  for (const std::string& r : rows) out += r;
  // Eight measured times or more are the run, whatever its context says (a copy with its GPU,
  // host or date edited keeps them); fewer can repeat by chance at the timer's step.
  if (timed < 8) out += "|" + context_value(std::string(schema::context_key("host_boot_id").key)) + "|" + context_value("date");
  return out;
}

// An open-addressing table at most half full: a lookup reads a slot or two, where a
// binary search over 100 000 names missed the cache a dozen times.
void result_file::build_index() {
  std::size_t slots = 16;
  while (slots < 2 * results.size()) slots *= 2;
  index_.assign(slots, {0, 0});
  for (std::size_t i = 0; i < results.size(); ++i) {
    const std::uint64_t h = name_hash(results[i].name);
    std::size_t at = h & (slots - 1);
    while (index_[at].second != 0) at = (at + 1) & (slots - 1);
    index_[at] = {static_cast<std::uint32_t>(h >> 32), static_cast<std::uint32_t>(i + 1)};
  }
  indexed_ = results.size();
}

const result* result_file::find(std::string_view name) const {
  if (indexed_ == results.size() && !index_.empty()) {
    const std::uint64_t h = name_hash(name);
    const std::size_t mask = index_.size() - 1;
    for (std::size_t at = h & mask; index_[at].second != 0; at = (at + 1) & mask) {
      const result& r = results[index_[at].second - 1];
      if (index_[at].first == static_cast<std::uint32_t>(h >> 32) && r.name == name) return &r;
    }
    return nullptr;
  }
  for (const auto& r : results) {  // built by hand, without an index
    if (r.name == name) return &r;
  }
  return nullptr;
}

file_refs::file_refs(const std::vector<result_file>& files) {
  for (const result_file& f : files) p_.push_back(&f);
}

file_refs::file_refs(std::initializer_list<result_file> files) {
  for (const result_file& f : files) p_.push_back(&f);
}

std::optional<double> numeric_value(std::string_view v) {
  if (v.empty()) return std::nullopt;
  if (v.back() == 'K' || v.back() == 'M' || v.back() == 'G' || v.back() == 'T') {
    try {
      return static_cast<double>(parse_size(v));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  double d = 0;
  const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(d)) return std::nullopt;  // "nan" sorts nowhere
  return d;
}

bool value_less(std::string_view a, std::string_view b) {
  const auto na = numeric_value(a), nb = numeric_value(b);
  if (na && nb && *na != *nb) return *na < *nb;
  if (na.has_value() != nb.has_value()) return na.has_value();  // numbers first
  return a < b;
}

bool result_less(const result& a, const result& b) {
  if (a.space() != b.space()) return a.space() < b.space();
  if (a.experiment() != b.experiment()) return a.experiment() < b.experiment();
  const std::size_t n = std::min(a.param_count(), b.param_count());
  for (std::size_t i = 0; i < n; ++i) {
    if (a.param_key(i) != b.param_key(i)) return a.param_key(i) < b.param_key(i);
    if (a.param_value(i) != b.param_value(i)) return value_less(a.param_value(i), b.param_value(i));
  }
  if (a.param_count() != b.param_count()) return a.param_count() < b.param_count();
  return a.name < b.name;
}

}  // namespace membench::report
