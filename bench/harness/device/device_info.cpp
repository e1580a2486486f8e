#include "device_info.hpp"

#include <array>
#include <cstring>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "common/schema.hpp"
#include "common/version.hpp"
#include "harness/core/check.hpp"
#include "harness/device/identity.hpp"

namespace membench {

double theoretical_dram_gbps(int mem_clock_khz, int bus_bits) {
  return 2.0 * static_cast<double>(mem_clock_khz) * 1e3 * (static_cast<double>(bus_bits) / 8.0) / 1e9;
}

double device_info::peak_dram_gbps() const { return theoretical_dram_gbps(mem_clock_khz, mem_bus_bits); }

std::string format_cuda_version(int v) { return fmt::format("{}.{}", v / 1000, (v % 1000) / 10); }

std::vector<std::pair<std::string, std::string>> context_entries(const std::optional<device_info>& device,
                                                                  const std::string& no_device_reason,
                                                                  const build_info& build) {
  std::vector<std::pair<std::string, std::string>> out{
      schema::entry(schema::context_key("membench_cache_mode"), build.cache_mode),
      schema::entry(schema::context_key("membench_cuda_architectures"), build.cuda_architectures),
      schema::entry(schema::context_key("membench_build_type"), build.build_type),
      schema::entry(schema::context_key("membench_git_commit"), build.git_commit),
      schema::entry(schema::context_key("membench_version"), full_version()),
      schema::entry(schema::context_key("membench_benchmark_version"), build.benchmark_version),
      schema::entry(schema::context_key("membench_compiler"), build.compiler),
      schema::entry(schema::context_key("membench_format_version"), format_version()),
  };
  if (!device) {
    out.push_back(schema::entry(schema::context_key("gpu_device"), fmt::format("none ({})", no_device_reason)));
    return out;
  }
  const device_info& d = *device;
  const double peak = d.peak_dram_gbps();
  out.insert(out.end(), {
      schema::entry(schema::context_key("gpu_device"), fmt::format("{}", d.index)),
      schema::entry(schema::context_key("gpu_name"), d.name),
      schema::entry(schema::context_key("gpu_compute_capability"), fmt::format("{}.{}", d.cc_major, d.cc_minor)),
      schema::entry(schema::context_key("gpu_sm_count"), fmt::format("{}", d.sm_count)),
      schema::entry(schema::context_key("gpu_sm_clock_mhz"), fmt::format("{}", d.sm_clock_khz / 1000)),
      schema::entry(schema::context_key("gpu_l2_bytes"), fmt::format("{}", d.l2_bytes)),
      schema::entry(schema::context_key("gpu_global_mem_bytes"), fmt::format("{}", d.global_mem_bytes)),
      schema::entry(schema::context_key("gpu_smem_per_sm_bytes"), fmt::format("{}", d.smem_per_sm_bytes)),
      schema::entry(schema::context_key("gpu_mem_bus_bits"), fmt::format("{}", d.mem_bus_bits)),
      schema::entry(schema::context_key("gpu_mem_clock_mhz"), fmt::format("{}", d.mem_clock_khz / 1000)),
      schema::entry(schema::context_key("gpu_peak_dram_gbps"), peak > 0 ? fmt::format("{:.1f}", peak) : "unknown"),
      schema::entry(schema::context_key("gpu_ecc"), d.ecc ? "on" : "off"),
      schema::entry(schema::context_key("gpu_pci_bus_id"), d.pci_bus_id),
      schema::entry(schema::context_key("gpu_uuid"), d.uuid),
      schema::entry(schema::context_key("cuda_driver_version"), format_cuda_version(d.driver_version)),
      schema::entry(schema::context_key("cuda_runtime_version"), format_cuda_version(d.runtime_version)),
  });
  return out;
}

device_info query_device(int index) {
  device_info d;
  d.index = index;
  cudaDeviceProp p{};
  MEMBENCH_CUDA_CHECK(cudaGetDeviceProperties(&p, index));
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = static_cast<std::uint64_t>(p.l2CacheSize);
  d.global_mem_bytes = p.totalGlobalMem;
  d.smem_per_sm_bytes = p.sharedMemPerMultiprocessor;
  d.smem_per_block_optin_bytes = p.sharedMemPerBlockOptin;
  // CUDA 13 dropped the clock fields from cudaDeviceProp; the attributes remain.
  MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&d.mem_bus_bits, cudaDevAttrGlobalMemoryBusWidth, index));
  MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, index));
  MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_clock_khz, cudaDevAttrClockRate, index));
  int ecc = 0;
  MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&ecc, cudaDevAttrEccEnabled, index));
  d.ecc = ecc != 0;
  char bus[64] = {};
  MEMBENCH_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, index));
  d.pci_bus_id = bus;
  std::array<unsigned char, 16> uuid{};
  std::memcpy(uuid.data(), p.uuid.bytes, uuid.size());
  d.uuid = format_gpu_uuid(uuid);
  MEMBENCH_CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  MEMBENCH_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  return d;
}

}  // namespace membench
