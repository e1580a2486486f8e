// A run's date as Google Benchmark writes it in its context: ISO 8601 with a `T` (1.8) or a
// blank (older releases) between date and time, seconds and fraction optional, an offset, `Z`
// or none (UTC then). Read the same way wherever runs are put in order (history, fleet --since).
#pragma once

#include <string_view>

namespace membench::report {

/// The days `month` (1 to 12) of `year` has: 29 for a leap February. One calendar for every
/// reader of dates, so that 2026-11-31 is no date to history as to fleet --since.
int days_in_month(int year, int month);

/// Seconds since the epoch; NAN when `date` is no such date (`?`, a word, a bad field).
double date_seconds(std::string_view date);

}  // namespace membench::report
