// Every membench-report option, one table per command: its name, allowed values, default
// and help. The command line and its --help (cli_options.cpp), the option structs'
// defaults (views.hpp, verdict.hpp) and docs/report-options.md (`membench-report options`)
// are all made from these tables: a default is written here and nowhere else.
#pragma once

#include <array>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "core/document.hpp"

namespace membench::report {

enum class option_kind {
  positional,  ///< an argument without a flag (one text, or a list when `list`)
  flag,        ///< on when given
  number,      ///< a double, its default in `number`
  integer,     ///< an integer, its default in `number`
  text,        ///< any text, its default in `text`
  pattern,     ///< a --filter: a plain part of a name or a regular expression that compiles
  choice,      ///< one of `choices`, its default in `text`
  list,        ///< several texts
};

struct option_spec {
  std::string_view names;  ///< as CLI11 takes them: "--threshold", "-o,--output", "files"
  option_kind kind = option_kind::text;
  std::string_view help;                         ///< what it does; values and default are added
  double number = 0;                             ///< number, integer: the default
  std::string_view text = {};                    ///< text, choice: the default ("" none)
  double low = 0, high = 0;                      ///< number, integer: the allowed range (low == high: any)
  std::array<std::string_view, 8> choices = {};  ///< choice: the values (the unused ones empty)
  std::string_view default_note = {};            ///< what the default means: "it must exclude no change"
  bool required = false;
  bool list = false;          ///< positional: several values
  bool one_per_flag = false;  ///< list: one value a flag (--base A --base B), so that a flag ends it
  bool or_auto = false;       ///< number: "auto" too, read as NAN (the default when `number` is NAN)

