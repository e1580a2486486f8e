// cuBLAS for in-suite vendor references, loaded at run time (cuda_library.hpp): the entry
// points the suite calls, a throwing status check in the style of MEMBENCH_CUDA_CHECK and a
// move-only handle. No fmt (included from .cu files).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <cublas_v2.h>  // types and declarations only: nothing links libcublas

namespace membench {

/// The cuBLAS entry points the suite calls, typed by cublas_v2.h's declarations and bound
/// by their exported names (the header's cublasCreate is a macro for cublasCreate_v2).
struct cublas_api {
  decltype(&::cublasCreate_v2) create = nullptr;
  decltype(&::cublasDestroy_v2) destroy = nullptr;
  decltype(&::cublasSetStream_v2) set_stream = nullptr;
  decltype(&::cublasSetMathMode) set_math_mode = nullptr;
  decltype(&::cublasSetWorkspace_v2) set_workspace = nullptr;
  decltype(&::cublasSgemm_v2) sgemm = nullptr;
  decltype(&::cublasGetStatusName) status_name = nullptr;
  decltype(&::cublasGetStatusString) status_string = nullptr;
};

/// Binds cublas_api from `file` (a dlopen name). throws infeasible naming the file
cublas_api load_cublas(const std::string& file);

/// Why this process cannot use cuBLAS (libcublas.so.<CUDA major> not loadable), or nothing.
/// Loads it at the first call, and then says why once on stderr.
const std::optional<std::string>& cublas_unavailable();

/// This process's cuBLAS. throws infeasible with cublas_unavailable()'s reason
const cublas_api& cublas();

class cublas_error : public std::runtime_error {
 public:
  cublas_error(cublasStatus_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cublasStatus_t code() const noexcept { return code_; }

 private:
  cublasStatus_t code_;
};

/// Throws cublas_error naming the status, the expression, file and line.
[[noreturn]] void throw_cublas_error(cublasStatus_t code, const char* expr, const char* file, int line);

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
  cublas_handle() { MEMBENCH_CUBLAS_CHECK(cublas().create(&h_)); }  ///< throws infeasible, cublas_error
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
  void reset() noexcept;

 private:
  cublasHandle_t h_ = nullptr;
};

}  // namespace membench
