// The JSON schema of membench's output, in one place: every name key, counter, label
// token and context key with its unit and meaning, membench's options and exit codes.
// The harness writes through it and membench-report reads through it; the README's tables
// are generated from it (membench-report schema) and a test fails when they drift.
// Lookups by key are consteval: a key that is not listed here does not compile.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "schema_tables.hpp"

namespace membench::schema {

namespace detail {
template <std::size_t N>
consteval const field& find(const field (&table)[N], std::string_view key) {
  for (const field& f : table) {
    if (f.key == key) return f;
  }
  throw "membench::schema: key not in the schema";  // a compile error where it is reached
}
}  // namespace detail

/// A per-row counter, e.g. counter("t_median_us").
consteval const field& counter(std::string_view key) { return detail::find(counter_table, key); }
/// A benchmark-name key, e.g. name_key("bytes").
consteval const field& name_key(std::string_view key) { return detail::find(name_key_table, key); }
/// A key of the JSON context, e.g. context_key("gpu_name").
consteval const field& context_key(std::string_view key) { return detail::find(context_table, key); }
/// A label token's prefix, e.g. label("throttle") for `throttle:sw_power_cap`.
consteval const field& label(std::string_view key) { return detail::find(label_table, key); }

std::span<const field> counters() noexcept;
std::span<const field> name_keys() noexcept;
std::span<const field> context_keys() noexcept;
std::span<const field> labels() noexcept;
std::span<const option> options() noexcept;
std::span<const exit_status> exit_codes() noexcept;
std::span<const field> ceilings() noexcept;
std::span<const headline> headlines() noexcept;

/// A family's headline (`global/read`); null for a family the schema does not list.
const headline* find_headline(std::string_view family) noexcept;
/// A ceiling of ceiling_table (`dram`); null when absent.
const field* find_ceiling(std::string_view key) noexcept;

/// A JSON context entry written through the schema.
inline std::pair<std::string, std::string> entry(const field& key, std::string value) {
  return {std::string(key.key), std::move(value)};
}

/// Run-time lookups (readers, tests): null when absent.
const field* find_counter(std::string_view key) noexcept;
const field* find_name_key(std::string_view key) noexcept;
const field* find_context_key(std::string_view key) noexcept;

/// The README's tables, as Markdown: "name-keys", "counters", "labels", "context",
/// "options", "exit-codes", "ceilings", "headlines". Empty for an unknown table.
std::string markdown_table(std::string_view which);
/// The names markdown_table knows, in README order.
std::span<const std::string_view> table_names() noexcept;

/// membench --help's option list, from the same entries.
std::string options_help();

}  // namespace membench::schema
