#include "core/dates.hpp"

#include <charconv>
#include <cmath>

namespace membench::report {
namespace {

// `digits` decimal digits at `at`, advancing it; -1 when they are not there.
int take(std::string_view s, std::size_t& at, std::size_t digits) {
  if (at + digits > s.size()) return -1;
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data() + at, s.data() + at + digits, v);
  if (ec != std::errc{} || end != s.data() + at + digits) return -1;
  at += digits;
  return v;
}

bool take_char(std::string_view s, std::size_t& at, char c) {
  if (at >= s.size() || s[at] != c) return false;
  ++at;
  return true;
}

// Days from the civil date (Howard Hinnant's algorithm).
double days_from_civil(int y, int mo, int d) {
  const int yy = y - (mo <= 2 ? 1 : 0);
  const int era = (yy >= 0 ? yy : yy - 399) / 400;
  const int yoe = yy - era * 400;
  const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<double>(era) * 146097 + doe - 719468;
}

// The offset at `at` (`Z`, `+HH:MM`, `+HHMM`, or nothing: UTC) in seconds; NAN when malformed.
double offset_seconds(std::string_view s, std::size_t at) {
  if (at == s.size() || (s[at] == 'Z' && at + 1 == s.size())) return 0;
  if (s[at] != '+' && s[at] != '-') return NAN;
  const double sign = s[at] == '+' ? 1 : -1;
  ++at;
  const int h = take(s, at, 2);
  take_char(s, at, ':');
  const int m = take(s, at, 2);
  if (h < 0 || h > 23 || m < 0 || m > 59 || at != s.size()) return NAN;
  return sign * (h * 3600.0 + m * 60.0);
}

}  // namespace

int days_in_month(int year, int month) {
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return days[month - 1] + (month == 2 && leap ? 1 : 0);
}

double date_seconds(std::string_view s) {
  std::size_t at = 0;
  const int y = take(s, at, 4);
  const int mo = take_char(s, at, '-') ? take(s, at, 2) : -1;
  const int d = take_char(s, at, '-') ? take(s, at, 2) : -1;
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo)) return NAN;
  int h = 0, mi = 0, sec = 0;
  if (at < s.size() && (s[at] == 'T' || s[at] == ' ')) {
    ++at;
    h = take(s, at, 2);
    mi = take_char(s, at, ':') ? take(s, at, 2) : -1;
    if (take_char(s, at, ':')) sec = take(s, at, 2);
    if (take_char(s, at, '.')) {
      while (at < s.size() && s[at] >= '0' && s[at] <= '9') ++at;
    }
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 60) return NAN;
  }
  const double zone = offset_seconds(s, at);
  if (std::isnan(zone)) return NAN;
  return days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + sec - zone;
}

}  // namespace membench::report
