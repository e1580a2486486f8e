// The one throwing CUDA check. Everything else is a function.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

namespace membench {

class cuda_error : public std::runtime_error {
 public:
  cuda_error(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

/// Throws cuda_error naming the expression, file and line.
[[noreturn]] void throw_cuda_error(cudaError_t code, const char* expr, const char* file, int line);

/// True for errors that poison the CUDA context (illegal address, launch failure, ...):
/// every later call in this process fails too.
bool is_sticky(cudaError_t code) noexcept;

/// Logs a failed call from a destructor (which must not throw).
void log_cuda_failure(cudaError_t code, const char* expr) noexcept;

}  // namespace membench

#define MEMBENCH_CUDA_CHECK(expr)                                                  \
  do {                                                                             \
    const cudaError_t membench_check_err_ = (expr);                                \
    if (membench_check_err_ != cudaSuccess)                                        \
      ::membench::throw_cuda_error(membench_check_err_, #expr, __FILE__, __LINE__); \
  } while (0)

/// For destructors: log and continue.
#define MEMBENCH_CUDA_LOG(expr)                                                            \
  do {                                                                                     \
    const cudaError_t membench_log_err_ = (expr);                                          \
    if (membench_log_err_ != cudaSuccess) ::membench::log_cuda_failure(membench_log_err_, #expr); \
  } while (0)
