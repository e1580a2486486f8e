// How membench-fleet-evaluate draws a synthetic fleet from the real GPUs of a stratum (draw.hpp).
#include "fleet/draw.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace membench::report::fleet_test {
namespace {

// A GPU's runs split by kind: runs with GPU rows, runs of host rows alone. A drawn GPU takes
// its runs among those of the same kind, so that it keeps the make-up of its original.
std::vector<std::size_t> runs_of_kind(const matrix& m, const matrix::gpu& src, bool with_gpu_rows) {
  const std::size_t n = m.rows.size();
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < src.runs; ++k) {
    bool gpu_rows = false;
    for (std::size_t r = 0; r < n && !gpu_rows; ++r) gpu_rows = m.rows[r].p == part::gpu && !std::isnan(src.at(k, r, n));
    if (gpu_rows == with_gpu_rows) out.push_back(k);
  }
  return out;
}

// The runs one drawn GPU takes from its original's runs of one kind. Fewer than five runs are
// taken as measured: a draw among them makes a GPU's runs look alike far too often.
std::vector<std::size_t> chosen_runs(std::vector<std::size_t> runs, draw_mode mode, std::mt19937_64& rng) {
  if (runs.size() < 5) return runs;
  if (mode == draw_mode::distinct) {
    std::shuffle(runs.begin(), runs.end(), rng);
    runs.pop_back();
    return runs;
  }
  std::uniform_int_distribution<std::size_t> pick(0, runs.size() - 1);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < runs.size(); ++i) out.push_back(runs[pick(rng)]);
  return out;
}

matrix::gpu drawn_gpu(const matrix& m, const matrix::gpu& src, draw_mode mode, std::mt19937_64& rng) {
  const std::size_t n = m.rows.size();
  std::vector<std::size_t> from;
  for (bool kind : {false, true}) {
    for (std::size_t k : chosen_runs(runs_of_kind(m, src, kind), mode, rng)) from.push_back(k);
  }
  matrix::gpu g;
  g.runs = from.size();
  g.logs.resize(from.size() * n);
  for (std::size_t to = 0; to < from.size(); ++to) {
    std::copy_n(src.logs.begin() + static_cast<std::ptrdiff_t>(from[to] * n), n,
                g.logs.begin() + static_cast<std::ptrdiff_t>(to * n));
  }
  return g;
}

// Which real GPU each of `size` drawn GPUs copies.
std::vector<std::size_t> originals(std::size_t real, std::size_t size, draw_mode mode, std::mt19937_64& rng) {
  std::vector<std::size_t> out;
  if (mode == draw_mode::bootstrap) {
    std::uniform_int_distribution<std::size_t> pick(0, real - 1);
    for (std::size_t g = 0; g < size; ++g) out.push_back(pick(rng));
    return out;
  }
  std::vector<std::size_t> cycle(real);
  std::iota(cycle.begin(), cycle.end(), std::size_t{0});
  while (out.size() < size) {
    std::shuffle(cycle.begin(), cycle.end(), rng);
    out.insert(out.end(), cycle.begin(), cycle.begin() + static_cast<std::ptrdiff_t>(std::min(real, size - out.size())));
  }
  return out;
}

}  // namespace

draw_mode parse_draw_mode(std::string_view text) {
  if (text == "distinct") return draw_mode::distinct;
  if (text == "bootstrap") return draw_mode::bootstrap;
  throw std::invalid_argument("draw mode must be distinct or bootstrap, not '" + std::string(text) + "'");
}

matrix draw_fleet(const matrix& m, std::size_t size, draw_mode mode, std::mt19937_64& rng,
                  std::vector<std::size_t>* drawn) {
  matrix out;
  out.rows = m.rows;
  if (m.gpus.empty()) return out;
  for (std::size_t i : originals(m.gpus.size(), size, mode, rng)) {
    out.gpus.push_back(drawn_gpu(m, m.gpus[i], mode, rng));
    if (drawn != nullptr) drawn->push_back(i);
  }
  return out;
}

}  // namespace membench::report::fleet_test
