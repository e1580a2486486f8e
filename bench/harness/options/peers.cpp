#include "peers.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "common/naming.hpp"

namespace membench {
namespace {

// A device index or `*`; null for anything else.
std::optional<int> parse_end(std::string_view text) {
  if (text == "*") return peer_item::any;
  int index = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || index < 0) return std::nullopt;
  return index;
}

std::variant<peer_item, std::string> parse_item(std::string_view item) {
  const auto dash = item.find('-');
  const auto src = dash == std::string_view::npos ? std::nullopt : parse_end(item.substr(0, dash));
  const auto dst = dash == std::string_view::npos ? std::nullopt : parse_end(item.substr(dash + 1));
  if (!src || !dst)
    return fmt::format("--peers: '{}' is not a pair SRC-DST (each a device index or *; e.g. 0-1, 0-*, *-2; or all, none)",
                       item);
  if (*src == *dst && *src != peer_item::any) return fmt::format("--peers: '{}' pairs device {} with itself", item, *src);
  return peer_item{*src, *dst};
}

std::string device_list(const std::vector<int>& devices) {
  std::string out;
  for (int d : devices) out += fmt::format("{}{}", out.empty() ? "" : ",", d);
  return out.empty() ? "none" : out;
}

}  // namespace

std::variant<peer_spec, std::string> parse_peers(std::string_view text) {
  if (text == "none") return peer_spec{};
  if (text == "all") return peer_spec{{peer_item{}}};
  peer_spec spec;
  while (true) {
    const auto comma = text.find(',');
    auto item = parse_item(text.substr(0, comma));
    if (auto* problem = std::get_if<std::string>(&item)) return *problem;
    spec.items.push_back(std::get<peer_item>(item));
    if (comma == std::string_view::npos) return spec;
    text.remove_prefix(comma + 1);
  }
}

std::variant<device_request, std::string> parse_devices(std::string_view text) {
  if (text == "all") return device_request{true, {}};
  device_request r;
  while (true) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    int index = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), index);
    if (item.empty() || ec != std::errc{} || end != item.data() + item.size() || index < 0)
      return fmt::format("--devices: '{}' is not a device index (use all, or indices such as 0,2,3)", item);
    if (std::find(r.indices.begin(), r.indices.end(), index) != r.indices.end())
      return fmt::format("--devices: device {} is listed twice", index);
    r.indices.push_back(index);
    if (comma == std::string_view::npos) return r;
    text.remove_prefix(comma + 1);
  }
}

std::variant<std::vector<peer_pair>, std::string> resolve_peers(const peer_spec& spec, const std::vector<int>& devices,
                                                                bool strict) {
  std::set<peer_pair> pairs;
  auto ends = [&](int end) -> std::variant<std::vector<int>, std::string> {
    if (end == peer_item::any) return devices;
    if (strict && std::find(devices.begin(), devices.end(), end) == devices.end())
      return fmt::format("--peers names device {}, not one of the GPUs chosen ({})", end, device_list(devices));
    return std::vector<int>{end};
  };
  for (const peer_item& item : spec.items) {
    auto srcs = ends(item.src), dsts = ends(item.dst);
    if (auto* problem = std::get_if<std::string>(&srcs)) return *problem;
    if (auto* problem = std::get_if<std::string>(&dsts)) return *problem;
    for (int s : std::get<std::vector<int>>(srcs)) {
      for (int d : std::get<std::vector<int>>(dsts)) {
        if (s != d) pairs.insert({s, d});
      }
    }
  }
  return std::vector<peer_pair>(pairs.begin(), pairs.end());
}

std::vector<int> first_devices(int count) {
  std::vector<int> out;
  for (int i = 0; i < count; ++i) out.push_back(i);
  return out;
}

// Where the driver's count is unknown: the most GPUs one host holds (DGX-2, HGX: 16).
constexpr int most_gpus_a_host = 16;

int visible_gpu_count(const char* visible, std::optional<int> driver_gpus) {
  if (visible == nullptr) return driver_gpus.value_or(0);
  // CUDA reads the list up to the first entry it cannot use and ignores the rest.
  std::string_view text(visible);
  std::set<std::string> seen;
  int count = 0;
  while (!text.empty()) {
    const auto comma = text.find(',');
    std::string_view entry = text.substr(0, comma);
    while (!entry.empty() && entry.front() == ' ') entry.remove_prefix(1);
    while (!entry.empty() && entry.back() == ' ') entry.remove_suffix(1);
    int index = -1;
    const auto [end, ec] = std::from_chars(entry.data(), entry.data() + entry.size(), index);
    const bool is_index = !entry.empty() && ec == std::errc{} && end == entry.data() + entry.size() && index >= 0;
    const bool usable = is_index ? !driver_gpus || index < *driver_gpus : entry.substr(0, 4) == "GPU-";
    if (!usable || !seen.insert(std::string(entry)).second) break;
    // No process sees more GPUs than the host has: a list of made-up UUIDs would otherwise
    // register a peer row for each of n x (n - 1) pairs (a thousand entries: a million rows).
    if (count == (driver_gpus ? *driver_gpus : most_gpus_a_host)) break;
    ++count;
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return count;
}

std::optional<int> driver_gpu_count(const std::string& folder) {
  std::error_code ec;
  std::filesystem::directory_iterator it(folder, ec);
  if (ec) return std::nullopt;
  int count = 0;
  for (const auto& entry : it) count += entry.is_directory(ec) ? 1 : 0;
  return count;
}

std::string format_peers(const std::vector<peer_pair>& pairs) {
  std::string out;
  for (const auto& p : pairs) out += fmt::format("{}{}-{}", out.empty() ? "" : ",", p.src, p.dst);
  return out.empty() ? "none" : out;
}

std::vector<int> peer_devices(const std::vector<peer_pair>& pairs) {
  std::set<int> devices;
  for (const auto& p : pairs) {
    devices.insert(p.src);
    devices.insert(p.dst);
  }
  return {devices.begin(), devices.end()};
}

std::vector<int> devices_named(const std::vector<std::string>& names) {
  std::set<int> devices;
  for (const auto& n : names) {
    const bench_name parsed = parse_any_name(n);
    for (const char* key : {"src", "dst"}) {
      const auto value = parsed.get(key);
      int index = -1;
      if (value && std::from_chars(value->data(), value->data() + value->size(), index).ec == std::errc{} && index >= 0)
        devices.insert(index);
    }
  }
  return {devices.begin(), devices.end()};
}

}  // namespace membench
