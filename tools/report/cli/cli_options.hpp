// The command line made from the options tables (options.hpp): a command's subcommand and
// every option of its table, with the table's names, help, checks and order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "views/family.hpp"
#include "core/options.hpp"

namespace membench::report {

/// Binds each option of one command's table to where its value goes, then registers them
/// all in the table's order. An option of the table left unbound, or one bound that is not
/// in the table, is a programming error (std::logic_error), found on every run.
class option_binder {
 public:
  option_binder(CLI::App& app, std::string_view command);

  option_binder& operator()(const option_spec& o, std::string& target);
  option_binder& operator()(const option_spec& o, std::vector<std::string>& target);
  option_binder& operator()(const option_spec& o, double& target);
  option_binder& operator()(const option_spec& o, int& target);
  option_binder& operator()(const option_spec& o, std::uint64_t& target);
  option_binder& operator()(const option_spec& o, bool& target);
  option_binder& operator()(const option_spec& o, correction& target);

  /// Registers the options; the subcommand. throws std::logic_error
  CLI::App* done();

 private:
  option_binder& keep(const option_spec& o, std::function<CLI::Option*()> add);

  CLI::App* cmd_;
  const command_spec& spec_;
  std::vector<std::function<CLI::Option*()>> adders_;  ///< one per option of the table, in its order
};

/// Those of `options` given on the command line `cmd` parsed (not left at their defaults),
/// by their long names: for refusing an option that another given one makes moot.
std::vector<std::string> given_options(const CLI::App& cmd, std::initializer_list<const option_spec*> options);

}  // namespace membench::report
