#include "cli.hpp"

#include <charconv>

#include <fmt/format.h>

namespace membench {

bool wants_list_only(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--benchmark_list_tests" || a == "--benchmark_list_tests=true" || a == "--benchmark_list_tests=1")
      return true;
  }
  return false;
}

bool has_arg_prefix(const std::vector<std::string>& args, std::string_view prefix) {
  for (const auto& a : args) {
    if (std::string_view(a).substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

std::string single_iteration_arg(std::string_view version) {
  int major = 0, minor = 0;
  const char* p = version.data();
  const char* end = p + version.size();
  auto r = std::from_chars(p, end, major);
  if (r.ptr < end && *r.ptr == '.') std::from_chars(r.ptr + 1, end, minor);
  const bool suffix = major > 1 || (major == 1 && minor >= 8);
  return suffix ? "--benchmark_min_time=1x" : "--benchmark_min_time=0";
}

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

}  // namespace membench
