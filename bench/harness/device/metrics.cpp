#include "metrics.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <fmt/format.h>

#include "harness/core/check.hpp"
#include "harness/core/cuda_library.hpp"
#include "harness/core/driver_api.hpp"

namespace membench {
namespace {

// Every CUPTI entry point the profiler calls. CUPTI is loaded at run time (cuda_library.hpp),
// each entry point typed by its header's declaration and bound by the same name.
#define MEMBENCH_CUPTI_ENTRY_POINTS(X)                                                                            \
  X(cuptiGetResultString) X(cuptiDeviceGetChipName) X(cuptiProfilerInitialize) X(cuptiProfilerDeInitialize)    \
  X(cuptiProfilerGetCounterAvailability) X(cuptiProfilerHostInitialize) X(cuptiProfilerHostDeinitialize)       \
  X(cuptiProfilerHostConfigAddMetrics) X(cuptiProfilerHostGetConfigImageSize) X(cuptiProfilerHostGetConfigImage) \
  X(cuptiProfilerHostGetNumOfPasses) X(cuptiProfilerHostEvaluateToGpuValues) X(cuptiRangeProfilerEnable)        \
  X(cuptiRangeProfilerDisable) X(cuptiRangeProfilerGetCounterDataSize)                                          \
  X(cuptiRangeProfilerCounterDataImageInitialize) X(cuptiRangeProfilerSetConfig) X(cuptiRangeProfilerStart)     \
  X(cuptiRangeProfilerStop) X(cuptiRangeProfilerDecodeData) X(cuptiRangeProfilerGetCounterDataInfo)

struct cupti_api {
#define MEMBENCH_CUPTI_MEMBER(fn) decltype(&::fn) fn = nullptr;
  MEMBENCH_CUPTI_ENTRY_POINTS(MEMBENCH_CUPTI_MEMBER)
#undef MEMBENCH_CUPTI_MEMBER
};

cupti_api load_cupti(const std::string& file) {
  const cuda_library lib(file);
  cupti_api api;
#define MEMBENCH_CUPTI_BIND(fn) lib.bind(api.fn, #fn);
  MEMBENCH_CUPTI_ENTRY_POINTS(MEMBENCH_CUPTI_BIND)
#undef MEMBENCH_CUPTI_BIND
  return api;
}

// libcupti.so.<CUDA major>, loaded by the first profiler and kept for the process (the
// driver calls back into CUPTI once it has attached). throws infeasible naming the library
// and this build's CUDA version; a failed load is tried again by the next caller.
const cupti_api& cupti() {
  static const cupti_api api = load_cupti(cuda_library_name("libcupti"));
  return api;
}

// A failed CUPTI call: its result name, and whether no later call can succeed either.
class cupti_error : public std::runtime_error {
 public:
  cupti_error(CUptiResult r, const char* call) : std::runtime_error(describe(r, call)), result(r) {}
  bool permanent() const noexcept {
    return result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || result == CUPTI_ERROR_NOT_SUPPORTED ||
           result == CUPTI_ERROR_NOT_INITIALIZED || result == CUPTI_ERROR_NOT_COMPATIBLE ||
           result == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED || result == CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED ||
           result == CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED || result == CUPTI_ERROR_UNKNOWN;
  }
  CUptiResult result;

