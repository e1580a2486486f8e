// A run's date as Google Benchmark writes it in its context: ISO 8601 with a `T` (1.8) or a
// blank (older releases) between date and time, seconds and fraction optional, an offset, `Z`
// or none (UTC then). Read the same way wherever runs are put in order (history, fleet --since).
#pragma once

#include <string_view>

namespace membench::report {

/// Seconds since the epoch; NAN when `date` is no such date (`?`, a word, a bad field).
double date_seconds(std::string_view date);

}  // namespace membench::report
