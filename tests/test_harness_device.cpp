// The device layer's host logic: the build check, device context and list, NVML's
// reasons, the PCIe link and the metrics list.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "common/version.hpp"
#include "harness/device/build_check.hpp"
#include "harness/device/device_info.hpp"
#include "harness/device/identity.hpp"
#include "harness/device/links.hpp"
#include "harness/device/list_devices.hpp"
#include "harness/device/metrics.hpp"
#include "harness/device/nvml.hpp"
#include "harness/device/pcie.hpp"

namespace membench {
namespace {

TEST(CheckBuild, AcceptsMatchingModeAndArchitecture) {
  EXPECT_FALSE(check_build("default", "90-real", {0, 90, 90, 40}).has_value());
  EXPECT_FALSE(check_build("default", "90-real", {0, 90, 90, 250}).has_value());  // no claim
  EXPECT_FALSE(check_build("ca", "80-real,90-real", {0, 90, 90, 38}).has_value());  // sm_90 reports cacheModeCA=0
  EXPECT_FALSE(check_build("ca", "80-real,90-real", {1, 90, 90, 38}).has_value());
  EXPECT_FALSE(check_build("cg", "90-real;100-real", {0, 100, 100, 260}).has_value());
}

TEST(CheckBuild, RejectsLoadsThatContradictTheMode) {
  EXPECT_TRUE(check_build("ca", "90-real", {0, 90, 90, 260}).has_value());
  EXPECT_TRUE(check_build("cg", "90-real", {0, 90, 90, 35}).has_value());
  EXPECT_TRUE(check_build("default", "90-real", {1, 90, 90, 35}).has_value());
  EXPECT_TRUE(check_build("cg", "90-real", {1, 90, 90, 260}).has_value());
}

TEST(CheckBuild, RejectsJitCompiledCode) {
  const auto problem = check_build("cg", "80-real", {0, 90, 80, 260});
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("JIT"), std::string::npos);
}

TEST(DeviceInfo, PeakBandwidthIsDoubleDataRate) {
  // H100 SXM: HBM3 at 2619 MHz on a 5120-bit bus.
  EXPECT_NEAR(theoretical_dram_gbps(2619000, 5120), 3352.32, 1e-6);
  EXPECT_EQ(theoretical_dram_gbps(0, 5120), 0.0);
}

TEST(DeviceInfo, CudaVersionFormat) {
  EXPECT_EQ(format_cuda_version(13000), "13.0");
  EXPECT_EQ(format_cuda_version(12040), "12.4");
}

TEST(DeviceInfo, ContextSaysWhenThereIsNoDevice) {
  build_info b{"cg", "90-real", "Release", "abc", "1.7.1", "GNU 12"};
  const auto entries = context_entries(std::nullopt, "no driver", b);
  bool saw_device = false, saw_mode = false;
  for (const auto& [k, v] : entries) {
    if (k == "gpu_device") saw_device = v == "none (no driver)";
    if (k == "membench_cache_mode") saw_mode = v == "cg";
  }
  EXPECT_TRUE(saw_device);
  EXPECT_TRUE(saw_mode);
}

TEST(DeviceInfo, ContextSaysItsFormatVersion) {
  const auto entries = context_entries(std::nullopt, "no driver", build_info{});
  const std::map<std::string, std::string> m(entries.begin(), entries.end());
  ASSERT_TRUE(m.count("membench_format_version"));
  EXPECT_EQ(m.at("membench_format_version"), format_version());
  EXPECT_EQ(format_version(), "1.0");
}

TEST(DeviceInfo, ContextSaysWhichVersionWroteIt) {
  const auto entries = context_entries(std::nullopt, "no driver", build_info{});
  const std::map<std::string, std::string> m(entries.begin(), entries.end());
  ASSERT_TRUE(m.count("membench_version"));
  EXPECT_EQ(m.at("membench_version"), full_version());
  EXPECT_TRUE(m.at("membench_version").starts_with(project_version())) << m.at("membench_version");
}

TEST(DeviceInfo, ContextDescribesTheDevice) {
  device_info d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.mem_clock_khz = 2619000;
  d.mem_bus_bits = 5120;
  d.driver_version = 13000;
  const auto entries = context_entries(d, "", build_info{});
  std::map<std::string, std::string> m(entries.begin(), entries.end());
  EXPECT_EQ(m["gpu_name"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(m["gpu_compute_capability"], "9.0");
  EXPECT_EQ(m["gpu_peak_dram_gbps"], "3352.3");
  EXPECT_EQ(m["cuda_driver_version"], "13.0");
}

TEST(CheckBuild, SaysWhenTheCudaMajorVersionDiffers) {
  EXPECT_FALSE(check_cuda_major(13000, 13020));
  const auto problem = check_cuda_major(13000, 12080);
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("built with CUDA 13.0 but runs with CUDA 12.8"), std::string::npos) << *problem;
}

TEST(ListDevices, MarksTheSelectedDevice) {
  listed_device a, b;
  a.info.index = 0;
  a.info.name = "NVIDIA H100 80GB HBM3";
  a.info.pci_bus_id = "00000000:19:00.0";
  a.info.sm_count = 132;
  a.info.l2_bytes = 50u << 20;
  a.info.global_mem_bytes = std::uint64_t{80} << 30;
  a.link = "gen5 x16";
  b = a;
  b.info.index = 1;
  b.info.pci_bus_id = "00000000:3B:00.0";
  const std::string text = format_device_list({a, b}, 1);
  EXPECT_NE(text.find("00000000:19:00.0"), std::string::npos);
  EXPECT_NE(text.find("132"), std::string::npos);
  EXPECT_NE(text.find("50MiB"), std::string::npos);
  EXPECT_NE(text.find("gen5 x16"), std::string::npos);
  const auto line_of = [&](const std::string& bus) { return text.substr(text.rfind('\n', text.find(bus)) + 1, 4); };
  EXPECT_EQ(line_of("00000000:3B:00.0").front(), '*') << text;
  EXPECT_NE(line_of("00000000:19:00.0").front(), '*') << text;
}

TEST(ListDevices, ShowsEachGpusUuidAndNvLinks) {
  listed_device a;
  a.info.pci_bus_id = "00000000:19:00.0";
  a.info.uuid = "GPU-4f8a1c2e-0b6d-9e3f-1a2b-3c4d5e6f7081";
  a.nvlink = describe_nvlink({18, 18, 6, 26.5625});
  const std::string text = format_device_list({a}, 0);
  EXPECT_NE(text.find("GPU-4f8a1c2e-0b6d-9e3f-1a2b-3c4d5e6f7081"), std::string::npos) << text;
  EXPECT_NE(text.find("18 x 26.6 GB/s (478.1 GB/s per direction)"), std::string::npos) << text;
}

TEST(Identity, UuidIsFormattedAsNvidiaSmiPrintsIt) {
  const std::array<unsigned char, 16> bytes{0x4f, 0x8a, 0x1c, 0x2e, 0x0b, 0x6d, 0x9e, 0x3f,
                                            0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x81};
  EXPECT_EQ(format_gpu_uuid(bytes), "GPU-4f8a1c2e-0b6d-9e3f-1a2b-3c4d5e6f7081");
}

TEST(Identity, NvLinkCeilingIsLinksUpTimesTheLinkRate) {
  const nvlink_links h100{18, 18, 6, 26.5625};
  EXPECT_DOUBLE_EQ(h100.peak_gbps(), 478.125);
  EXPECT_EQ(describe_nvlink({0, 18, 0, 0}), "none up of 18");
  EXPECT_EQ(describe_nvlink({}), "none");
  EXPECT_EQ(describe_nvlink({18, 18, 6, 0}), "18 up (NVML gives no link rate)") << "never 0 GB/s";
  gpu_identity no_rate;
  no_rate.nvlink = nvlink_links{18, 18, 6, 0};
  for (const auto& [k, v] : identity_context(no_rate)) EXPECT_NE(k, "nvlink_peak_gbps") << "no ceiling of 0";
}

TEST(Identity, ContextHoldsWhatNvmlAnsweredAndNothingElse) {
  gpu_identity id;
  id.serial = "1652823456789";
  id.vbios = "96.00.89.00.01";
  id.persistence = true;
  id.ecc_volatile = ecc_counts{3, 0};
  id.rows = remapped_rows{1, 0, true, false};
  id.nvlink = nvlink_links{18, 18, 6, 26.5625};
  const context_list c = identity_context(id);
  auto value = [&](const std::string& key) {
    for (const auto& [k, v] : c)
      if (k == key) return v;
    return std::string("(absent)");
  };
  EXPECT_EQ(value("gpu_serial"), "1652823456789");
  EXPECT_EQ(value("gpu_vbios"), "96.00.89.00.01");
  EXPECT_EQ(value("gpu_persistence_mode"), "on");
  EXPECT_EQ(value("gpu_ecc_errors_volatile"), "3 corrected, 0 uncorrected");
  EXPECT_EQ(value("gpu_remapped_rows"), "1 corrected, 0 uncorrected, remapping pending (reset the GPU)");
  EXPECT_EQ(value("nvlink_links"), "18");
  EXPECT_EQ(value("nvlink_peak_gbps"), "478.1");
  EXPECT_EQ(value("gpu_board_part"), "(absent)") << "NVML did not answer: no key, never an empty value";
  EXPECT_EQ(value("gpu_mig_mode"), "(absent)");
}

TEST(Identity, SchedulerJobFromTheEnvironment) {
  const auto slurm = [](const char* v) -> const char* {
    const std::string name = v;
    if (name == "SLURM_JOB_ID") return "481516";
    if (name == "SLURM_ARRAY_TASK_ID") return "7";
    if (name == "SLURMD_NODENAME") return "gpu-node-042";
    return nullptr;
  };
  const context_list c = scheduler_context(slurm);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], (std::pair<std::string, std::string>{"job_slurm_job_id", "481516"}));
  EXPECT_EQ(c[2], (std::pair<std::string, std::string>{"job_slurm_node", "gpu-node-042"}));
  const auto k8s = [](const char* v) -> const char* { return std::string(v) == "JOB_COMPLETION_INDEX" ? "3" : ""; };
  EXPECT_EQ(scheduler_context(k8s), (context_list{{"job_completion_index", "3"}})) << "empty variables are absent";
  EXPECT_FALSE(host_name().empty());
}

