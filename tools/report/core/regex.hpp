// Regular expressions as the report tool takes them (--filter, patterns): RE2's syntax,
// matched in time linear in the text and without recursion (std::regex recursed once a
// character and backtracked: a deep pattern overflowed the stack, `(a*)*b` ran for minutes).
#pragma once

#include <string>

#include <re2/re2.h>

namespace membench::report {

/// RE2's options for the tool: errors go to the user once, in its own message, not RE2's log.
re2::RE2::Options quiet_regex_options();

/// Why `expression` is not a valid regular expression, or "" when it is.
std::string regex_error(const std::string& expression);

}  // namespace membench::report