 private:
  static std::string describe(CUptiResult r, const char* call) {
    const char* name = nullptr;
    if (cupti().cuptiGetResultString(r, &name) != CUPTI_SUCCESS || name == nullptr) name = "CUPTI_ERROR";
    return fmt::format("{} ({})", name, call);
  }
};

// Calls the entry point `fn` of the loaded CUPTI; the error names the call as written.
#define MEMBENCH_CUPTI_CHECK(fn, ...)                                                                \
  do {                                                                                               \
    const CUptiResult membench_cupti_r = cupti().fn(__VA_ARGS__);                                    \
    if (membench_cupti_r != CUPTI_SUCCESS) throw cupti_error(membench_cupti_r, #fn "(" #__VA_ARGS__ ")"); \
  } while (0)

template <class P>
P params(std::size_t size) {
  P p{};
  p.structSize = size;
  return p;
}

// The device's primary context, without linking the driver library (CI machines have none).
CUcontext current_context() {
  const auto get_current = driver_entry<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent", 12000);
  CUcontext ctx = nullptr;
  if (get_current(&ctx) != CUDA_SUCCESS || ctx == nullptr)
    throw std::runtime_error("no current CUDA context");
  return ctx;
}

std::vector<const char*> c_names(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  for (const auto& n : names) out.push_back(n.c_str());
  return out;
}

}  // namespace

struct metrics_profiler::state {
  CUcontext ctx = nullptr;
  bool initialized = false;
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<std::uint8_t> config;
};

metrics_profiler::metrics_profiler(int device, std::vector<std::string> metrics)
    : metrics_(std::move(metrics)), state_(std::make_unique<state>()) {
  try {
    cupti();  // first: a missing or other-version CUPTI is the reason, whatever else would fail
    MEMBENCH_CUDA_CHECK(cudaSetDevice(device));
    MEMBENCH_CUDA_CHECK(cudaFree(nullptr));  // the primary context exists from here
    state_->ctx = current_context();
    auto init = params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    MEMBENCH_CUPTI_CHECK(cuptiProfilerInitialize, &init);
    state_->initialized = true;

    auto chip = params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    chip.deviceIndex = static_cast<std::size_t>(device);
    MEMBENCH_CUPTI_CHECK(cuptiDeviceGetChipName, &chip);
    chip_ = chip.pChipName;

    auto avail = params<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
    avail.ctx = state_->ctx;
    MEMBENCH_CUPTI_CHECK(cuptiProfilerGetCounterAvailability, &avail);
    std::vector<std::uint8_t> image(avail.counterAvailabilityImageSize);
    avail.pCounterAvailabilityImage = image.data();
    MEMBENCH_CUPTI_CHECK(cuptiProfilerGetCounterAvailability, &avail);

    auto new_host = [&] {
      auto host = params<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
      host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
      host.pChipName = chip_.c_str();
      host.pCounterAvailabilityImage = image.data();
      MEMBENCH_CUPTI_CHECK(cuptiProfilerHostInitialize, &host);
      return host.pHostObject;
    };
    auto free_host = [](CUpti_Profiler_Host_Object* h) {
      auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
      p.pHostObject = h;
      cupti().cuptiProfilerHostDeinitialize(&p);
    };
    auto add_params = [](CUpti_Profiler_Host_Object* h, std::vector<const char*>& names) {
      auto add = params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
      add.pHostObject = h;
      add.ppMetricNames = names.data();
      add.numMetrics = names.size();
      return add;
    };
    // A metric this chip or CUPTI does not know is dropped (and named), not fatal to the rest.
    for (const std::string& m : std::vector<std::string>(metrics_)) {
      CUpti_Profiler_Host_Object* probe = new_host();
      std::vector<const char*> one{m.c_str()};
      auto add = add_params(probe, one);
      const CUptiResult r = cupti().cuptiProfilerHostConfigAddMetrics(&add);
      free_host(probe);
      if (r != CUPTI_SUCCESS) {
        rejected_.push_back(m);
        metrics_.erase(std::find(metrics_.begin(), metrics_.end(), m));
      }
    }
    if (metrics_.empty()) throw std::runtime_error("CUPTI accepts none of the metrics");
    state_->host = new_host();
    std::vector<const char*> names = c_names(metrics_);
    auto add = add_params(state_->host, names);
    MEMBENCH_CUPTI_CHECK(cuptiProfilerHostConfigAddMetrics, &add);
    auto size = params<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    size.pHostObject = state_->host;
    MEMBENCH_CUPTI_CHECK(cuptiProfilerHostGetConfigImageSize, &size);
    state_->config.resize(size.configImageSize);
    auto get = params<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    get.pHostObject = state_->host;
    get.configImageSize = state_->config.size();
    get.pConfigImage = state_->config.data();
    MEMBENCH_CUPTI_CHECK(cuptiProfilerHostGetConfigImage, &get);
    auto passes = params<CUpti_Profiler_Host_GetNumOfPasses_Params>(CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    passes.configImageSize = state_->config.size();
    passes.pConfigImage = state_->config.data();
    MEMBENCH_CUPTI_CHECK(cuptiProfilerHostGetNumOfPasses, &passes);
    passes_ = passes.numOfPasses;
  } catch (const std::exception& e) {
    unavailable_ = e.what();
  }
}

metrics_profiler::~metrics_profiler() {
  if (state_->host != nullptr) {
    auto p = params<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = state_->host;
    cupti().cuptiProfilerHostDeinitialize(&p);
  }
  if (state_->initialized) {
    auto p = params<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    cupti().cuptiProfilerDeInitialize(&p);
  }
}

namespace {

// The range profiler is enabled on the context only while one row is profiled.
class enabled_range_profiler {
 public:
  explicit enabled_range_profiler(CUcontext ctx) {
    auto p = params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    p.ctx = ctx;
    MEMBENCH_CUPTI_CHECK(cuptiRangeProfilerEnable, &p);
    object_ = p.pRangeProfilerObject;
  }
  ~enabled_range_profiler() {
    auto p = params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = object_;
    cupti().cuptiRangeProfilerDisable(&p);
  }
  enabled_range_profiler(const enabled_range_profiler&) = delete;
  enabled_range_profiler& operator=(const enabled_range_profiler&) = delete;
  CUpti_RangeProfiler_Object* get() const noexcept { return object_; }

 private:
  CUpti_RangeProfiler_Object* object_ = nullptr;
};

// A profiled range can never need more passes than this; more means a CUPTI misuse.
constexpr std::size_t max_passes = 256;
// Kernels one row's launch may run (cuBLAS may split a GEMM); ranges past it are dropped.
constexpr std::size_t max_kernels = 16;

}  // namespace

void metrics_profiler::profile(const std::function<void()>& prepare, const std::function<void()>& launch,
                               std::vector<std::pair<std::string, double>>& values) {
  if (unavailable_) throw std::logic_error("metrics_profiler::profile called while unavailable");
  try {
    MEMBENCH_CUDA_CHECK(cudaDeviceSynchronize());
    enabled_range_profiler range(state_->ctx);
    std::vector<const char*> names = c_names(metrics_);

    auto size = params<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
    size.pRangeProfilerObject = range.get();
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = max_kernels;
    size.maxNumRangeTreeNodes = max_kernels;
    MEMBENCH_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize, &size);
    std::vector<std::uint8_t> data(size.counterDataSize);
    auto init = params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
    init.pRangeProfilerObject = range.get();
    init.counterDataSize = data.size();
    init.pCounterData = data.data();
    MEMBENCH_CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize, &init);

    auto config = params<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
    config.pRangeProfilerObject = range.get();
    config.configSize = state_->config.size();
    config.pConfig = state_->config.data();
    config.counterDataImageSize = data.size();
    config.pCounterDataImage = data.data();
    // One range per kernel, as Nsight Compute measures: elapsed-cycle metrics (DRAM %) see
    // the kernel alone, not the host's gaps around it.
    config.range = CUPTI_AutoRange;
    config.replayMode = CUPTI_UserReplay;
    config.maxRangesPerPass = max_kernels;
    config.numNestingLevels = 1;
    config.minNestingLevel = 1;
    config.passIndex = 0;
    config.targetNestingLevel = 1;
    MEMBENCH_CUPTI_CHECK(cuptiRangeProfilerSetConfig, &config);

    // User replay: the row's own launch once per pass, its cache state restored before each.
    bool submitted = false;
    std::size_t pass = 0;
    while (!submitted) {
      if (++pass > max_passes) throw std::runtime_error(fmt::format("CUPTI asked for more than {} passes", max_passes));
      if (prepare) prepare();
      MEMBENCH_CUDA_CHECK(cudaDeviceSynchronize());
      auto start = params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
      start.pRangeProfilerObject = range.get();
      MEMBENCH_CUPTI_CHECK(cuptiRangeProfilerStart, &start);
      launch();
      MEMBENCH_CUDA_CHECK(cudaGetLastError());
      MEMBENCH_CUDA_CHECK(cudaDeviceSynchronize());
      auto stop = params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
      stop.pRangeProfilerObject = range.get();
      MEMBENCH_CUPTI_CHECK(cuptiRangeProfilerStop, &stop);
      submitted = stop.isAllPassSubmitted != 0;
    }
    passes_ = pass;
    auto decode = params<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
    decode.pRangeProfilerObject = range.get();
    MEMBENCH_CUPTI_CHECK(cuptiRangeProfilerDecodeData, &decode);

    auto info = params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    MEMBENCH_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataInfo, &info);
    if (info.numTotalRanges == 0) throw std::runtime_error("the row's launch ran no kernel");
    kernels_ = info.numTotalRanges;
    std::vector<std::vector<double>> per_kernel(kernels_, std::vector<double>(names.size()));
    for (std::size_t k = 0; k < kernels_; ++k) {
      auto eval = params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
      eval.pHostObject = state_->host;
      eval.pCounterDataImage = data.data();
      eval.counterDataImageSize = data.size();
      eval.rangeIndex = k;
      eval.ppMetricNames = names.data();
      eval.numMetrics = names.size();
      eval.pMetricValues = per_kernel[k].data();
      MEMBENCH_CUPTI_CHECK(cuptiProfilerHostEvaluateToGpuValues, &eval);
    }
    values = combine_kernels(metrics_, per_kernel);
  } catch (const cupti_error& e) {
    if (e.permanent()) unavailable_ = e.what();
    throw;
  }
}

}  // namespace membench
