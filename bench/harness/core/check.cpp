#include "check.hpp"

#include <cstdio>

#include <fmt/format.h>

namespace membench {

void throw_cuda_error(cudaError_t code, const char* expr, const char* file, int line) {
  throw cuda_error(code, fmt::format("{} ({}) in {} at {}:{}", cudaGetErrorString(code), cudaGetErrorName(code),
                                     expr, file, line));
}

bool is_sticky(cudaError_t code) noexcept {
  switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

void log_cuda_failure(cudaError_t code, const char* expr) noexcept {
  std::fprintf(stderr, "membench: warning: %s failed: %s\n", expr, cudaGetErrorString(code));
}

}  // namespace membench
