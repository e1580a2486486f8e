#include "nvml.hpp"

#include <dlfcn.h>

#include <array>

#include <fmt/format.h>

#include "common/schema.hpp"

namespace membench {

std::string describe_clock_reasons(std::uint64_t reasons) {
  static constexpr std::array<std::pair<std::uint64_t, const char*>, 9> names{{
      {clock_reason::gpu_idle, "gpu_idle"},
      {clock_reason::applications_clocks, "applications_clocks"},
      {clock_reason::sw_power_cap, "sw_power_cap"},
      {clock_reason::hw_slowdown, "hw_slowdown"},
      {clock_reason::sync_boost, "sync_boost"},
      {clock_reason::sw_thermal, "sw_thermal"},
      {clock_reason::hw_thermal, "hw_thermal"},
      {clock_reason::hw_power_brake, "hw_power_brake"},
      {clock_reason::display_clocks, "display_clocks"},
  }};
  if (reasons == 0) return "none";
  std::string out;
  for (auto [bit, name] : names) {
    if ((reasons & bit) == 0) continue;
    if (!out.empty()) out += '+';
    out += name;
    reasons &= ~bit;
  }
  if (reasons != 0) out += fmt::format("{}{:#x}", out.empty() ? "" : "+", reasons);
  return out;
}

// The few NVML entry points used, declared from NVML's documented C signatures.
struct nvml_device::api {
  using device_t = void*;
  void* lib = nullptr;
  device_t dev = nullptr;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  const char* (*error_string)(int) = nullptr;
  int (*by_pci)(const char*, device_t*) = nullptr;
  int (*clock)(device_t, int, unsigned*) = nullptr;
  int (*max_clock)(device_t, int, unsigned*) = nullptr;
  int (*power)(device_t, unsigned*) = nullptr;
  int (*power_limit)(device_t, unsigned*) = nullptr;
  int (*temperature)(device_t, int, unsigned*) = nullptr;
  int (*reasons)(device_t, unsigned long long*) = nullptr;
  int (*driver_version)(char*, unsigned) = nullptr;
  int (*pcie_max_gen)(device_t, unsigned*) = nullptr;  // optional: the PCIe link
  int (*pcie_max_width)(device_t, unsigned*) = nullptr;
  int (*pcie_cur_gen)(device_t, unsigned*) = nullptr;
  int (*pcie_cur_width)(device_t, unsigned*) = nullptr;
  struct violation_time {
    unsigned long long reference_ns, violation_ns;
  };
  int (*violation)(device_t, int, violation_time*) = nullptr;  // optional: time spent power or thermal limited

  static constexpr int clock_sm = 1, clock_mem = 2, temperature_gpu = 0;
  static constexpr int policy_power = 0, policy_thermal = 1;  // nvmlPerfPolicyType_t

