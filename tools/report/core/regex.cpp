// Regular expressions as the report tool takes them (regex.hpp).
#include "core/regex.hpp"

namespace membench::report {

re2::RE2::Options quiet_regex_options() {
  re2::RE2::Options o;
  o.set_log_errors(false);
  return o;
}

std::string regex_error(const std::string& expression) {
  const re2::RE2 re(expression, quiet_regex_options());
  return re.ok() ? "" : re.error();
}

}  // namespace membench::report
