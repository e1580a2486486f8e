// membench-report's commands: each one's values (bound to its options table by
// cli_options), and what it runs once they are parsed.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "fleet/fleet.hpp"
#include "cli/session.hpp"
#include "views/views.hpp"

namespace membench::report {

/// Runs one membench-report command line in a session (views runs its steps through it).
using command_runner = int (*)(std::vector<std::string> args, session& s);

struct table_args {
  std::vector<std::string> files;
  table_options opt;
  output_options out;
};
struct builds_args {
  std::vector<std::string> files;
  common_options opt;
  output_options out;
};
struct gpus_args {
  std::vector<std::string> files;
  gpus_options opt;
  output_options out;
};
struct p2p_args {
  std::vector<std::string> files;
  common_options opt;
  output_options out;
};
struct compare_args {
  std::vector<std::string> files, base, next;
  std::string pairs;
  compare_options opt;
  std::string unsure = std::string(options::unsure.text);
  output_options out;
};
struct rows_args {
  std::vector<std::string> files;
  std::string filter, output;
};
struct history_args {
  std::vector<std::string> files;
  history_options opt;
  std::string export_format;
  output_options out;
  const CLI::App* cmd = nullptr;  ///< after parsing: which options were given
};
struct fleet_args {
  std::vector<std::string> files;
  fleet_options opt;
  double fail_share_pct = options::fail_share.number;
  std::string baseline, baseline_out;
  std::string model_reference = std::string(options::fleet_model_reference.text);
  output_options out;
  const CLI::App* cmd = nullptr;  ///< after parsing: which options were given
};
struct clock_args {
  std::vector<std::string> files;
  output_options out;
};
struct profile_args {
  std::vector<std::string> files;
  std::string format = std::string(options::profile_format.text);
  std::string output;
};
struct views_args {
  std::string dir, views_file;
  bool check = false;
  std::vector<std::string> only;
};
struct schema_args {
  std::string table;
};
struct options_args {
  std::string command;
  std::string format = std::string(options::options_format.text);
};

/// The values of every command of one command line, and the runner of each.
class command_set {
 public:
  struct registered {
    CLI::App* cmd;
    std::function<int(session&)> run;
  };
  /// Adds every command of the options tables to `app`, in their order.
  std::vector<registered> add_to(CLI::App& app, command_runner step);

 private:
  table_args table_;
  builds_args builds_;
  gpus_args gpus_;
  p2p_args p2p_;
  compare_args compare_;
  history_args history_;
  fleet_args fleet_;
  rows_args rows_;
  profile_args profile_;
  clock_args clock_;
  views_args views_;
  schema_args schema_;
  options_args options_;
};

int run_table(const table_args& a, session& s);
int run_builds(const builds_args& a, session& s);
int run_gpus(const gpus_args& a, session& s);
int run_p2p(const p2p_args& a, session& s);
int run_compare(compare_args a, session& s);
int run_history(const history_args& a, session& s);
int run_rows(const rows_args& a, session& s);
/// profile's page, and with --format md and -o each GPU's chart beside it (profile_command.cpp).
int run_profile(const profile_args& a, session& s);
/// clock's table or JSON (profile_command.cpp, beside profile: both read the SM clock stage).
int run_clock(const clock_args& a, session& s);
/// fleet's options bound to its table (fleet_command.cpp).
CLI::App* add_fleet(CLI::App& app, fleet_args& a);
int run_fleet(fleet_args a, session& s);
int run_schema(const schema_args& a, session& s);
int run_options(const options_args& a, session& s);
/// Makes (or with `check`, compares) every view of a folder whose inputs it has.
int run_views(const views_args& a, command_runner step);

}  // namespace membench::report
