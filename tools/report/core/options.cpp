#include "core/options.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "core/regex.hpp"

namespace membench::report {

namespace {

// Whole numbers in full (1000000, not 1e+06), others as short as they go.
std::string number_text(double v) {
  return v == static_cast<double>(static_cast<long long>(v)) ? fmt::format("{}", static_cast<long long>(v))
                                                           : fmt::format("{:g}", v);
}

}  // namespace

const command_spec& command_named(std::string_view name) {
  for (const command_spec& c : commands) {
    if (c.name == name) return c;
  }
  throw std::out_of_range(fmt::format("no membench-report command '{}'", name));
}

std::string default_text(const option_spec& o) {
  switch (o.kind) {
    case option_kind::number:
    case option_kind::integer: return o.or_auto && std::isnan(o.number) ? "auto" : number_text(o.number);
    case option_kind::flag:
    case option_kind::list: return "";
    default: return std::string(o.text);
  }
}

std::string values_text(const option_spec& o) {
  if (o.kind == option_kind::choice) {
    std::vector<std::string_view> v;
    for (const std::string_view c : o.choices) {
      if (!c.empty()) v.push_back(c);
    }
    if (v.size() == 1) return std::string(v.front());
    return fmt::format("{} or {}", fmt::join(v.begin(), v.end() - 1, ", "), v.back());
  }
  if ((o.kind == option_kind::number || o.kind == option_kind::integer) && o.low < o.high)
    return fmt::format("{}{} to {}", o.or_auto ? "auto or " : "", number_text(o.low), number_text(o.high));
  return "";
}

namespace {

// "default 0: it must exclude no change", "default: all"; "" when there is none.
std::string default_phrase(const option_spec& o) {
  const std::string value = default_text(o);
  if (value.empty()) return o.default_note.empty() ? "" : fmt::format("default: {}", o.default_note);
  return o.default_note.empty() ? fmt::format("default {}", value) : fmt::format("default {}: {}", value, o.default_note);
}

// The default column: "0: it must exclude no change", "bytes, else the first key that varies".
std::string default_shown(const option_spec& o) {
  const std::string value = default_text(o);
  if (o.default_note.empty()) return value;
  return value.empty() ? std::string(o.default_note) : fmt::format("{}: {}", value, o.default_note);
}

std::string what_it_does(const option_spec& o) {
  return o.required ? fmt::format("{} (required)", o.help) : std::string(o.help);
}

std::string md_cell(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string help_text(const option_spec& o) {
  // CLI11 shows the allowed values itself, after the name.
  const std::string fallback = default_phrase(o);
  return fallback.empty() ? std::string(o.help) : fmt::format("{} ({})", o.help, fallback);
}

namespace {

// A number's or an integer's error; "" when it is one within the option's range.
std::string number_error(const option_spec& o, const std::string& text) {
  if (o.or_auto && text == "auto") return "";
  double v = 0;
  if (o.kind == option_kind::integer) {
    long long n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
      return fmt::format("'{}' is not a whole number", text);
    v = static_cast<double>(n);
  } else {
    char* end = nullptr;
    v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return fmt::format("'{}' is not a number", text);
    if (!std::isfinite(v)) return fmt::format("'{}' is not a finite number", text);
  }
  if (o.low < o.high && (v < o.low || v > o.high)) return fmt::format("{} is not within {}", text, values_text(o));
  return "";
}

}  // namespace

std::string value_error(const option_spec& o, std::string_view text) {
  switch (o.kind) {
    case option_kind::number:
    case option_kind::integer: return number_error(o, std::string(text));
    case option_kind::choice:
      for (const std::string_view c : o.choices) {
        if (!c.empty() && c == text) return "";
      }
      return fmt::format("'{}' is not {}", text, values_text(o));
    case option_kind::pattern:
      // `--filter "$UNSET"` as `--filter=` is: a value that names nothing, never "every row".
      if (text.empty()) return "an empty value names nothing";
      // A plain part of a name compiles too: the check holds for both.
      if (const std::string e = regex_error(std::string(text)); !e.empty())
        return fmt::format("'{}' is not a valid regular expression ({})", text, e);
      return "";
    // A path, a date or a file or table named empty (`-o "$UNSET"`, `schema ''`) names nothing:
    // refused, not taken as unset.
    case option_kind::text:
    case option_kind::positional: return text.empty() ? "an empty value names nothing" : "";
    default: return "";
  }
}

std::string options_markdown(const command_spec& c) {
  std::string out = fmt::format("<!-- options:{} -->\n### membench-report {}\n\n{}\n\n", c.name, c.name, md_cell(c.help));
  out += "| option | values | default | what it does |\n|---|---|---|---|\n";
  for (const option_spec* o : c.options) {
    fmt::format_to(std::back_inserter(out), "| `{}` | {} | {} | {} |\n", md_cell(o->names), md_cell(values_text(*o)),
                   md_cell(default_shown(*o)), md_cell(what_it_does(*o)));
  }
  return out + fmt::format("<!-- /options:{} -->\n", c.name);
}

document options_table(std::string_view command) {
  document d;
  d.title = "membench-report options";
  for (const command_spec& c : commands) {
    if (!command.empty() && c.name != command) continue;
    table t;
    t.title = fmt::format("membench-report {}: {}", c.name, c.help);
    t.header = {"option", "values", "default", "what it does"};
    for (const option_spec* o : c.options)
      t.rows.push_back({{std::string(o->names)}, {values_text(*o)}, {default_shown(*o)}, {what_it_does(*o)}});
    d.tables.push_back(std::move(t));
  }
  if (d.tables.empty()) (void)command_named(command);  // throws: no such command
  return d;
}

std::string options_document() {
  std::string out = "# membench-report options (generated: membench-report options > docs/report-options.md)\n";
  for (const command_spec& c : commands) fmt::format_to(std::back_inserter(out), "\n{}", options_markdown(c));
  return out;
}

}  // namespace membench::report