TEST(Identity, TheHostIsItsBootIdAndCpuModel) {
  const std::string dir = ::testing::TempDir();
  const std::string boot = dir + "membench_boot_id", cpuinfo = dir + "membench_cpuinfo";
  std::ofstream(boot) << "8f3c1e0a-52d4-4bde-9a0e-1c2b3d4e5f60\n";
  std::ofstream(cpuinfo) << "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 9454 48-Core Processor\n"
                            "\nprocessor\t: 1\nmodel name\t: something else\n";
  EXPECT_EQ(host_boot_id(boot), "8f3c1e0a-52d4-4bde-9a0e-1c2b3d4e5f60");
  EXPECT_EQ(host_cpu_model(cpuinfo), "AMD EPYC 9454 48-Core Processor") << "the first CPU's";
  std::ofstream(boot) << "  \n";
  std::ofstream(cpuinfo) << "processor\t: 0\nmodel name\t:\n";
  EXPECT_EQ(host_boot_id(boot), "unknown");
  EXPECT_EQ(host_cpu_model(cpuinfo), "unknown");
  EXPECT_EQ(host_boot_id(dir + "no_such_file"), "unknown");
  EXPECT_EQ(host_cpu_model(dir + "no_such_file"), "unknown");
  std::remove(boot.c_str());
  std::remove(cpuinfo.c_str());
}

