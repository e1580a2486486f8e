// The CUDA toolkit's libraries the suite can do without (cuBLAS, CUPTI), loaded at run
// time with dlopen: the executables need only the driver, so a bundle built with one CUDA
// major version names the missing library where another is installed, instead of failing
// in the dynamic loader before main.
#pragma once

#include <string>
#include <string_view>

namespace membench {

/// "libcublas" -> "libcublas.so.13": the soname of this build's CUDA major version.
std::string cuda_library_name(std::string_view stem);

/// This build's CUDA version, "13.0".
std::string cuda_build_version();

/// A library opened for the life of the process, never closed: the handles and threads
/// cuBLAS and CUPTI create may outlive any owner we could give it (static teardown order).
class cuda_library {
 public:
  /// Opens `file` (a dlopen name). throws infeasible: "<file> not loadable (this build is
  /// CUDA 13.0; ...): <the loader's reason>"
  explicit cuda_library(std::string file);

  /// Sets `fn` to the library's `symbol` (its exported name: cublasCreate_v2, not the
  /// header's macro). throws infeasible naming the symbol and the library
  template <class F>
  void bind(F& fn, const char* symbol) const {
    fn = reinterpret_cast<F>(address(symbol));
  }

  const std::string& file() const noexcept { return file_; }

 private:
  void* address(const char* symbol) const;

  std::string file_;
  void* handle_ = nullptr;
};

}  // namespace membench
