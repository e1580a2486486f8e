#include "views/view_sets.hpp"

#include <glob.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/model.hpp"
#include "core/input_text.hpp"

namespace membench::report {
namespace {

using json = nlohmann::ordered_json;  // inputs and views in the order the file gives them

std::vector<std::string> strings_of(const json& v, const std::string& where) {
  if (v.is_string()) return {v.get<std::string>()};
  if (!v.is_array()) throw input_error(fmt::format("{}: a string or a list of strings", where));
  std::vector<std::string> out;
  for (const auto& x : v) {
    if (!x.is_string()) throw input_error(fmt::format("{}: a list of strings", where));
    out.push_back(x.get<std::string>());
  }
  return out;
}

std::string string_of(const json& o, const char* key, const std::string& where, bool required) {
  const auto it = o.find(key);
  if (it == o.end()) {
    if (required) throw input_error(fmt::format("{}: \"{}\" missing", where, key));
    return {};
  }
  if (!it->is_string()) throw input_error(fmt::format("{}: \"{}\" is not a string", where, key));
  return it->get<std::string>();
}

// A control file's unknown key is refused, named: a typo (`if_row`, `optinal`) would be
// dropped, and the view made as though the key were not there.
void refuse_unknown_keys(const json& o, std::initializer_list<std::string_view> known, const std::string& where) {
  for (const auto& [key, value] : o.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw input_error(fmt::format("{}: unknown key \"{}\" (it takes {})", where, key, fmt::join(known, ", ")));
  }
}

void read_inputs(const json& v, const std::string& where, view_spec& s) {
  const auto in = v.find("inputs");
  if (in == v.end()) return;
  if (!in->is_object()) throw input_error(where + ": \"inputs\" is not an object");
  for (const auto& [name, alternatives] : in->items()) {
    view_input x;
    const std::string at = fmt::format("{}: inputs.{}", where, name);
    if (alternatives.is_object()) {
      refuse_unknown_keys(alternatives, {"any_of", "optional"}, at);
      x.any_of = strings_of(alternatives.value("any_of", json()), at + ".any_of");
      const json optional = alternatives.value("optional", json(false));
      if (!optional.is_boolean()) throw input_error(at + ": \"optional\" is not true or false");
      x.optional = optional.get<bool>();
    } else {
      x.any_of = strings_of(alternatives, at);
    }
    s.inputs.emplace_back(name, std::move(x));
  }
}

void read_steps(const json& v, const std::string& where, view_spec& s) {
  const auto steps = v.find("steps");
  if (steps == v.end() || !steps->is_array() || steps->empty()) throw input_error(where + ": no \"steps\" list");
  for (std::size_t k = 0; k < steps->size(); ++k) {
    const json& step = (*steps)[k];
    const std::string at = fmt::format("{}: steps[{}]", where, k);
    view_step x;
    if (step.is_object()) {
      refuse_unknown_keys(step, {"text"}, at);
      x.text = string_of(step, "text", at, true);
    } else {
      x.args = strings_of(step, at);
      if (x.args.empty()) throw input_error(at + ": an empty command");
    }
    s.steps.push_back(std::move(x));
  }
}

}  // namespace

std::vector<view_spec> parse_view_specs(std::string_view json_text, const std::string& path) {
  const json doc = parse_strict_json<json>(json_text, path);
  if (!doc.is_object() || !doc.contains("views") || !doc["views"].is_array())
    throw input_error(fmt::format("{}: no \"views\" list", path));
  refuse_unknown_keys(doc, {"about", "views"}, path);
  std::vector<view_spec> specs;
  for (std::size_t i = 0; i < doc["views"].size(); ++i) {
    const json& v = doc["views"][i];
    const std::string where = fmt::format("{}: views[{}]", path, i);
    if (!v.is_object()) throw input_error(where + ": not an object");
    refuse_unknown_keys(v, {"name", "output", "if_rows", "inputs", "steps"}, where);
    view_spec s;
    s.name = string_of(v, "name", where, true);
    // A view is named by --only and in what views says: two of one name cannot be told apart.
    for (const view_spec& earlier : specs) {
      if (earlier.name == s.name) throw input_error(fmt::format("{}: a second view named '{}'", where, s.name));
    }
    s.output = string_of(v, "output", where, true);
    s.if_rows = string_of(v, "if_rows", where, false);
    read_inputs(v, where, s);
    read_steps(v, where, s);
    // Two views of one output: the second would replace the first, and both be "made".
    for (const view_spec& earlier : specs) {
      if (std::filesystem::path(earlier.output).lexically_normal() == std::filesystem::path(s.output).lexically_normal())
        throw input_error(fmt::format("{}: output {} is also {}'s", where, s.output, earlier.name));
    }
    specs.push_back(std::move(s));
  }
  return specs;
}

std::string find_views_file(const std::string& dir) {
  std::error_code ec;
  auto p = std::filesystem::absolute(dir, ec);
  std::filesystem::path up = dir;  // the same folder as `dir` names it, for short messages
  for (; !ec && !p.empty(); p = p.parent_path(), up /= "..") {
    std::error_code missing;  // a folder without one is no error
    if (std::filesystem::is_regular_file(p / "views.json", missing)) return (up / "views.json").lexically_normal().string();
    if (p == p.parent_path()) break;
  }
  return {};
}

namespace {

// `path` as a glob pattern that matches only itself: the folder is a name, never a pattern
// (a results folder may be called `run[1]` or `x*`); only the views file's inputs are patterns.
std::string glob_literal(std::string_view path) {
  std::string out;
  for (const char c : path) {
    if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::vector<std::string> resolve_input(const std::string& dir, const view_input& in) {
  const std::string prefix = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  const std::string pattern_prefix = glob_literal(prefix);
  for (const auto& alternative : in.any_of) {
    glob_t g{};
    std::vector<std::string> files;
    if (::glob((pattern_prefix + alternative).c_str(), 0, nullptr, &g) == 0) {
      for (std::size_t i = 0; i < g.gl_pathc; ++i) {
        std::string f = g.gl_pathv[i];
        if (std::filesystem::is_regular_file(f)) files.push_back(f.substr(prefix.size()));
      }
    }
    ::globfree(&g);
    if (!files.empty()) {
      std::sort(files.begin(), files.end());
      return files;
    }
  }
  return {};
}

std::optional<std::vector<std::string>> expand_step(const view_step& step,
                                                    const std::map<std::string, std::vector<std::string>>& inputs) {
  std::vector<std::string> out;
  for (const auto& a : step.args) {
    if (a.size() < 2 || a.front() != '$') {
      out.push_back(a);
      continue;
    }
    const auto it = inputs.find(a.substr(1));
    if (it == inputs.end()) throw input_error(fmt::format("'{}': no such input", a));
    if (it->second.empty()) return std::nullopt;
    out.insert(out.end(), it->second.begin(), it->second.end());
  }
  return out;
}

}  // namespace membench::report
