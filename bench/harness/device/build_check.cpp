#include "build_check.hpp"

#include <charconv>

#include <fmt/format.h>

#include "common/schema.hpp"
#include "harness/device/build_probe.hpp"

namespace membench {

std::optional<std::string> check_build(std::string_view cache_mode, std::string_view architectures,
                                       const probe_attributes& probe) {
  if (cache_mode != "ca" && probe.cache_mode_ca != 0) {
    return fmt::format("this is the '{}' build but its probe kernel reports cacheModeCA=1", cache_mode);
  }
  const bool l1_hit = probe.load_cycles < l1_hit_cycles_max;
  if (cache_mode == "ca" && !l1_hit) {
    return fmt::format("this is the 'ca' build but its loads miss L1 ({:.0f} cycles per dependent load)",
                       probe.load_cycles);
  }
  if (cache_mode == "cg" && l1_hit) {
    return fmt::format("this is the 'cg' build but its loads hit L1 ({:.0f} cycles per dependent load)",
                       probe.load_cycles);
  }
  // The loaded SASS must be one we compiled with ptxas; anything else came from the
  // driver JIT-compiling PTX, which drops the -dlcm flag.
  std::string_view rest = architectures;
  while (!rest.empty()) {
    const auto semi = rest.find_first_of(",;");
    std::string_view entry = rest.substr(0, semi);
    int arch = 0;
    std::from_chars(entry.data(), entry.data() + entry.size(), arch);
    if (arch == probe.binary_version) return std::nullopt;
    rest = semi == std::string_view::npos ? std::string_view{} : rest.substr(semi + 1);
  }
  return fmt::format("the loaded kernels are sm_{} code, which this build did not compile (architectures '{}'): "
                     "they were JIT-compiled and the '{}' cache mode is not guaranteed; rebuild with "
                     "-DCMAKE_CUDA_ARCHITECTURES=<your GPU>-real",
                     probe.binary_version, architectures, cache_mode);
}

std::vector<std::pair<std::string, std::string>> probe_context(const probe_attributes& probe) {
  using schema::context_key;
  return {schema::entry(context_key("membench_probe_cache_mode_ca"), fmt::format("{}", probe.cache_mode_ca)),
          schema::entry(context_key("membench_probe_binary_version"), fmt::format("{}", probe.binary_version)),
          schema::entry(context_key("membench_probe_load_cycles"), fmt::format("{:.1f}", probe.load_cycles))};
}

std::optional<std::string> check_cuda_major(int built, int running) {
  if (built / 1000 == running / 1000) return std::nullopt;
  return fmt::format("this bundle was built with CUDA {}.{} but runs with CUDA {}.{} (a different major version): "
                     "rebuild it with this machine's toolkit, or run it where CUDA {} is installed",
                     built / 1000, built % 1000 / 10, running / 1000, running % 1000 / 10, built / 1000);
}

}  // namespace membench
