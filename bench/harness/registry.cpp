#include "registry.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace membench {
namespace {

struct family {
  std::vector<bench_case> (*make)();
  bool opt_in;
};

std::map<std::string, family>& families() {
  static std::map<std::string, family> f;
  return f;
}

}  // namespace

bench_case make_case(const bench_name& name, std::function<void(bench_context&)> body) {
  std::string n = name.str();
  return {n, [n, body = std::move(body)](benchmark::State& state) { run_benchmark(state, n, body); }};
}

family_registrar::family_registrar(const char* name, std::vector<bench_case> (*make)(), bool opt_in) {
  if (!families().emplace(name, family{make, opt_in}).second)
    throw std::logic_error(std::string("family registered twice: ") + name);
}

std::vector<std::string> register_all(bool include_opt_in) {
  std::vector<std::string> names;
  for (const auto& [name, f] : families()) {
    if (f.opt_in && !include_opt_in) continue;
    for (auto& c : f.make()) {
      benchmark::RegisterBenchmark(c.name.c_str(), c.run)->UseManualTime()->Unit(benchmark::kMicrosecond);
      names.push_back(std::move(c.name));
    }
  }
  return names;
}

}  // namespace membench
