#include "pcie.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>

#include <fmt/format.h>

namespace membench {
namespace {

constexpr std::array<double, 6> lane_rates{2.5, 5.0, 8.0, 16.0, 32.0, 64.0};

std::optional<std::string> read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

}  // namespace

int pcie_generation(double gt_per_s) {
  for (std::size_t i = 0; i < lane_rates.size(); ++i) {
    if (std::abs(gt_per_s - lane_rates[i]) < 0.01) return static_cast<int>(i) + 1;
  }
  return 0;
}

double pcie_encoding_efficiency(int generation) {
  if (generation <= 0) return 0;
  if (generation <= 2) return 8.0 / 10.0;
  if (generation <= 5) return 128.0 / 130.0;
  return 242.0 / 256.0;
}

std::optional<pcie_link> pcie_link_of(int generation, int width) {
  if (generation < 1 || generation > static_cast<int>(lane_rates.size()) || width <= 0) return std::nullopt;
  return pcie_link{lane_rates[static_cast<std::size_t>(generation - 1)], width, generation};
}

double pcie_link::gbps() const { return gt_per_s * width * pcie_encoding_efficiency(generation) / 8.0; }

std::string pcie_link::str() const {
  return fmt::format("gen{} x{}, {:.1f} GB/s per direction", generation, width, gbps());
}

std::optional<double> parse_link_speed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  double v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || !(v > 0)) return std::nullopt;
  std::string_view rest(p, static_cast<std::size_t>(text.data() + text.size() - p));
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  if (rest.substr(0, 4) != "GT/s") return std::nullopt;
  return v;
}

std::optional<pcie_link> read_pcie_link(const std::string& pci_bus_id, const std::string& sysfs_root) {
  std::string id = pci_bus_id;
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // CUDA writes a 4-digit domain, NVML an 8-digit one; sysfs uses 4.
  if (id.size() > 12 && id.compare(0, 4, "0000") == 0 && id[8] == ':') id.erase(0, 4);
  const std::string dir = sysfs_root + "/" + id + "/";
  const auto speed = read_line(dir + "current_link_speed");
  const auto width = read_line(dir + "current_link_width");
  if (!speed || !width) return std::nullopt;
  const auto gt = parse_link_speed(*speed);
  int lanes = 0;
  const auto [p, ec] = std::from_chars(width->data(), width->data() + width->size(), lanes);
  if (!gt || ec != std::errc() || lanes <= 0) return std::nullopt;
  pcie_link link{*gt, lanes, pcie_generation(*gt)};
  if (link.generation == 0) return std::nullopt;
  return link;
}

}  // namespace membench
