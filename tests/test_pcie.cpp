#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/pcie.hpp"

namespace membench {
namespace {

TEST(Pcie, GenerationsAndEncodings) {
  EXPECT_EQ(pcie_generation(2.5), 1);
  EXPECT_EQ(pcie_generation(16.0), 4);
  EXPECT_EQ(pcie_generation(32.0), 5);
  EXPECT_EQ(pcie_generation(12.0), 0);
  EXPECT_DOUBLE_EQ(pcie_encoding_efficiency(2), 0.8);
  EXPECT_DOUBLE_EQ(pcie_encoding_efficiency(5), 128.0 / 130.0);
}

TEST(Pcie, Gen5x16IsAbout63GBPerDirection) {
  const pcie_link l{32.0, 16, 5};
  EXPECT_NEAR(l.gbps(), 63.015, 0.001);
  EXPECT_EQ(l.str(), "gen5 x16, 63.0 GB/s per direction");
  EXPECT_NEAR((pcie_link{8.0, 16, 3}).gbps(), 15.754, 0.001);
  EXPECT_NEAR((pcie_link{2.5, 1, 1}).gbps(), 0.25, 1e-12);
}

TEST(Pcie, LinkOfAGenerationAndWidth) {
  const auto l = pcie_link_of(5, 16);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->gt_per_s, 32.0);
  EXPECT_NEAR(l->gbps(), 63.015, 0.001);
  EXPECT_NEAR(pcie_link_of(1, 4)->gbps(), 1.0, 1e-12);
  EXPECT_FALSE(pcie_link_of(0, 16).has_value());
  EXPECT_FALSE(pcie_link_of(7, 16).has_value());
  EXPECT_FALSE(pcie_link_of(4, 0).has_value());
}

TEST(Pcie, ParsesSysfsSpeeds) {
  EXPECT_EQ(parse_link_speed("32.0 GT/s PCIe"), 32.0);
  EXPECT_EQ(parse_link_speed("8 GT/s"), 8.0);
  EXPECT_EQ(parse_link_speed("2.5 GT/s PCIe\n"), 2.5);
  EXPECT_FALSE(parse_link_speed("Unknown").has_value());
  EXPECT_FALSE(parse_link_speed("16.0 MB/s").has_value());
  EXPECT_FALSE(parse_link_speed("").has_value());
}

TEST(Pcie, ReadsTheDeviceDirectoryUnderAnyBusIdSpelling) {
  const auto root = std::filesystem::path(::testing::TempDir()) / "membench_sysfs";
  const auto dev = root / "0000:17:00.0";
  std::filesystem::create_directories(dev);
  std::ofstream(dev / "current_link_speed") << "16.0 GT/s PCIe\n";
  std::ofstream(dev / "current_link_width") << "16\n";
  for (const char* id : {"0000:17:00.0", "00000000:17:00.0", "0000:17:00.0"}) {
    const auto l = read_pcie_link(id, root.string());
    ASSERT_TRUE(l.has_value()) << id;
    EXPECT_EQ(l->generation, 4);
    EXPECT_EQ(l->width, 16);
  }
  std::ofstream(dev / "current_link_speed") << "Unknown\n";
  EXPECT_FALSE(read_pcie_link("0000:17:00.0", root.string()).has_value()) << "a VM's Unknown speed";
  EXPECT_FALSE(read_pcie_link("0000:99:00.0", root.string()).has_value());
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace membench
