// What a row can end in besides a time: the exceptions the error boundary turns into
// error rows (session::run). cuda_error is in check.hpp.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace membench {

/// A row that cannot run here (not enough memory, ...): reported as skipped, not failed.
class infeasible : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A kernel's output differs from its host reference: an error row, never a time.
class verification_error : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws verification_error describing a mismatch.
[[noreturn]] void throw_mismatch(const char* what, std::size_t index, const std::string& got,
                                 const std::string& expected, std::size_t mismatches, std::size_t count);

}  // namespace membench
