// The driver API reached through cudaGetDriverEntryPointByVersion, never linked: the
// executables must start where there is no libcuda.so.1 (listing benchmarks in CI).
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "harness/core/check.hpp"

namespace membench {

/// The driver's `symbol` in the ABI of CUDA `version` (the version its typedef names). Call
/// it once a CUDA context exists. throws cuda_error, std::runtime_error
inline void* driver_symbol(const char* symbol, unsigned version) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  MEMBENCH_CUDA_CHECK(cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault, &status));
  if (status != cudaDriverEntryPointSuccess || fn == nullptr) {
    throw std::runtime_error(std::string("the driver has no ") + symbol + " for CUDA " + std::to_string(version) +
                             " (cudaDriverEntryPointQueryResult " + std::to_string(static_cast<int>(status)) + ")");
  }
  return fn;
}

/// driver_symbol typed by its typedef: driver_entry<PFN_cuMemsetD8Async_v3020>("cuMemsetD8Async", 3020).
template <class Fn>
Fn driver_entry(const char* symbol, unsigned version) {
  return reinterpret_cast<Fn>(driver_symbol(symbol, version));
}

/// "<call> failed: CUDA_ERROR_... (CUresult n)", for a driver call that returned `r`.
inline std::string driver_failure(CUresult r, const char* call) {
  static const auto error_name = driver_entry<PFN_cuGetErrorName_v6000>("cuGetErrorName", 6000);
  const char* name = nullptr;
  if (error_name(r, &name) != CUDA_SUCCESS || name == nullptr) name = "unknown CUresult";
  return std::string(call) + " failed: " + name + " (CUresult " + std::to_string(static_cast<int>(r)) + ")";
}

}  // namespace membench
