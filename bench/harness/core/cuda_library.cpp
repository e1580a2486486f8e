#include "cuda_library.hpp"

#include <dlfcn.h>

#include <utility>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "harness/core/errors.hpp"

namespace membench {
namespace {

std::string loader_reason() {
  const char* e = dlerror();
  return e != nullptr ? e : "unknown";
}

}  // namespace

std::string cuda_library_name(std::string_view stem) { return fmt::format("{}.so.{}", stem, CUDART_VERSION / 1000); }

std::string cuda_build_version() { return fmt::format("{}.{}", CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10); }

cuda_library::cuda_library(std::string file) : file_(std::move(file)) {
  handle_ = dlopen(file_.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr)
    throw infeasible(fmt::format("{} not loadable (this build is CUDA {}; this machine's CUDA libraries are another "
                                 "version or not on LD_LIBRARY_PATH): {}",
                                 file_, cuda_build_version(), loader_reason()));
}

void* cuda_library::address(const char* symbol) const {
  dlerror();  // clear an earlier error: the reason given is this lookup's
  void* p = dlsym(handle_, symbol);
  if (p == nullptr)
    throw infeasible(
        fmt::format("{} has no {} (this build is CUDA {}): {}", file_, symbol, cuda_build_version(), loader_reason()));
  return p;
}

}  // namespace membench
