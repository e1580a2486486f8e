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
  int (*cpu_affinity)(device_t, unsigned, unsigned long*) = nullptr;  // optional: the CPUs local to the GPU
  // Optional, for the board's identity (identity.hpp); each absent one leaves its fact out.
  int (*uuid)(device_t, char*, unsigned) = nullptr;
  int (*serial)(device_t, char*, unsigned) = nullptr;
  int (*board_part)(device_t, char*, unsigned) = nullptr;
  int (*vbios)(device_t, char*, unsigned) = nullptr;
  int (*persistence)(device_t, int*) = nullptr;
  int (*ecc_mode)(device_t, int*, int*) = nullptr;
  int (*ecc_total)(device_t, int, int, unsigned long long*) = nullptr;
  int (*remapped)(device_t, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
  int (*mig_mode)(device_t, unsigned*, unsigned*) = nullptr;
  int (*app_clock)(device_t, int, unsigned*) = nullptr;
  int (*nvlink_state)(device_t, unsigned, int*) = nullptr;
  int (*nvlink_version)(device_t, unsigned, unsigned*) = nullptr;
  struct pci_info {  // nvmlPciInfo_t
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
  };
  int (*nvlink_remote_pci)(device_t, unsigned, pci_info*) = nullptr;
  int (*nvlink_remote_type)(device_t, unsigned, int*) = nullptr;  // nvmlIntNvLinkDeviceType_t
  struct field_value {  // nvmlFieldValue_t
    unsigned field_id, scope_id;
    long long timestamp, latency_us;
    int value_type, result;
    unsigned long long value;  // nvmlValue_t: 8 bytes; unsigned int fields in its low half
  };
  int (*field_values)(device_t, int, field_value*) = nullptr;

  static constexpr int clock_sm = 1, clock_mem = 2, temperature_gpu = 0;
  static constexpr int policy_power = 0, policy_thermal = 1;  // nvmlPerfPolicyType_t
  static constexpr int ecc_corrected = 0, ecc_uncorrected = 1, ecc_volatile = 0, ecc_aggregate = 1;
  static constexpr unsigned max_nvlinks = 18;                    // NVML_NVLINK_MAX_LINKS
  static constexpr unsigned field_nvlink_speed_common = 90;     // NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON
  static constexpr unsigned field_nvlink_speed = 164;           // NVML_FI_DEV_NVLINK_GET_SPEED (scope: the link)
  static constexpr int value_unsigned_int = 1;                   // NVML_VALUE_TYPE_UNSIGNED_INT
  static constexpr int remote_gpu = 0, remote_switch = 2;        // NVML_NVLINK_DEVICE_TYPE_GPU, _SWITCH

  template <class F>
  bool bind(F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    return f != nullptr;
  }
};

