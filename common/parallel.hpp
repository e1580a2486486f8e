// Host-side parallel loops for references and verification of GiB-sized outputs.
#pragma once

#include <sched.h>

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace membench {

/// The CPUs this process may run on (its affinity: `--devices` gives each GPU a share), at least 1.
inline std::size_t usable_threads() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return std::max(1u, std::thread::hardware_concurrency());
  return static_cast<std::size_t>(std::max(1, CPU_COUNT(&set)));
}

/// Calls body(begin, end, part) on disjoint parts of [0, n) from several threads and
/// returns how many parts were used. Ranges below `serial_below` run on the calling thread.
template <class Body>
std::size_t parallel_parts(std::size_t n, Body&& body, std::size_t serial_below = std::size_t{1} << 20) {
  const std::size_t hw = usable_threads();
  const std::size_t parts = n < serial_below ? 1 : std::min<std::size_t>({hw, 64, n});
  if (parts == 1) {
    body(std::size_t{0}, n, std::size_t{0});
    return 1;
  }
  std::vector<std::thread> threads;
  threads.reserve(parts);
  const std::size_t per = (n + parts - 1) / parts;
  for (std::size_t p = 0; p < parts; ++p) {
    const std::size_t b = std::min(n, p * per), e = std::min(n, b + per);
    threads.emplace_back([&body, b, e, p] { body(b, e, p); });
  }
  for (auto& t : threads) t.join();
  return parts;
}

/// Sum over i in [0, n) of term(i), modulo 2^32 (the checksum the read kernels compute).
template <class Term>
std::uint32_t parallel_sum_u32(std::size_t n, Term&& term) {
  std::vector<std::uint32_t> partial(64, 0);
  parallel_parts(n, [&](std::size_t b, std::size_t e, std::size_t p) {
    std::uint32_t acc = 0;
    for (std::size_t i = b; i < e; ++i) acc += term(i);
    partial[p] = acc;
  });
  std::uint32_t total = 0;
  for (auto v : partial) total += v;
  return total;
}

}  // namespace membench