  template <class F>
  bool bind(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    return f != nullptr;
  }
};

std::unique_ptr<nvml_device> nvml_device::open(const std::string& pci_bus_id, std::string& why_not) {
  auto a = std::make_unique<api>();
  a->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (a->lib == nullptr) {
    const char* e = dlerror();
    why_not = fmt::format("libnvidia-ml.so.1 not loadable ({})", e != nullptr ? e : "unknown");
    return nullptr;
  }
  const bool bound = a->bind(a->init, "nvmlInit_v2") && a->bind(a->shutdown, "nvmlShutdown") &&
                     a->bind(a->error_string, "nvmlErrorString") &&
                     a->bind(a->by_pci, "nvmlDeviceGetHandleByPciBusId_v2") &&
                     a->bind(a->clock, "nvmlDeviceGetClockInfo") && a->bind(a->max_clock, "nvmlDeviceGetMaxClockInfo") &&
                     a->bind(a->power, "nvmlDeviceGetPowerUsage") &&
                     a->bind(a->power_limit, "nvmlDeviceGetEnforcedPowerLimit") &&
                     a->bind(a->temperature, "nvmlDeviceGetTemperature") &&
                     a->bind(a->driver_version, "nvmlSystemGetDriverVersion") &&
                     (a->bind(a->reasons, "nvmlDeviceGetCurrentClocksEventReasons") ||
                      a->bind(a->reasons, "nvmlDeviceGetCurrentClocksThrottleReasons"));
  if (!bound) {
    why_not = "libnvidia-ml.so.1 lacks an expected entry point";
    dlclose(a->lib);
    return nullptr;
  }
  if (int rc = a->init(); rc != 0) {
    why_not = fmt::format("nvmlInit failed: {}", a->error_string(rc));
    dlclose(a->lib);
    return nullptr;
  }
  if (int rc = a->by_pci(pci_bus_id.c_str(), &a->dev); rc != 0) {
    why_not = fmt::format("NVML has no device at {}: {}", pci_bus_id, a->error_string(rc));
    a->shutdown();
    dlclose(a->lib);
    return nullptr;
  }
  (void)(a->bind(a->pcie_max_gen, "nvmlDeviceGetMaxPcieLinkGeneration") &&
         a->bind(a->pcie_max_width, "nvmlDeviceGetMaxPcieLinkWidth") &&
         a->bind(a->pcie_cur_gen, "nvmlDeviceGetCurrPcieLinkGeneration") &&
         a->bind(a->pcie_cur_width, "nvmlDeviceGetCurrPcieLinkWidth"));
  if (a->bind(a->violation, "nvmlDeviceGetViolationStatus")) {
    api::violation_time v{};
    if (a->violation(a->dev, api::policy_power, &v) != 0) a->violation = nullptr;  // not supported here
  }
  std::unique_ptr<nvml_device> d(new nvml_device());
  d->api_ = std::move(a);
  return d;
}

nvml_device::~nvml_device() {
  if (api_ && api_->lib != nullptr) {
    api_->shutdown();
    dlclose(api_->lib);
  }
}

std::optional<gpu_snapshot> nvml_device::read() const noexcept {
  const api& a = *api_;
  unsigned sm = 0, mem = 0, mw = 0, temp = 0;
  unsigned long long reasons = 0;
  if (a.clock(a.dev, api::clock_sm, &sm) != 0 || a.clock(a.dev, api::clock_mem, &mem) != 0 ||
      a.power(a.dev, &mw) != 0 || a.temperature(a.dev, api::temperature_gpu, &temp) != 0 ||
      a.reasons(a.dev, &reasons) != 0)
    return std::nullopt;
  return gpu_snapshot{static_cast<double>(sm), static_cast<double>(mem), mw / 1000.0, static_cast<double>(temp),
                      reasons};
}

std::optional<std::uint64_t> nvml_device::reasons() const noexcept {
  unsigned long long r = 0;
  if (api_->reasons(api_->dev, &r) != 0) return std::nullopt;
  return r;
}

std::optional<std::uint64_t> nvml_device::limited_ns() const noexcept {
  const api& a = *api_;
  if (a.violation == nullptr) return std::nullopt;
  api::violation_time power{}, thermal{};
  if (a.violation(a.dev, api::policy_power, &power) != 0 || a.violation(a.dev, api::policy_thermal, &thermal) != 0)
    return std::nullopt;
  return power.violation_ns + thermal.violation_ns;
}

std::optional<nvml_pcie> nvml_device::pcie() const noexcept {
  const api& a = *api_;
  if (a.pcie_max_gen == nullptr || a.pcie_max_width == nullptr || a.pcie_cur_gen == nullptr ||
      a.pcie_cur_width == nullptr)
    return std::nullopt;
  unsigned g = 0, w = 0, cg = 0, cw = 0;
  if (a.pcie_max_gen(a.dev, &g) != 0 || a.pcie_max_width(a.dev, &w) != 0 || a.pcie_cur_gen(a.dev, &cg) != 0 ||
      a.pcie_cur_width(a.dev, &cw) != 0)
    return std::nullopt;
  return nvml_pcie{static_cast<int>(g), static_cast<int>(w), static_cast<int>(cg), static_cast<int>(cw)};
}

std::vector<std::pair<std::string, std::string>> nvml_device::context() const {
  using schema::context_key;
  using schema::entry;
  const api& a = *api_;
  std::vector<std::pair<std::string, std::string>> out;
  std::array<char, 96> version{};
  if (a.driver_version(version.data(), static_cast<unsigned>(version.size())) == 0)
    out.push_back(entry(context_key("nvml_driver_version"), version.data()));
  unsigned v = 0;
  if (a.max_clock(a.dev, api::clock_sm, &v) == 0) out.push_back(entry(context_key("nvml_max_sm_clock_mhz"), fmt::format("{}", v)));
  if (a.max_clock(a.dev, api::clock_mem, &v) == 0) out.push_back(entry(context_key("nvml_max_mem_clock_mhz"), fmt::format("{}", v)));
  if (a.power_limit(a.dev, &v) == 0) out.push_back(entry(context_key("nvml_power_limit_w"), fmt::format("{:.0f}", v / 1000.0)));
  if (auto s = read()) {
    out.push_back(entry(context_key("nvml_start_sm_clock_mhz"), fmt::format("{:.0f}", s->sm_mhz)));
    out.push_back(entry(context_key("nvml_start_temp_c"), fmt::format("{:.0f}", s->temp_c)));
    out.push_back(entry(context_key("nvml_start_power_w"), fmt::format("{:.1f}", s->power_w)));
    out.push_back(entry(context_key("nvml_start_clock_reasons"), describe_clock_reasons(s->reasons)));
  }
  return out;
}

}  // namespace membench