namespace {

void bind_identity(nvml_device::api& a) {
  a.bind(a.uuid, "nvmlDeviceGetUUID");
  a.bind(a.serial, "nvmlDeviceGetSerial");
  a.bind(a.board_part, "nvmlDeviceGetBoardPartNumber");
  a.bind(a.vbios, "nvmlDeviceGetVbiosVersion");
  a.bind(a.persistence, "nvmlDeviceGetPersistenceMode");
  a.bind(a.ecc_mode, "nvmlDeviceGetEccMode");
  a.bind(a.ecc_total, "nvmlDeviceGetTotalEccErrors");
  a.bind(a.remapped, "nvmlDeviceGetRemappedRows");
  a.bind(a.mig_mode, "nvmlDeviceGetMigMode");
  a.bind(a.app_clock, "nvmlDeviceGetApplicationsClock");
  a.bind(a.nvlink_state, "nvmlDeviceGetNvLinkState");
  a.bind(a.nvlink_version, "nvmlDeviceGetNvLinkVersion");
  a.bind(a.field_values, "nvmlDeviceGetFieldValues");
  a.bind(a.nvlink_remote_pci, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
  a.bind(a.nvlink_remote_type, "nvmlDeviceGetNvLinkRemoteDeviceType");
}

// A string NVML writes into a buffer; empty where it does not answer.
std::string nvml_text(int (*f)(void*, char*, unsigned), void* dev) {
  std::array<char, 96> buf{};
  if (f == nullptr || f(dev, buf.data(), static_cast<unsigned>(buf.size())) != 0) return {};
  return buf.data();
}

}  // namespace

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
  bind_identity(*a);
  (void)a->bind(a->cpu_affinity, "nvmlDeviceGetCpuAffinity");
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

std::string nvml_device::uuid() const { return nvml_text(api_->uuid, api_->dev); }

std::vector<int> nvml_device::local_cpus() const {
  const api& a = *api_;
  constexpr unsigned words = 16;  // 1024 CPUs
  std::array<unsigned long, words> mask{};
  if (a.cpu_affinity == nullptr || a.cpu_affinity(a.dev, words, mask.data()) != 0) return {};
  constexpr unsigned bits = 8 * sizeof(unsigned long);
  std::vector<int> cpus;
  for (unsigned c = 0; c < words * bits; ++c)
    if ((mask[c / bits] >> (c % bits)) & 1UL) cpus.push_back(static_cast<int>(c));
  return cpus;
}

std::optional<nvlink_links> nvml_device::nvlink() const {
  const api& a = *api_;
  if (a.nvlink_state == nullptr) return std::nullopt;
  nvlink_links l;
  unsigned first_up = 0;
  for (unsigned link = 0; link < api::max_nvlinks; ++link) {
    int active = 0;
    if (a.nvlink_state(a.dev, link, &active) != 0) continue;  // not present (or not supported)
    ++l.present;
    if (active == 0) continue;
    if (l.up++ == 0) first_up = link;
  }
  if (l.present == 0) return std::nullopt;
  if (l.up > 0 && a.nvlink_version != nullptr) a.nvlink_version(a.dev, first_up, &l.version_code);
  // The per-link speed first; some drivers answer the common speed field with 0.
  for (const auto& [field, scope] : {std::pair{api::field_nvlink_speed, first_up}, std::pair{api::field_nvlink_speed_common, 0u}}) {
    api::field_value speed{field, scope, 0, 0, 0, 0, 0};
    if (l.up == 0 || a.field_values == nullptr || a.field_values(a.dev, 1, &speed) != 0 || speed.result != 0) continue;
    const auto mb_per_s = speed.value_type == api::value_unsigned_int ? speed.value & 0xFFFFFFFFull : speed.value;
    if (mb_per_s == 0) continue;
    l.link_gbps = static_cast<double>(mb_per_s) / 1000.0;
    break;
  }
  return l;
}

std::vector<nvlink_far_end> nvml_device::nvlink_far_ends() const {
  const api& a = *api_;
  std::vector<nvlink_far_end> out;
  if (a.nvlink_state == nullptr) return out;
  for (unsigned link = 0; link < api::max_nvlinks; ++link) {
    int active = 0;
    if (a.nvlink_state(a.dev, link, &active) != 0 || active == 0) continue;
    nvlink_far_end end;  // `other` unless NVML names both the kind and, for a GPU, its address
    api::pci_info pci{};
    int type = -1;
    const bool typed = a.nvlink_remote_type != nullptr && a.nvlink_remote_type(a.dev, link, &type) == 0;
    const bool placed = a.nvlink_remote_pci != nullptr && a.nvlink_remote_pci(a.dev, link, &pci) == 0;
    if (typed && type == api::remote_switch) end.kind = far_end_kind::nvswitch;
    if (typed && type == api::remote_gpu && placed) {
      end.kind = far_end_kind::gpu;
      end.pci = pci_address{pci.domain, pci.bus, pci.device};
    }
    out.push_back(end);
  }
  return out;
}

gpu_identity nvml_device::identity() const {
  const api& a = *api_;
  gpu_identity id;
  id.serial = nvml_text(a.serial, a.dev);
  id.board_part = nvml_text(a.board_part, a.dev);
  id.vbios = nvml_text(a.vbios, a.dev);
  if (int on = 0; a.persistence != nullptr && a.persistence(a.dev, &on) == 0) id.persistence = on != 0;
  if (int now = 0, pending = 0; a.ecc_mode != nullptr && a.ecc_mode(a.dev, &now, &pending) == 0) id.ecc_pending = pending != 0;
  auto ecc = [&](int counter) -> std::optional<ecc_counts> {
    unsigned long long corrected = 0, uncorrected = 0;
    if (a.ecc_total == nullptr || a.ecc_total(a.dev, api::ecc_corrected, counter, &corrected) != 0 ||
        a.ecc_total(a.dev, api::ecc_uncorrected, counter, &uncorrected) != 0)
      return std::nullopt;
    return ecc_counts{corrected, uncorrected};
  };
  id.ecc_volatile = ecc(api::ecc_volatile);
  id.ecc_aggregate = ecc(api::ecc_aggregate);
  if (unsigned c = 0, u = 0, p = 0, f = 0; a.remapped != nullptr && a.remapped(a.dev, &c, &u, &p, &f) == 0)
    id.rows = remapped_rows{c, u, p != 0, f != 0};
  if (unsigned now = 0, pending = 0; a.mig_mode != nullptr && a.mig_mode(a.dev, &now, &pending) == 0) id.mig_mode = now;
  if (unsigned v = 0; a.app_clock != nullptr && a.app_clock(a.dev, api::clock_sm, &v) == 0) id.app_sm_mhz = v;
  if (unsigned v = 0; a.app_clock != nullptr && a.app_clock(a.dev, api::clock_mem, &v) == 0) id.app_mem_mhz = v;
  id.nvlink = nvlink();
  return id;
}

}  // namespace membench
