#include "schema.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace membench::schema {
namespace {

template <class T, std::size_t N>
std::span<const T> all(const T (&table)[N]) noexcept {
  return {table, N};
}

const field* find_in(std::span<const field> table, std::string_view key) noexcept {
  const auto it = std::find_if(table.begin(), table.end(), [&](const field& f) { return f.key == key; });
  return it == table.end() ? nullptr : &*it;
}

std::string fields_table(std::span<const field> table, std::string_view first_column) {
  std::string out = fmt::format("| {} | unit | meaning |\n|---|---|---|\n", first_column);
  for (const field& f : table) fmt::format_to(std::back_inserter(out), "| `{}` | {} | {} |\n", f.key, f.unit, f.meaning);
  return out;
}

std::string flag_text(const option& o) { return o.value.empty() ? std::string(o.flag) : fmt::format("{}={}", o.flag, o.value); }

// Markdown's backticks and bold are noise in a terminal.
std::string plain(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '`') continue;
    if (s[i] == '*' && i + 1 < s.size() && s[i + 1] == '*') {
      ++i;
      continue;
    }
    out += s[i];
  }
  return out;
}

constexpr std::array<std::string_view, 8> tables{"name-keys", "counters", "labels",     "context",
                                                 "options",   "exit-codes", "ceilings", "headlines"};

// Every headline names a ceiling of the table and a counter (or time): checked where it compiles.
consteval bool headlines_valid() {
  for (const headline& h : headline_table) {
    bool ceiling = false, metric = h.metric == "time";
    for (const field& c : ceiling_table) ceiling = ceiling || c.key == h.ceiling;
    for (const field& c : counter_table) metric = metric || c.key == h.metric;
    if (!ceiling || !metric) return false;
  }
  return true;
}
static_assert(headlines_valid(), "a headline names a ceiling or a metric the schema does not list");

std::string headlines_markdown() {
  std::string out = "| family | headline | unit | ceiling | meaning |\n|---|---|---|---|---|\n";
  for (const headline& h : headline_table)
    fmt::format_to(std::back_inserter(out), "| `{}` | `{}` | {} | `{}` | {} |\n", h.family, h.metric, h.unit, h.ceiling,
                   h.meaning);
  return out;
}

}  // namespace

std::span<const field> counters() noexcept { return all(counter_table); }
std::span<const field> name_keys() noexcept { return all(name_key_table); }
std::span<const field> context_keys() noexcept { return all(context_table); }
std::span<const field> labels() noexcept { return all(label_table); }
std::span<const option> options() noexcept { return all(option_table); }
std::span<const exit_status> exit_codes() noexcept { return all(exit_table); }
std::span<const field> ceilings() noexcept { return all(ceiling_table); }
std::span<const headline> headlines() noexcept { return all(headline_table); }

const headline* find_headline(std::string_view family) noexcept {
  const auto it = std::find_if(std::begin(headline_table), std::end(headline_table),
                               [&](const headline& h) { return h.family == family; });
  return it == std::end(headline_table) ? nullptr : &*it;
}
const field* find_ceiling(std::string_view key) noexcept { return find_in(ceilings(), key); }

const field* find_counter(std::string_view key) noexcept { return find_in(counters(), key); }
const field* find_name_key(std::string_view key) noexcept { return find_in(name_keys(), key); }
const field* find_context_key(std::string_view key) noexcept { return find_in(context_keys(), key); }

std::span<const std::string_view> table_names() noexcept { return tables; }

std::string markdown_table(std::string_view which) {
  if (which == "name-keys") return fields_table(name_keys(), "key");
  if (which == "counters") return fields_table(counters(), "counter");
  if (which == "labels") return fields_table(labels(), "label token");
  if (which == "context") return fields_table(context_keys(), "context key");
  if (which == "ceilings") return fields_table(ceilings(), "ceiling");
  if (which == "headlines") return headlines_markdown();
  if (which == "options") {
    std::string out = "| option | default | meaning |\n|---|---|---|\n";
    for (const option& o : options())
      fmt::format_to(std::back_inserter(out), "| `{}` | {} | {} |\n", flag_text(o),
                     o.default_value.empty() ? "-" : o.default_value, o.meaning);
    return out;
  }
  if (which == "exit-codes") {
    std::string out = "| code | meaning |\n|---|---|\n";
    for (const exit_status& e : exit_codes()) fmt::format_to(std::back_inserter(out), "| {} | {} |\n", e.code, e.meaning);
    return out;
  }
  return {};
}

std::string options_help() {
  std::string out;
  for (const option& o : options()) {
    std::string meaning = plain(o.meaning);
    if (!o.default_value.empty()) meaning += fmt::format(" (default {})", o.default_value);
    // One line per option, wrapped at about 100 columns under the meaning's column.
    const std::string flag = flag_text(o);
    std::string line = fmt::format("  {:<22} ", flag.size() > 22 ? flag + "\n" + std::string(25, ' ') : flag);
    std::size_t column = 25;
    std::size_t pos = 0;
    while (pos < meaning.size()) {
      std::size_t end = meaning.find(' ', pos);
      if (end == std::string::npos) end = meaning.size();
      const std::string_view word(meaning.data() + pos, end - pos);
      if (column + word.size() > 100 && column > 25) {
        line += "\n" + std::string(25, ' ');
        column = 25;
      }
      line += word;
      line += ' ';
      column += word.size() + 1;
      pos = end + 1;
    }
    line.back() = '\n';
    out += line;
  }
  out += "\nExit codes:\n";
  for (const exit_status& e : exit_codes()) out += fmt::format("  {:<8} {}\n", e.code, plain(e.meaning));
  return out;
}

}  // namespace membench::schema
