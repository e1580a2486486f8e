#include "links.hpp"

#include <algorithm>
#include <charconv>
#include <string>

namespace membench {
namespace {

// A hexadecimal field of exactly the text given; null otherwise.
std::optional<unsigned> hex_field(std::string_view text) {
  unsigned v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return v;
}

bool has_unnamed_link(const link_endpoint& e) {
  return std::any_of(e.nvlinks.begin(), e.nvlinks.end(),
                     [](const nvlink_far_end& l) { return l.kind == far_end_kind::other; });
}

// The hub's links that reach any of `peers` (a switch link counts once, whoever it serves).
int hub_links_reaching(const link_endpoint& hub, const std::vector<const link_endpoint*>& peers) {
  int n = 0;
  for (const auto& l : hub.nvlinks) {
    const bool reaches = l.kind == far_end_kind::nvswitch ||
                         (l.kind == far_end_kind::gpu &&
                          std::any_of(peers.begin(), peers.end(), [&](const link_endpoint* p) { return p->pci == l.pci; }));
    n += reaches ? 1 : 0;
  }
  return n;
}

}  // namespace

std::optional<pci_address> parse_pci_address(std::string_view bus_id) {
  const auto first = bus_id.find(':');
  const auto second = first == std::string_view::npos ? first : bus_id.find(':', first + 1);
  const auto dot = second == std::string_view::npos ? second : bus_id.find('.', second + 1);
  if (dot == std::string_view::npos) return std::nullopt;
  const auto domain = hex_field(bus_id.substr(0, first));
  const auto bus = hex_field(bus_id.substr(first + 1, second - first - 1));
  const auto device = hex_field(bus_id.substr(second + 1, dot - second - 1));
  const auto function = hex_field(bus_id.substr(dot + 1));
  if (!domain || !bus || !device || !function) return std::nullopt;
  return pci_address{*domain, *bus, *device};
}

int nvlinks_reaching(const link_endpoint& from, const link_endpoint& to) {
  return hub_links_reaching(from, {&to});
}

std::optional<link_ceiling> pair_ceiling(const link_endpoint& a, const link_endpoint& b) {
  const int ab = nvlinks_reaching(a, b), ba = nvlinks_reaching(b, a);
  if (ab > 0 && ba > 0) {
    const double rate = std::min(a.nvlink_gbps, b.nvlink_gbps);
    if (rate <= 0) return std::nullopt;
    const int links = std::min(ab, ba);
    return link_ceiling{links * rate, links};
  }
  // A link NVML cannot name might reach the other GPU: then no ceiling is known.
  if (has_unnamed_link(a) || has_unnamed_link(b)) return std::nullopt;
  return staged_ceiling(a, b);
}

std::optional<link_ceiling> staged_ceiling(const link_endpoint& a, const link_endpoint& b) {
  if (a.pcie_gbps <= 0 || b.pcie_gbps <= 0) return std::nullopt;
  return link_ceiling{std::min(a.pcie_gbps, b.pcie_gbps), 0};
}

std::optional<link_ceiling> aggregate_ceiling(const link_endpoint& hub, const std::vector<link_endpoint>& others) {
  std::vector<const link_endpoint*> over_nvlink;
  double nvlink_sum = 0, pcie_sum = 0;
  for (const auto& o : others) {
    const auto c = pair_ceiling(hub, o);
    if (!c) return std::nullopt;
    if (c->nvlinks > 0) {
      over_nvlink.push_back(&o);
      nvlink_sum += c->gb_per_s;
    } else {
      pcie_sum += c->gb_per_s;
    }
  }
  const int links = over_nvlink.empty() ? 0 : hub_links_reaching(hub, over_nvlink);
  const double nvlink_part = std::min(links * hub.nvlink_gbps, nvlink_sum);
  const double pcie_part = pcie_sum > 0 ? std::min(hub.pcie_gbps, pcie_sum) : 0;
  if (others.empty()) return std::nullopt;
  return link_ceiling{nvlink_part + pcie_part, links};
}

}  // namespace membench
