// Every document the report tool reads besides result files (a fleet baseline, compare's
// pairs, a views file) is read as the results reader reads its files: never blocking on a
// FIFO nobody writes to, a folder refused, at most `limit` bytes from any source (/dev/zero
// would fill the memory), and JSON whose objects never give one key twice (a JSON library
// keeps the last of a doubled key, so the first would be dropped in silence).
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/model.hpp"

namespace membench::report {

/// The most read from one such document.
inline constexpr std::size_t longest_document = std::size_t{64} << 20;

/// The bytes at `path` ("-": standard input). throws input_error naming `shown`
std::string read_input_text(const std::string& path, const std::string& shown, std::size_t limit = longest_document);

/// `text` parsed as JSON (nlohmann::json or nlohmann::ordered_json), refusing an object that
/// gives a key twice. throws input_error naming `path`
template <class Json>
Json parse_strict_json(std::string_view text, const std::string& path) {
  std::vector<std::set<std::string>> open;  // the keys seen in each object being read
  auto distinct = [&](int, typename Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) open.emplace_back();
    if (event == Json::parse_event_t::object_end && !open.empty()) open.pop_back();
    if (event == Json::parse_event_t::key && !open.empty() && !open.back().insert(parsed.template get<std::string>()).second)
      throw input_error(fmt::format("{}: the key \"{}\" is given twice in one object", path, parsed.template get<std::string>()));
    return true;
  };
  try {
    return Json::parse(text, distinct);
  } catch (const typename Json::exception& e) {
    throw input_error(fmt::format("{}: not valid JSON: {}", path, e.what()));
  }
}

}  // namespace membench::report
