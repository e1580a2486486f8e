// The error boundary around every benchmark: a row ends in a time, a skip or an error,
// never in a crash, and a fault that loses the CUDA context is named in every row after it.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>
#include <nvtx3/nvToolsExt.h>

#include "harness/core/check.hpp"
#include "harness/core/errors.hpp"
#include "harness/process/interrupt.hpp"
#include "harness/process/progress.hpp"
#include "harness/session/context.hpp"
#include "harness/session/session.hpp"

namespace membench {
namespace {

class nvtx_range {
 public:
  nvtx_range(void* domain, const std::string& name) : domain_(static_cast<nvtxDomainHandle_t>(domain)) {
    if (domain_ == nullptr) return;
    nvtxEventAttributes_t a{};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = name.c_str();
    nvtxDomainRangePushEx(domain_, &a);
  }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
  ~nvtx_range() {
    if (domain_ != nullptr) nvtxDomainRangePop(domain_);
  }

 private:
  nvtxDomainHandle_t domain_;
};

// A context error that survives cudaGetLastError() is sticky, whatever its code.
bool context_poisoned(cudaError_t seen) {
  if (is_sticky(seen)) return true;
  (void)cudaGetLastError();
  return cudaDeviceSynchronize() != cudaSuccess;
}

struct row_progress {
  progress* p;
  explicit row_progress(progress* pr, const std::string& name) : p(pr) {
    if (p != nullptr) p->begin_row(name);
  }
  ~row_progress() {
    if (p != nullptr) p->end_row();
  }
};

}  // namespace

void session::fail(benchmark::State& state, const std::string& message) {
  ++counts_.failed;
  state.SkipWithError(message.c_str());
}

void session::run(benchmark::State& state, const std::string& name, const std::function<void(bench_context&)>& body) {
  row_progress shown(progress_.get(), name);
  if (!device_) return fail(state, "not run: no CUDA device session");
  if (const int sig = interrupted_by()) return fail(state, fmt::format("not run: interrupted by signal {}", sig));
  if (!poisoned_by_.empty()) {
    // The culprit's own later repetitions are not "not run": rerunning them would fault again.
    const bool culprit = poisoned_by_.rfind(name + " (", 0) == 0;
    if (!culprit && std::find(not_run_.begin(), not_run_.end(), name) == not_run_.end()) not_run_.push_back(name);
    return fail(state, fmt::format("not run: CUDA context poisoned earlier by {}", poisoned_by_));
  }
  nvtx_range range(nvtx_, name);
  try {
    bench_context ctx(*this, state, name);
    body(ctx);
  } catch (const interrupted& e) {
    fail(state, e.what());
  } catch (const infeasible& e) {
    ++counts_.skipped;
    state.SkipWithError(fmt::format("skipped: {}", e.what()).c_str());
  } catch (const verification_error& e) {
    fail(state, fmt::format("verification failed: {}", e.what()));
  } catch (const cuda_error& e) {
    if (context_poisoned(e.code())) {
      poisoned_by_ = fmt::format("{} ({})", name, cudaGetErrorName(e.code()));
      release_cuda();
      std::fprintf(stderr, "membench: %s poisoned the CUDA context; later benchmarks will not run\n", name.c_str());
    }
    fail(state, fmt::format("CUDA error: {}", e.what()));
  } catch (const std::exception& e) {
    fail(state, fmt::format("error: {}", e.what()));
  }
}

}  // namespace membench
