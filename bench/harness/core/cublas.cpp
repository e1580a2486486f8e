#include "cublas.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "harness/core/cuda_library.hpp"
#include "harness/core/errors.hpp"

namespace membench {
namespace {

// Loaded once: every row that asks after the first gets the same library or the same reason.
struct loaded_cublas {
  std::optional<cublas_api> api;
  std::optional<std::string> unavailable;
};

const loaded_cublas& loaded() {
  static const loaded_cublas once = [] {
    loaded_cublas l;
    try {
      l.api = load_cublas(cuda_library_name("libcublas"));
    } catch (const infeasible& e) {
      l.unavailable = e.what();
      std::fprintf(stderr, "membench: cuBLAS unavailable: %s; rows that need it are skipped, ratios to it left out\n",
                   e.what());
    }
    return l;
  }();
  return once;
}

}  // namespace

cublas_api load_cublas(const std::string& file) {
  const cuda_library lib(file);
  cublas_api api;
  lib.bind(api.create, "cublasCreate_v2");
  lib.bind(api.destroy, "cublasDestroy_v2");
  lib.bind(api.set_stream, "cublasSetStream_v2");
  lib.bind(api.set_math_mode, "cublasSetMathMode");
  lib.bind(api.set_workspace, "cublasSetWorkspace_v2");
  lib.bind(api.sgemm, "cublasSgemm_v2");
  lib.bind(api.status_name, "cublasGetStatusName");
  lib.bind(api.status_string, "cublasGetStatusString");
  return api;
}

const std::optional<std::string>& cublas_unavailable() { return loaded().unavailable; }

const cublas_api& cublas() {
  const loaded_cublas& l = loaded();
  if (!l.api) throw infeasible(*l.unavailable);
  return *l.api;
}

void throw_cublas_error(cublasStatus_t code, const char* expr, const char* file, int line) {
  const cublas_api& api = cublas();  // loaded: the status came from it
  throw cublas_error(code,
                     fmt::format("{} ({}) in {} at {}:{}", api.status_string(code), api.status_name(code), expr, file, line));
}

void cublas_handle::reset() noexcept {
  if (h_ == nullptr) return;
  const cublas_api& api = cublas();  // loaded: the handle came from it
  const cublasStatus_t st = api.destroy(h_);
  if (st != CUBLAS_STATUS_SUCCESS) std::fprintf(stderr, "membench: warning: cublasDestroy failed: %s\n", api.status_name(st));
  h_ = nullptr;
}

}  // namespace membench
