// Element types and their name tokens (the `type` key).
#pragma once

#include <cstdint>
#include <string>

#include "hd.hpp"

namespace membench {

template <class T> inline constexpr const char* type_token = nullptr;
template <> inline constexpr const char* type_token<float> = "f32";
template <> inline constexpr const char* type_token<double> = "f64";

/// A 16-byte element: one 128-bit load or store per access.
struct alignas(16) word16 {
  std::uint32_t x, y, z, w;
  MEMBENCH_HD bool operator==(const word16& o) const { return x == o.x && y == o.y && z == o.z && w == o.w; }
  std::string describe() const {
    std::string s = "{";
    for (std::uint32_t v : {x, y, z, w}) {
      s += std::to_string(v);
      s += v == w ? "}" : ",";
    }
    return s;
  }
};

/// Blocks of `block` threads covering `count` items, `per_thread` each.
constexpr std::uint64_t blocks_for(std::uint64_t count, std::uint64_t block, std::uint64_t per_thread = 1) {
  const std::uint64_t per_block = block * per_thread;
  return (count + per_block - 1) / per_block;
}

}  // namespace membench