TEST(Links, PciAddressesAsCudaAndNvmlSpellThem) {
  EXPECT_EQ(parse_pci_address("0000:17:00.0"), (pci_address{0, 0x17, 0}));
  EXPECT_EQ(parse_pci_address("00000001:C3:1f.0"), (pci_address{1, 0xc3, 0x1f}));
  EXPECT_FALSE(parse_pci_address("0000:17:00"));
  EXPECT_FALSE(parse_pci_address("unknown"));
  EXPECT_FALSE(parse_pci_address("0000:17:zz.0"));
}

// An HGX-style GPU: `links` NVLinks up, each to an NVSwitch, 25 GB/s each way; PCIe gen5 x16.
link_endpoint switched(unsigned bus, int links = 18) {
  link_endpoint e{{0, bus, 0}, {}, 25.0, 63.0};
  for (int i = 0; i < links; ++i) e.nvlinks.push_back({far_end_kind::nvswitch, {}});
  return e;
}

TEST(Links, NvSwitchLinksReachEveryGpu) {
  const link_endpoint a = switched(0x17), b = switched(0x65);
  EXPECT_EQ(nvlinks_reaching(a, b), 18);
  const auto c = pair_ceiling(a, b);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->gb_per_s, 450.0);
  EXPECT_EQ(c->nvlinks, 18);
  // Into one GPU from three at once: its own 18 links, not three times them.
  const auto agg = aggregate_ceiling(a, {b, switched(0x80), switched(0x90)});
  ASSERT_TRUE(agg);
  EXPECT_DOUBLE_EQ(agg->gb_per_s, 450.0);
  EXPECT_EQ(agg->nvlinks, 18);
}

