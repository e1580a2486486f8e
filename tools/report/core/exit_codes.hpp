// membench-report's exit codes: this table is the only place they are defined. Every
// command returns one of them, --help lists them, and docs/report.md holds the table as
// exit_codes_markdown() writes it (a unit test compares the two).
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace membench::report {

enum exit_code : int { exit_ok = 0, exit_regression = 1, exit_unusable = 2, exit_undecided = 3, exit_host = 4 };

struct exit_status {
  exit_code code;
  std::string_view brief;    ///< for --help: "ok"
  std::string_view meaning;  ///< for the docs
};

inline constexpr std::array exit_table{
    exit_status{exit_ok, "ok",
                "done: no regression (`compare`), every GPU and host within its stratum (`fleet`), every view made or equal to its "
                "file (`views`), the table, matrix, trend, export, profile, schema or options written; `--help`"},
    exit_status{exit_regression, "a regression, an outlier or a view that differs",
                "a finding: `compare` found a benchmark slower beyond the noise (or unsure, with "
                "`--unsure=fail`); `fleet` found a GPU slow on its own work (against its stratum, or with "
                "`--since` against its own earlier runs), or failing (too many rows errored, missing, "
                "unconverged or throttled); `views --check` found a view that "
                "differs from its file or is missing. `history` never exits 1: it marks changes"},
    exit_status{exit_unusable, "unusable input, a bad option or an output not written",
                "no verdict: an input missing, unreadable or not Google Benchmark JSON (a value out of "
                "range, a key given twice, a newer major "
                "`membench_format_version`), no peer matrix row (`p2p`), a `profile` file that names no GPU or "
                "holds no row a profile shows, a "
                "benchmark missing or "
                "errored on either side of `compare` (without `--allow-missing`; skipped on both sides is "
                "only noted); a `fleet` file without `gpu_uuid`, files of several models or builds (without "
                "`--allow-mixed`), a file named on the command line that cannot be read, a folder without JSON, a baseline that is not one or lacks "
                "the stratum, a `--since` that is no date; an "
                "unknown option or a "
                "bad value (refused before anything runs); an output that could not be written whole "
                "(`-o`, a view's file, standard output: the old file is left as it was) or that would "
                "replace an input"},
    exit_status{exit_undecided, "undecided",
                "no verdict to vouch for a GPU or host (`fleet`, and no GPU or host slow or failing): its reference "
                "has fewer than 3 GPUs that are not failing, splits into groups no majority decides, or the GPU "
                "has no GPU-work row, scored on no scope, or has one run (which judges all its rows together "
                "only); or a file found in a folder could not be read (some GPU's run is missing)"},
    exit_status{exit_host, "a host slow",
                "`fleet`: no GPU slow or failing, but a host slow or failing on host work (host-link copies, driver "
                "calls; against its stratum's hosts of its shape, or with `--since` its own earlier runs): look at "
                "the host, not the GPU"},
};

/// The table as Markdown between `<!-- exit-codes -->` and `<!-- /exit-codes -->`.
std::string exit_codes_markdown();
/// One line for --help: "0 ok, 1 ..., 2 ...".
std::string exit_codes_line();
/// `rc` once standard output is flushed whole; else says so as `program` and gives exit_unusable
/// (a report on a full disk or a closed pipe was not written, whatever it found).
int with_stdout_flushed(const char* program, int rc);

}  // namespace membench::report
