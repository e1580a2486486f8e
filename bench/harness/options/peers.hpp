// `--peers`: the ordered pairs of GPUs (data from `src` to `dst`) the peer families measure,
// the GPUs `--devices` names, and how many GPUs this process may use, found without CUDA:
// rows are registered and options checked before anything touches a GPU, so that listing and
// refusing a bad option work anywhere. Plain host logic, tested without a GPU.
//
// Grammar: `all` (every ordered pair, `*-*`), `none`, or items `S-D` separated by commas, each
// end a device index or `*` (every device but the other end): `0-1,2-3`, `0-*`, `*-2`.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace membench {

/// One ordered pair: data leaves `src` and arrives at `dst` (CUDA device ordinals).
struct peer_pair {
  int src = 0;
  int dst = 0;
  auto operator<=>(const peer_pair&) const = default;
};

/// One item of `--peers`; an end of `any` stands for every device.
struct peer_item {
  static constexpr int any = -1;
  int src = any;
  int dst = any;
  bool operator==(const peer_item&) const = default;
};

/// What `--peers` asked for: its items (`all` is `*-*`, `none` no item).
struct peer_spec {
  std::vector<peer_item> items;
  bool operator==(const peer_spec&) const = default;
};

/// Parses the grammar above; else what is wrong (naming the item).
std::variant<peer_spec, std::string> parse_peers(std::string_view text);

/// What --devices asked for: every device, or these indices in this order.
struct device_request {
  bool all = false;
  std::vector<int> indices;
};

/// Parses `all` or a comma-separated list of distinct indices; else what is wrong.
std::variant<device_request, std::string> parse_devices(std::string_view text);

/// The distinct ordered pairs of `spec`, sorted by (src, dst): a `*` end is every device of
/// `devices` except the other end. An index end is taken as given when `strict` is false (the
/// device count behind `devices` is an estimate: a pair with no such device skips when it
/// runs); with `strict` an index outside `devices` is an error, naming the devices.
std::variant<std::vector<peer_pair>, std::string> resolve_peers(const peer_spec& spec, const std::vector<int>& devices,
                                                                bool strict);

/// 0, 1, ..., count - 1.
std::vector<int> first_devices(int count);

/// How many GPUs CUDA will show this process, without asking CUDA: with CUDA_VISIBLE_DEVICES
/// set (`visible` not null), its entries up to the first one CUDA would refuse (an index not
/// below `driver_gpus` when that is known, one listed twice, anything that is neither an index
/// nor a `GPU-` UUID); else `driver_gpus`; 0 when neither says.
int visible_gpu_count(const char* visible, std::optional<int> driver_gpus);

/// The GPUs the NVIDIA driver lists (one folder each under /proc/driver/nvidia/gpus); null
/// when the folder is not there (no driver, another OS).
std::optional<int> driver_gpu_count(const std::string& folder = "/proc/driver/nvidia/gpus");

/// The pairs as a `--peers` value that names each one: "0-1,1-0"; "none" for no pair.
std::string format_peers(const std::vector<peer_pair>& pairs);

/// Every device the pairs name, ascending.
std::vector<int> peer_devices(const std::vector<peer_pair>& pairs);

/// Every device named by a `src` or `dst` key of these benchmark names, ascending.
std::vector<int> devices_named(const std::vector<std::string>& names);

}  // namespace membench