TEST(Links, DirectLinksCountPerPeer) {
  // Four GPUs, four links between each two (a bridge-style mesh), 50 GB/s each way.
  auto gpu = [](unsigned bus) { return link_endpoint{{0, bus, 0}, {}, 50.0, 31.5}; };
  link_endpoint g[4] = {gpu(1), gpu(2), gpu(3), gpu(4)};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int l = 0; l < 4 && i != j; ++l) g[i].nvlinks.push_back({far_end_kind::gpu, g[j].pci});
  const auto c = pair_ceiling(g[0], g[1]);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->gb_per_s, 200.0);
  EXPECT_EQ(c->nvlinks, 4);
  const auto agg = aggregate_ceiling(g[0], {g[1], g[2], g[3]});
  ASSERT_TRUE(agg);
  EXPECT_DOUBLE_EQ(agg->gb_per_s, 600.0) << "twelve links into GPU 0";
  EXPECT_EQ(agg->nvlinks, 12);
  const auto two = aggregate_ceiling(g[0], {g[1], g[2]});
  ASSERT_TRUE(two);
  EXPECT_DOUBLE_EQ(two->gb_per_s, 400.0) << "only the links to the GPUs taking part";
}

TEST(Links, WithoutNvLinkThePathIsTheSlowerPcie) {
  link_endpoint a{{0, 1, 0}, {}, 0, 63.0}, b{{0, 2, 0}, {}, 0, 31.5};
  const auto c = pair_ceiling(a, b);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->gb_per_s, 31.5);
  EXPECT_EQ(c->nvlinks, 0);
  // Links to a third GPU only: still PCIe between these two.
  a.nvlinks.push_back({far_end_kind::gpu, {0, 9, 0}});
  EXPECT_EQ(pair_ceiling(a, b)->nvlinks, 0);
  // Into a from b and a gen5 peer: a's own PCIe link bounds them both.
  const auto agg = aggregate_ceiling(a, {b, link_endpoint{{0, 3, 0}, {}, 0, 63.0}});
  ASSERT_TRUE(agg);
  EXPECT_DOUBLE_EQ(agg->gb_per_s, 63.0);
  // Staged through the host (peer access off): PCIe even where NVLink connects them.
  const auto staged = staged_ceiling(switched(1), switched(2));
  ASSERT_TRUE(staged);
  EXPECT_DOUBLE_EQ(staged->gb_per_s, 63.0);
  EXPECT_EQ(staged->nvlinks, 0);
}

