// Static registration without touching the GPU: each family file adds a maker; main calls
// them and registers every case, families sorted by name, cases in the family's order.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "naming.hpp"
#include "runner.hpp"

namespace membench {

struct bench_case {
  std::string name;
  std::function<void(benchmark::State&)> run;
};

/// A benchmark case whose body runs inside run_benchmark (the error boundary).
bench_case make_case(const bench_name& name, std::function<void(bench_context&)> body);

/// `opt_in` families (the fault demonstration) are registered only when asked for, so
/// the default list and every filter over it stay the same.
struct family_registrar {
  family_registrar(const char* family, std::vector<bench_case> (*make)(), bool opt_in = false);
};

/// Registers every family with Google Benchmark; returns the names in order.
std::vector<std::string> register_all(bool include_opt_in = false);

}  // namespace membench