  template <class T>
  constexpr T value() const {
    return static_cast<T>(number);
  }
};

namespace options {

using k = option_kind;

// Output of every view.
inline constexpr option_spec format{
    .names = "--format", .kind = k::choice,
    .help = "output format (json: the same tables for programs, each cell's text and number)", .text = "term",
    .choices = {"term", "md", "csv", "html", "json"}};
inline constexpr option_spec output{.names = "-o,--output", .help = "write here instead of standard output"};
inline constexpr option_spec color{.names = "--color", .kind = k::choice, .help = "colour in the terminal format",
                                   .text = "auto", .choices = {"auto", "always", "never"}};

// Views over several files.
inline constexpr option_spec value{.names = "--value",
                                   .help = "time or a counter (gb_per_s, pct_peak, noise_pct, ...)",
                                   .default_note = "gb_per_s where rows have it, else time"};
inline constexpr option_spec filter{.names = "--filter", .kind = k::pattern,
                                    .help = "regular expression searched in benchmark names"};

// table, builds, gpus.
inline constexpr option_spec table_files{.names = "files", .kind = k::positional, .help = "Google Benchmark JSON files",
                                         .required = true, .list = true};
inline constexpr option_spec rows{
    .names = "--rows",
    .help = "key for the rows (a name key such as bytes, offset, arg0; or build, gpu, file, experiment)",
    .default_note = "bytes, else the first key that varies"};
inline constexpr option_spec cols{.names = "--cols", .help = "key for the columns",
                                  .default_note = "build (membench files), else file or the next key that varies"};
inline constexpr option_spec builds_files{.names = "files", .kind = k::positional, .help = "one JSON file per build",
                                          .required = true, .list = true};
inline constexpr option_spec gpus_files{.names = "files", .kind = k::positional, .help = "one JSON file per GPU",
                                        .required = true, .list = true};
inline constexpr option_spec gpus_build{.names = "--build", .help = "which build's files (default, ca or cg)",
                                        .text = "default"};

// p2p.
inline constexpr option_spec p2p_files{.names = "files", .kind = k::positional,
                                       .help = "Google Benchmark JSON files of one host with membench's peer rows",
                                       .required = true, .list = true};
inline constexpr option_spec p2p_value{.names = "--value",
                                       .help = "time or a counter (gb_per_s, pct_of_link, ns_per_load, ...)",
                                       .default_note = "gb_per_s; ns_per_load for a case without it (latency)"};
inline constexpr option_spec p2p_format{
    .names = "--format", .kind = k::choice,
    .help = "output format (html: each matrix a heatmap; json: every pair with its numbers, for programs)",
    .text = "term", .choices = {"term", "md", "csv", "html", "json"}};

// compare's test, shared with history.
inline constexpr option_spec threshold{.names = "--threshold", .kind = k::number,
                                       .help = "percent change in time that counts", .number = 5, .low = 0, .high = 1000};
inline constexpr option_spec margin{.names = "--margin", .kind = k::number,
                                    .help = "percent the interval of a change must clear to call it slower or faster",
                                    .number = 0, .low = 0, .high = 100, .default_note = "it must exclude no change"};
inline constexpr option_spec resolution{
    .names = "--resolution", .kind = k::number, .help = "smallest change in microseconds that can count",
    .number = std::numeric_limits<double>::quiet_NaN(), .low = 0, .high = 1e9,
    .default_note = "what the measurement resolves: the timer's step per launch (the files' "
                    "membench_timer_resolution_us, else 0.5 us) and the sides' own intervals",
    .or_auto = true};
inline constexpr option_spec clock_tolerance{
    .names = "--clock-tolerance", .kind = k::number,
    .help = "percent the sides' SM clocks may differ before a verdict is unsure", .number = 3, .low = 0, .high = 100};
inline constexpr option_spec run_spread{
    .names = "--run-spread", .kind = k::number,
    .help = "assumed run-to-run spread of a kernel row's median in percent, the least a run counts for",
    .number = 0.5, .low = 0, .high = 100};
inline constexpr option_spec run_spread_copy{.names = "--run-spread-copy", .kind = k::number,
                                             .help = "the same for rows that time copy engines (label work:copy)",
                                             .number = 4, .low = 0, .high = 100};
inline constexpr option_spec run_spread_host{
    .names = "--run-spread-host", .kind = k::number,
    .help = "the same for rows with host or driver work in their samples (work:host)", .number = 15, .low = 0,
    .high = 100};
inline constexpr option_spec run_spread_us{
    .names = "--run-spread-us", .kind = k::number,
    .help = "assumed run-to-run spread of a row's median in microseconds (one sd), added in quadrature to the percent "
            "above: process-to-process jitter of a few launches that no run's own interval carries",
    .number = 0.1, .low = 0, .high = 1e6};
inline constexpr option_spec calibration_runs{
    .names = "--calibration-runs", .kind = k::integer,
    .help = "a side with at least this many runs of a benchmark measures its run-to-run spread, which then replaces "
            "the floors above (0: never)",
    .number = 8, .low = 0, .high = 1000000};
inline constexpr option_spec confidence{.names = "--confidence", .kind = k::number,
                                        .help = "level of the interval of each change in percent", .number = 95,
                                        .low = 50, .high = 99.9999};
inline constexpr option_spec seed{.names = "--seed", .kind = k::integer, .help = "seeds the bootstraps", .number = 1};
inline constexpr option_spec correction{
    .names = "--correction", .kind = k::choice,
    .help = "bh: the benchmarks compared together are one family, Benjamini-Hochberg keeps the false slower/faster "
            "calls at most 100 - confidence % of the calls (none in a comparison of unchanged code with that "
            "chance); none: each benchmark alone at --confidence",
    .text = "bh", .choices = {"bh", "none"}};

// compare.
inline constexpr option_spec compare_files{.names = "files", .kind = k::positional,
                                           .help = "BASE NEW; with --base, the NEW files; with --new only, the BASE files",
                                           .list = true};
inline constexpr option_spec base_files{.names = "--base", .kind = k::list,
                                        .help = "a BASE file (repeat for several runs of the baseline)",
                                        .one_per_flag = true};
inline constexpr option_spec next_files{.names = "--new", .kind = k::list, .help = "a NEW file (repeat for several runs)",
                                        .one_per_flag = true};
inline constexpr option_spec unsure{.names = "--unsure", .kind = k::choice,
                                    .help = "warn: unsure benchmarks are listed; fail: they fail like slower ones",
                                    .text = "warn", .choices = {"warn", "fail"}};
inline constexpr option_spec allow_missing{
    .names = "--allow-missing", .kind = k::flag,
    .help = "a benchmark missing or errored on either side is noted instead of making the input unusable"};
inline constexpr option_spec pairs{
    .names = "--pairs",
    .help = "instead of BASE NEW: a JSON file (- reads standard input) of rows to compare, perhaps of different names "
            "or files: [{\"base\": {\"file\", \"row\", \"scale\"}, \"new\": {...}, \"threshold\"}], scale "
            "(multiplies the row's times) and threshold (percent) optional"};
inline constexpr option_spec compare_format{.names = "--format", .kind = k::choice,
                                            .help = "output format (json: a record per benchmark, for programs; junit, "
                                                    "ctrf: a test case per benchmark, for CI systems)",
                                            .text = "term", .choices = {"term", "md", "csv", "html", "json", "junit", "ctrf"}};
inline constexpr option_spec show_all{.names = "--all", .kind = k::flag, .help = "list unchanged benchmarks too"};

// history.
inline constexpr option_spec history_files{.names = "files", .kind = k::positional,
                                           .help = "one JSON file per run (ordered by their context's date and commit)",
                                           .required = true, .list = true};
inline constexpr option_spec export_format{
    .names = "--export", .kind = k::choice,
    .help = "instead of the trend: the newest run as bmf (Bencher Metric Format) or gab (github-action-benchmark "
            "customSmallerIsBetter) JSON",
    .choices = {"bmf", "gab"}};

// fleet.
inline constexpr option_spec fleet_files{
    .names = "files", .kind = k::positional,
    .help = "membench JSON files, a file per GPU and run (several runs of one GPU share its gpu_uuid), or folders "
            "of them (every .json below)",
    .required = true, .list = true};
inline constexpr option_spec fleet_threshold{
    .names = "--threshold", .kind = k::number,
    .help = "percent a GPU's mean over all its GPU-work rows must be slower than its stratum's centre (and beyond "
            "the healthy spread at --level) to be called slow",
    .number = 3, .low = 0, .high = 1000,
    .default_note = "a 5 % slowdown of every row clears it in every trial on the committed sets (docs/report.md)"};
inline constexpr option_spec family_threshold{
    .names = "--family-threshold", .kind = k::number,
    .help = "the same for the mean over one family's rows", .number = 5, .low = 0, .high = 1000};
inline constexpr option_spec row_threshold{
    .names = "--row-threshold", .kind = k::number, .help = "the same for one row of GPU work", .number = 10,
    .low = 0, .high = 1000};
inline constexpr option_spec host_threshold{
    .names = "--host-threshold", .kind = k::number,
    .help = "the same for the mean over all host-work rows (work:host and work:copy: the host link, driver calls), "
            "which judge the host, not the GPU",
    .number = 10, .low = 0, .high = 1000};
inline constexpr option_spec host_row_threshold{
    .names = "--host-row-threshold", .kind = k::number, .help = "the same for one row of host work", .number = 20,
    .low = 0, .high = 1000};
inline constexpr option_spec fleet_level{
    .names = "--level", .kind = k::number,
    .help = "a healthy GPU's chance of being called slow on one part (GPU or host work), split over its scopes; it "
            "does not depend on how many GPUs are judged",
    .number = 1e-5, .low = 1e-12, .high = 0.5};
inline constexpr option_spec fail_share{
    .names = "--fail-share", .kind = k::number,
    .help = "percent of a part's rows a GPU may fail (errored, missing, unconverged or throttled in every run) before "
            "the part is failing",
    .number = 20, .low = 0, .high = 100,
    .default_note = "above the most a healthy GPU of the committed sets fails with one run (docs/report.md)"};
inline constexpr option_spec allow_mixed{
    .names = "--allow-mixed", .kind = k::flag,
    .help = "files of several GPU models or builds are judged as separate fleets instead of refused"};
inline constexpr option_spec baseline_in{
    .names = "--baseline",
    .help = "judge the GPUs against this baseline (written by --baseline-out) instead of against each other"};
inline constexpr option_spec baseline_out{
    .names = "--baseline-out", .help = "also write each model and build's centre and band per row to this file"};
inline constexpr option_spec baseline_format{
    .names = "--baseline-format", .kind = k::choice,
    .help = "membench: what --baseline reads (format version, GPUs, centre, spread and band per row); reframe: "
            "ReFrame's reference form, {\"MODEL/BUILD\": {\"ROW\": [value, lower, upper, \"us\"]}}",
    .text = "membench", .choices = {"membench", "reframe"}};
inline constexpr option_spec fleet_since{
    .names = "--since",
    .help = "DATE (YYYY-MM-DD, or with THH:MM[:SS]): each GPU is judged on its runs since DATE, and also against "
            "its own runs before it (drift: the same chip, so only its run-to-run spread is the null)"};
inline constexpr option_spec fleet_model_reference{
    .names = "--model-reference",
    .help = "a baseline per model and stratum (--baseline-out over many healthy GPUs) that judges a fleet too small "
            "to judge itself (--model-below); `auto`: share/membench/reference/fleet.json beside the installed "
            "membench-report, when there; `none`: never",
    .text = "auto"};
inline constexpr option_spec fleet_model_below{
    .names = "--model-below", .kind = k::integer,
    .help = "a fleet of fewer GPUs than this is judged against the model reference of its stratum, when it has one "
            "(else on its own, said)",
    .number = 32, .low = 0, .high = 1e6,
    .default_note = "on their own, H100 fleets of 4 to 16 called a healthy chip at its model's edge (10 in 168 800 "
                    "verdicts), fleets of 32 or more none in 3.4 million (reports/fleet/README.md)"};
inline constexpr option_spec fleet_by{
    .names = "--by", .kind = k::choice,
    .help = "what a GPU is judged on between all its rows and each row: its families, or the levels of the memory "
            "hierarchy (common/levels.hpp: the node check's rows; rows of no level are left out and said)",
    .text = "family", .choices = {"family", "level"}};
inline constexpr option_spec fleet_all{.names = "--all", .kind = k::flag,
                                       .help = "list every scope of every GPU, not only those called slower"};
inline constexpr option_spec fleet_format{
    .names = "--format", .kind = k::choice,
    .help = "output format (html: with a GPU x family heatmap; json: a record per GPU and per row called, for "
            "programs; junit, ctrf: a test case per GPU and part, or per GPU and level, for CI systems; prom: "
            "Prometheus metrics, for node_exporter's textfile collector)",
    .text = "term", .choices = {"term", "md", "csv", "html", "json", "junit", "ctrf", "prom"}};

// views.
inline constexpr option_spec views_dir{.names = "dir", .kind = k::positional, .help = "the result folder",
                                       .required = true};
inline constexpr option_spec views_file{.names = "--views", .help = "the views file",
                                        .default_note = "views.json in DIR or the nearest parent"};
inline constexpr option_spec views_check{.names = "--check", .kind = k::flag,
                                         .help = "write nothing: exit 1 when a view differs from its file"};
inline constexpr option_spec views_only{.names = "--only", .kind = k::list,
                                        .help = "make only the view of this name (repeat for several)",
                                        .one_per_flag = true};

// profile.
inline constexpr option_spec profile_files{
    .names = "files", .kind = k::positional,
    .help = "membench JSON files: one page per GPU (files of one GPU, and a file of peer rows naming it, share its page; its "
            "default, ca and cg builds side by side)",
    .required = true, .list = true};
inline constexpr option_spec profile_format{
    .names = "--format", .kind = k::choice,
    .help = "html: one self-contained page (inline SVG and CSS, no scripts); md: Markdown tables of the headline "
            "numbers, and with -o FILE.md each GPU's chart beside it as FILE.gpuN.svg (with several builds their "
            "ratios too, FILE.gpuN.builds.svg), linked from the page",
    .text = "html", .choices = {"html", "md"}};

// clock.
inline constexpr option_spec clock_files{.names = "files", .kind = k::positional,
                                         .help = "membench JSON files: a row each that ran compute/sm_clock",
                                         .required = true, .list = true};
inline constexpr option_spec clock_format{
    .names = "--format", .kind = k::choice,
    .help = "output format (json: a record per run for programs, numbers in MHz and percent, null where not read)",
    .text = "term", .choices = {"term", "md", "csv", "html", "json"}};

// rows.
inline constexpr option_spec rows_files{.names = "files", .kind = k::positional, .help = "Google Benchmark JSON files",
                                        .required = true, .list = true};

// schema.
inline constexpr option_spec schema_table{.names = "table", .kind = k::positional,
                                          .help = "name-keys, counters, labels, context, options, exit-codes, ceilings or headlines",
                                          .default_note = "all"};

// options.
inline constexpr option_spec options_command{.names = "command", .kind = k::positional,
                                             .help = "the command whose options to list",
                                             .default_note = "every command, as docs/report-options.md has them"};
inline constexpr option_spec options_format{.names = "--format", .kind = k::choice, .help = "output format",
                                            .text = "md", .choices = {"md", "csv"}};

}  // namespace options

/// One command: its name, what it does, and its options in the order --help lists them.
struct command_spec {
  std::string_view name;
  std::string_view help;
  std::span<const option_spec* const> options;
};

namespace options {

inline constexpr std::array table_command{&table_files, &value, &filter, &format, &output, &color, &rows, &cols};
inline constexpr std::array builds_command{&builds_files, &value, &filter, &format, &output, &color};
inline constexpr std::array gpus_command{&gpus_files, &value, &filter, &format, &output, &color, &gpus_build};
inline constexpr std::array p2p_command{&p2p_files, &p2p_value, &filter, &p2p_format, &output, &color};
inline constexpr std::array compare_command{
    &compare_files, &base_files, &next_files, &threshold, &margin, &resolution, &clock_tolerance,
    &run_spread, &run_spread_copy, &run_spread_host, &run_spread_us, &calibration_runs, &confidence, &seed,
    &correction, &unsure, &allow_missing, &pairs, &filter, &show_all, &compare_format, &output, &color};
inline constexpr std::array history_command{
    &history_files, &value, &filter, &format, &output, &color, &threshold, &margin, &resolution,
    &clock_tolerance, &run_spread, &run_spread_copy, &run_spread_host, &run_spread_us, &calibration_runs,
    &confidence, &seed, &correction, &export_format};
inline constexpr std::array fleet_command{
    &fleet_files, &fleet_threshold, &family_threshold, &row_threshold, &host_threshold, &host_row_threshold,
    &fleet_level, &fail_share, &fleet_since, &allow_mixed, &baseline_in, &baseline_out, &baseline_format, &filter,
    &fleet_model_reference, &fleet_model_below, &fleet_by, &fleet_all, &fleet_format, &output, &color};
inline constexpr std::array rows_command{&rows_files, &filter, &output};
inline constexpr std::array clock_command{&clock_files, &clock_format, &output, &color};
inline constexpr std::array profile_command{&profile_files, &profile_format, &output};
inline constexpr std::array views_command{&views_dir, &views_file, &views_check, &views_only};
inline constexpr std::array schema_command{&schema_table};
inline constexpr std::array options_command_list{&options_command, &options_format};

}  // namespace options

/// Every command, in the order --help and the options document list them.
inline constexpr std::array<command_spec, 13> commands{{
    {"table", "pivot any files on two keys of the benchmark names", options::table_command},
    {"builds", "default, ca and cg builds side by side, with ratios", options::builds_command},
    {"gpus", "several GPUs side by side, absolute and as % of each row's ceiling (DRAM, its link, PCIe)",
     options::gpus_command},
    {"p2p", "peer-to-peer: a source x destination matrix per case, each pair as % of its link",
     options::p2p_command},
    {"compare", "BASE against NEW: change, interval and verdict per benchmark; exit 1 on a regression",
     options::compare_command},
    {"history", "the same benchmarks over runs in time, changes marked by compare's test", options::history_command},
    {"fleet", "which GPU of many of one model is slow, and which host: each alone against its stratum's healthy GPUs; "
              "exit 1 on a GPU slow or failing, 4 on a host, 3 undecided",
     options::fleet_command},
    {"profile", "each GPU's memory hierarchy on one page: latency ladder, bandwidth against each level's ceiling, the "
                "lessons' effects", options::profile_command},
    {"clock", "the SM clock each run measured, three ways (the events' slope, the probe, NVML), with their "
              "resolutions and whether they agree", options::clock_command},
    {"rows", "each row's values, the interval of its median time and its usability, as JSON", options::rows_command},
    {"views", "the standard views of a result folder, from a views file (reports/views.json)", options::views_command},
    {"schema", "the JSON schema's tables as Markdown (the README's)", options::schema_command},
    {"options", "every command's options: names, allowed values, defaults and help", options::options_command_list},
}};

/// The command of this name. throws std::out_of_range
const command_spec& command_named(std::string_view name);

/// An option's default as shown ("5", "term"); "" when it has none.
std::string default_text(const option_spec& o);
/// Its allowed values as shown ("term, md, csv or html", "0 to 100"); "" when any value goes.
std::string values_text(const option_spec& o);
/// The --help line: the help, then the default in parentheses.
std::string help_text(const option_spec& o);
/// Why `text` is no value of `o`; "" when it is one. A number must be finite (nan passes
/// every range check, and would pass every test with it) and within its range, an integer
/// whole, a choice one of the table's, a pattern a valid expression. The command line
/// checks every option through it before anything runs.
std::string value_error(const option_spec& o, std::string_view text);

/// One command's options as a Markdown table between `<!-- options:NAME -->` markers.
std::string options_markdown(const command_spec& c);
/// The options of one command (every command when `command` is empty) as a document,
/// a table each. throws std::out_of_range for a command there is not
document options_table(std::string_view command);
/// docs/report-options.md: a heading, then every command's table.
std::string options_document();

}  // namespace membench::report