TEST(Links, NoCeilingWhereNvmlCannotTell) {
  link_endpoint a = switched(1), b = switched(2);
  a.nvlink_gbps = 0;  // NVML gave no rate
  EXPECT_FALSE(pair_ceiling(a, b));
  link_endpoint c{{0, 3, 0}, {{far_end_kind::other, {}}}, 25.0, 63.0}, d{{0, 4, 0}, {}, 25.0, 63.0};
  EXPECT_FALSE(pair_ceiling(c, d)) << "a link NVML cannot name might reach d: neither NVLink nor PCIe is sure";
  EXPECT_FALSE(pair_ceiling(link_endpoint{{0, 5, 0}, {}, 0, 0}, d)) << "no PCIe rate either";
  EXPECT_FALSE(aggregate_ceiling(d, {c}));
  EXPECT_FALSE(aggregate_ceiling(d, {}));
  // One side sees links to the other, the other none to it: no NVLink path, PCIe.
  link_endpoint e{{0, 6, 0}, {{far_end_kind::gpu, {0, 7, 0}}}, 25.0, 63.0}, f{{0, 7, 0}, {}, 25.0, 31.5};
  EXPECT_EQ(pair_ceiling(e, f)->nvlinks, 0);
}

TEST(Nvml, DescribesClockReasons) {
  EXPECT_EQ(describe_clock_reasons(0), "none");
  EXPECT_EQ(describe_clock_reasons(clock_reason::sw_power_cap | clock_reason::hw_thermal), "sw_power_cap+hw_thermal");
  EXPECT_EQ(describe_clock_reasons(0x1000 | clock_reason::gpu_idle), "gpu_idle+0x1000");
  EXPECT_TRUE(clock_reason::throttling & clock_reason::sw_power_cap);
  EXPECT_FALSE(clock_reason::throttling & clock_reason::gpu_idle);
}


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


TEST(Metrics, DefaultListHasTheLessonsCounters) {
  const auto& m = default_metrics();
  ASSERT_EQ(m.size(), 7u);
  EXPECT_EQ(m[0], "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
  EXPECT_EQ(m[1], "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct");
  EXPECT_EQ(m[6], "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  EXPECT_EQ(parse_metric_list("a.sum,b.pct"), (std::vector<std::string>{"a.sum", "b.pct"}));
}

TEST(Metrics, ParseRejectsBadLists) {
  EXPECT_THROW(parse_metric_list(""), std::invalid_argument);
  EXPECT_THROW(parse_metric_list("a,,b"), std::invalid_argument);
  EXPECT_THROW(parse_metric_list("a,"), std::invalid_argument);
  EXPECT_THROW(parse_metric_list("a b"), std::invalid_argument);
  EXPECT_THROW(parse_metric_list("a,a"), std::invalid_argument);
  EXPECT_EQ(parse_metric_list("lts__t_sector_hit_rate.pct").size(), 1u);
}

TEST(Metrics, SectorsPerRequestIsDerivedWhenBothSumsArePresent) {
  const std::vector<std::pair<std::string, double>> v{{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1250},
                                                      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 250},
                                                      {"lts__t_sector_hit_rate.pct", 50}};
  const auto c = metric_counters(v);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c.back().first, "sectors_per_request");
  EXPECT_DOUBLE_EQ(c.back().second, 5.0);
  // No requests (a kernel without global loads): no ratio rather than a division by zero.
  const auto none = metric_counters({{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0},
                                     {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 0}});
  EXPECT_EQ(none.size(), 2u);
  EXPECT_EQ(metric_counters({{"lts__t_sector_hit_rate.pct", 1}}).size(), 1u);
}

