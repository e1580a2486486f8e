// cuBLAS for in-suite vendor references: a throwing status check in the style of
// MEMBENCH_CUDA_CHECK and a move-only handle. Header-only, so only the families that use
// cuBLAS include it (and link CUDA::cublas); no fmt (included from .cu files).
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include <cublas_v2.h>

namespace membench {

class cublas_error : public std::runtime_error {
 public:
  cublas_error(cublasStatus_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cublasStatus_t code() const noexcept { return code_; }

 private:
  cublasStatus_t code_;
};

/// Throws cublas_error naming the status, the expression, file and line.
[[noreturn]] inline void throw_cublas_error(cublasStatus_t code, const char* expr, const char* file, int line) {
  throw cublas_error(code, std::string(cublasGetStatusString(code)) + " (" + cublasGetStatusName(code) + ") in " + expr + " at " + file +
                               ":" + std::to_string(line));
}

}  // namespace membench

#define MEMBENCH_CUBLAS_CHECK(expr)                                                    \
  do {                                                                                 \
    const cublasStatus_t membench_cublas_status_ = (expr);                             \
    if (membench_cublas_status_ != CUBLAS_STATUS_SUCCESS)                              \
      ::membench::throw_cublas_error(membench_cublas_status_, #expr, __FILE__, __LINE__); \
  } while (0)

namespace membench {

/// A cuBLAS handle on the current device. Create it when a benchmark runs, never at
/// static-init time.
class cublas_handle {
 public:
  cublas_handle() { MEMBENCH_CUBLAS_CHECK(cublasCreate(&h_)); }  ///< throws cublas_error
  cublas_handle(cublas_handle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
  cublas_handle& operator=(cublas_handle&& o) noexcept {
    if (this != &o) {
      reset();
      h_ = std::exchange(o.h_, nullptr);
    }
    return *this;
  }
  cublas_handle(const cublas_handle&) = delete;
  cublas_handle& operator=(const cublas_handle&) = delete;
  ~cublas_handle() { reset(); }

  cublasHandle_t get() const noexcept { return h_; }
  /// Destroys the handle; failures are logged, never thrown.
  void reset() noexcept {
    if (h_ == nullptr) return;
    const cublasStatus_t st = cublasDestroy(h_);
    if (st != CUBLAS_STATUS_SUCCESS) std::fprintf(stderr, "membench: warning: cublasDestroy failed: %s\n", cublasGetStatusName(st));
    h_ = nullptr;
  }

 private:
  cublasHandle_t h_ = nullptr;
};

}  // namespace membench
