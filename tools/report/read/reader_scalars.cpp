#include "read/reader_scalars.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <system_error>

namespace membench::report {

bool read_number(std::string_view text, json_number& n) {
  n = {};
  const char* const first = text.data();
  const char* const last = first + text.size();
  // (A loop: find_first_of looks each byte up in the set with a call of its own.)
  if (std::none_of(text.begin(), text.end(), [](char c) { return c == '.' || c == 'e' || c == 'E'; })) {
    if (text.front() == '-') {
      std::int64_t v = 0;
      if (std::from_chars(first, last, v).ec == std::errc{}) {
        n = {static_cast<double>(v), true, v, true};
        return true;
      }
    } else {
      std::uint64_t u = 0;
      if (std::from_chars(first, last, u).ec == std::errc{}) {
        const bool fits = u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
        n = {static_cast<double>(u), fits, fits ? static_cast<std::int64_t>(u) : 0, true};
        return true;
      }
    }
  }
  // An integer of more than 64 bits is a double too, as it was to nlohmann_json.
  if (std::from_chars(first, last, n.value).ec == std::errc{}) return true;
  // Out of range: strtod says whether it underflows (to 0 or a subnormal, as strtod gives
  // it) or overflows (refused).
  n.value = std::strtod(std::string(text).c_str(), nullptr);
  return std::isfinite(n.value);
}

std::string number_text(std::string_view text, const json_number& n) {
  return n.integral ? std::to_string(n.integer) : std::string(text);
}

bool valid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t size = s.size();
  for (std::size_t i = 0; i < size;) {
    if (i + 8 <= size) {  // ASCII eight bytes at a time: keys and most strings are ASCII
      std::uint64_t word = 0;
      std::memcpy(&word, p + i, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    const unsigned c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    // The lead byte gives the length and the range of the second byte (Unicode's table
    // of well-formed sequences).
    std::size_t length = 3;
    unsigned low = 0x80, high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c == 0xE0) {
      low = 0xA0;
    } else if (c == 0xED) {
      high = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;  // at most U+10FFFF
    } else if (c < 0xE1 || c > 0xEF) {
      return false;  // a continuation byte, an overlong lead or past F4
    }
    if (size - i < length || p[i + 1] < low || p[i + 1] > high) return false;
    for (std::size_t k = 2; k < length; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

}  // namespace membench::report