TEST(Metrics, SeveralKernelsKeepOnlyTheirSums) {
  const std::vector<std::string> m{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "lts__t_sector_hit_rate.pct"};
  const auto one = combine_kernels(m, {{100, 40}});
  ASSERT_EQ(one.size(), 2u);
  EXPECT_DOUBLE_EQ(one[1].second, 40);
  const auto two = combine_kernels(m, {{100, 40}, {50, 90}});
  ASSERT_EQ(two.size(), 1u) << "a hit rate of two kernels is not the sum of theirs";
  EXPECT_EQ(two[0].first, m[0]);
  EXPECT_DOUBLE_EQ(two[0].second, 150);
}

TEST(Metrics, UnavailableTokenIsOneLabelToken) {
  EXPECT_EQ(metrics_unavailable_token("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (cuptiProfilerGetCounterAvailability(&avail))"),
            "metrics:unavailable(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES_cuptiProfilerGetCounterAvailability_avail)");
  EXPECT_EQ(metrics_unavailable_token(" -- "), "metrics:unavailable(unknown)");
  EXPECT_EQ(metrics_unavailable_token("no device").find(' '), std::string::npos);
}

}  // namespace
}  // namespace membench

// cuBLAS and CUPTI are loaded at run time: a library that cannot be is named, with this
// build's CUDA version, and nothing is bound from it.
#include <functional>
#include <string>

#include <cuda_runtime_api.h>

#include "harness/core/cublas.hpp"
#include "harness/core/cuda_library.hpp"
#include "harness/core/errors.hpp"

namespace membench {
namespace {

std::string load_failure(const std::function<void()>& load) {
  try {
    load();
  } catch (const infeasible& e) {
    return e.what();
  }
  return "";
}

TEST(CudaLibrary, NamesTheSonameOfThisBuildsMajorVersion) {
  EXPECT_EQ(cuda_library_name("libcublas"), "libcublas.so." + std::to_string(CUDART_VERSION / 1000));
  EXPECT_EQ(cuda_build_version(), std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10));
}

TEST(CudaLibrary, AMissingLibraryIsNamedWithThisBuildsVersion) {
  const std::string why = load_failure([] { cuda_library("libmembench_no_such_library.so.13"); });
  EXPECT_EQ(why.rfind("libmembench_no_such_library.so.13 not loadable (this build is CUDA " + cuda_build_version() +
                          "; this machine's CUDA libraries are another version or not on LD_LIBRARY_PATH): ",
                      0),
            0u)
      << why;
  EXPECT_NE(why.find("cannot open shared object file"), std::string::npos) << why;
}

TEST(CudaLibrary, AMissingSymbolIsNamed) {
  const cuda_library libc("libc.so.6");
  void (*fn)() = nullptr;
  const std::string why = load_failure([&] { libc.bind(fn, "membench_no_such_symbol"); });
  EXPECT_NE(why.find("libc.so.6 has no membench_no_such_symbol"), std::string::npos) << why;
  EXPECT_EQ(fn, nullptr);
}

TEST(CudaLibrary, CublasLoaderNamesTheLibraryItCannotLoad) {
  const std::string why = load_failure([] { load_cublas("libcublas.so.0"); });
  EXPECT_EQ(why.rfind("libcublas.so.0 not loadable (this build is CUDA ", 0), 0u) << why;
}

// Where this build's cuBLAS is installed, every entry point binds (no GPU needed).
TEST(CudaLibrary, CublasBindsEveryEntryPointWhereInstalled) {
  if (const auto& why = cublas_unavailable()) GTEST_SKIP() << *why;
  EXPECT_STREQ(cublas().status_name(CUBLAS_STATUS_SUCCESS), "CUBLAS_STATUS_SUCCESS");
}

}  // namespace
}  // namespace membench
