#include "cli/cli_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

namespace membench::report {
namespace {

// What every kind of option shares: its checks (the table's, through value_error), whether
// it is required, how it takes a list.
CLI::Option* finish(CLI::Option* opt, const option_spec& o) {
  opt->check(CLI::Validator([&o](std::string& text) { return value_error(o, text); }, values_text(o)));
  if (o.required) opt->required();
  if (o.one_per_flag) opt->allow_extra_args(false);
  return opt;
}

template <class T>
CLI::Option* add_value(CLI::App* cmd, const option_spec& o, T& target) {
  return finish(cmd->add_option(std::string(o.names), target, help_text(o)), o);
}

}  // namespace

option_binder::option_binder(CLI::App& app, std::string_view command)
    : cmd_(app.add_subcommand(std::string(command), std::string(command_named(command).help))),
      spec_(command_named(command)),
      adders_(spec_.options.size()) {}

option_binder& option_binder::keep(const option_spec& o, std::function<CLI::Option*()> add) {
  const auto it = std::find(spec_.options.begin(), spec_.options.end(), &o);
  if (it == spec_.options.end())
    throw std::logic_error(fmt::format("{}: option {} is not in its table", spec_.name, o.names));
  adders_[static_cast<std::size_t>(it - spec_.options.begin())] = std::move(add);
  return *this;
}

option_binder& option_binder::operator()(const option_spec& o, std::string& target) {
  return keep(o, [this, &o, &target] { return add_value(cmd_, o, target); });
}

option_binder& option_binder::operator()(const option_spec& o, std::vector<std::string>& target) {
  return keep(o, [this, &o, &target] { return finish(cmd_->add_option(std::string(o.names), target, help_text(o)), o); });
}

option_binder& option_binder::operator()(const option_spec& o, double& target) {
  if (!o.or_auto) return keep(o, [this, &o, &target] { return add_value(cmd_, o, target); });
  // "auto" or a number (value_error has checked it): auto is NAN.
  return keep(o, [this, &o, &target] {
    auto set = [&target](const std::string& text) { target = text == "auto" ? NAN : std::strtod(text.c_str(), nullptr); };
    return finish(cmd_->add_option_function<std::string>(std::string(o.names), set, help_text(o)), o);
  });
}

option_binder& option_binder::operator()(const option_spec& o, int& target) {
  return keep(o, [this, &o, &target] { return add_value(cmd_, o, target); });
}

option_binder& option_binder::operator()(const option_spec& o, std::uint64_t& target) {
  // CLI11 reads "-1" into an unsigned value as its largest: a negative is refused first.
  auto not_negative = [](std::string& text) {
    return text.starts_with('-') ? fmt::format("'{}' is not a whole number of 0 or more", text) : std::string();
  };
  return keep(o, [this, &o, &target, not_negative] {
    return add_value(cmd_, o, target)->check(CLI::Validator(not_negative, ""));
  });
}

option_binder& option_binder::operator()(const option_spec& o, bool& target) {
  return keep(o, [this, &o, &target] { return cmd_->add_flag(std::string(o.names), target, help_text(o)); });
}

option_binder& option_binder::operator()(const option_spec& o, correction& target) {
  return keep(o, [this, &o, &target] {
    auto set = [&target](const std::string& name) { target = correction_named(name); };
    return finish(cmd_->add_option_function<std::string>(std::string(o.names), set, help_text(o)), o);
  });
}

CLI::App* option_binder::done() {
  for (std::size_t i = 0; i < adders_.size(); ++i) {
    if (!adders_[i]) throw std::logic_error(fmt::format("{}: option {} has no target", spec_.name, spec_.options[i]->names));
    adders_[i]();
  }
  return cmd_;
}

std::vector<std::string> given_options(const CLI::App& cmd, std::initializer_list<const option_spec*> options) {
  std::vector<std::string> given;
  for (const option_spec* o : options) {
    const std::string_view names = o->names;
    const std::string name(names.substr(names.rfind(',') + 1));  // "-o,--output": --output
    if (cmd.count(name) > 0) given.push_back(name);
  }
  return given;
}

}  // namespace membench::report
