#include "registry.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace membench {
namespace {

std::map<std::string, std::vector<bench_case> (*)()>& families() {
  static std::map<std::string, std::vector<bench_case> (*)()> f;
  return f;
}

}  // namespace

bench_case make_case(const bench_name& name, std::function<void(bench_context&)> body) {
  std::string n = name.str();
  return {n, [n, body = std::move(body)](benchmark::State& state) { run_benchmark(state, n, body); }};
}

family_registrar::family_registrar(const char* family, std::vector<bench_case> (*make)()) {
  if (!families().emplace(family, make).second) throw std::logic_error(std::string("family registered twice: ") + family);
}

std::vector<std::string> register_all() {
  std::vector<std::string> names;
  for (const auto& [family, make] : families()) {
    for (auto& c : make()) {
      benchmark::RegisterBenchmark(c.name.c_str(), c.run)->UseManualTime()->Unit(benchmark::kMicrosecond);
      names.push_back(std::move(c.name));
    }
  }
  return names;
}

}  // namespace membench
