// membench-report: comparison tables, CI verdicts, histories, cross-build and cross-GPU
// views over Google Benchmark JSON (membench's or any program's). Exit codes: exit_codes.hpp.
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "common/version.hpp"
#include "core/escape.hpp"

namespace {

using namespace membench::report;

// The first `--name=` with nothing after the '=', before any `--`. CLI11 would take the
// next argument for its value: `--baseline-out= a.json b.json` would write over a.json.
std::optional<std::string> empty_value(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--") break;
    if (a.size() > 3 && a.rfind("--", 0) == 0 && a.back() == '=') return a;
  }
  return std::nullopt;
}

// One membench-report command line. `s` says where it runs.
int run_command(std::vector<std::string> args, session& s) {
  CLI::App app{fmt::format("membench-report: tables, CI verdicts, histories, cross-build and cross-GPU views of "
                           "Google Benchmark JSON.\nExit codes: {}.",
                           exit_codes_line())};
  app.require_subcommand(1);
  app.set_version_flag("--version", fmt::format("membench-report {} (format {})", membench::full_version(),
                                                membench::format_version()));
  // One line, whatever the error; the subcommands take it from here as they are added.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return fmt::format("membench-report: {} (--help lists the options)\n", terminal_text(e.what()));
  });
  command_set commands;
  const std::vector<command_set::registered> registered = commands.add_to(app, run_command);
  // A first word that names no command: CLI11 would only say that one is required.
  const auto named = [&](const command_set::registered& r) { return r.cmd->get_name() == args.front(); };
  if (!args.empty() && !args.front().starts_with('-') && std::none_of(registered.begin(), registered.end(), named)) {
    std::fprintf(stderr, "membench-report: '%s' is not a command (--help lists them)\n",
                 terminal_text(args.front()).c_str());
    return exit_unusable;
  }
  if (const auto bad = empty_value(args)) {
    std::fprintf(stderr, "membench-report: %s: no value after '=' (give one, or leave the option out)\n",
                 terminal_text(*bad).c_str());
    return exit_unusable;
  }
  try {
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? exit_ok : exit_unusable;
  }
  try {
    for (const auto& [cmd, run] : registered) {
      if (*cmd) return run(s);
    }
    return exit_unusable;
  } catch (const std::exception& e) {  // input_error; out of memory, a regex too complex to match, ...
    std::fprintf(stderr, "membench-report: %s\n", terminal_text(e.what()).c_str());
    return exit_unusable;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Without glibc's fast bins: a document or a file's rows frees a million small blocks at
  // once, and each larger request after it would sort them all back first (about 5 % of a
  // 100 000-row `views`).
  ::mallopt(M_MXFAST, 0);
  session s;
  try {
    return run_command(std::vector<std::string>(argv + 1, argv + argc), s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "membench-report: %s\n", terminal_text(e.what()).c_str());
    return exit_unusable;
  }
}
