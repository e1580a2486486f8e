#include "resources.hpp"

#include "harness_kernels.hpp"

namespace membench {
namespace detail {

void* allocate(memory_kind kind, std::size_t bytes) {
  void* p = nullptr;
  if (bytes == 0) return nullptr;
  switch (kind) {
    case memory_kind::device: MEMBENCH_CUDA_CHECK(cudaMalloc(&p, bytes)); break;
    case memory_kind::pinned: MEMBENCH_CUDA_CHECK(cudaMallocHost(&p, bytes)); break;
    case memory_kind::mapped: MEMBENCH_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocMapped)); break;
    case memory_kind::managed: MEMBENCH_CUDA_CHECK(cudaMallocManaged(&p, bytes)); break;
  }
  return p;
}

void release(memory_kind kind, void* p) noexcept {
  switch (kind) {
    case memory_kind::device:
    case memory_kind::managed: MEMBENCH_CUDA_LOG(cudaFree(p)); break;
    case memory_kind::pinned:
    case memory_kind::mapped: MEMBENCH_CUDA_LOG(cudaFreeHost(p)); break;
  }
}

}  // namespace detail

stream::stream() { MEMBENCH_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }

stream& stream::operator=(stream&& o) noexcept {
  if (this != &o) {
    if (s_ != nullptr) MEMBENCH_CUDA_LOG(cudaStreamDestroy(s_));
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}

stream::~stream() {
  if (s_ != nullptr) MEMBENCH_CUDA_LOG(cudaStreamDestroy(s_));
}

void stream::synchronize() const { MEMBENCH_CUDA_CHECK(cudaStreamSynchronize(s_)); }

event::event() { MEMBENCH_CUDA_CHECK(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming)); }

event& event::operator=(event&& o) noexcept {
  if (this != &o) {
    if (e_ != nullptr) MEMBENCH_CUDA_LOG(cudaEventDestroy(e_));
    e_ = std::exchange(o.e_, nullptr);
  }
  return *this;
}

event::~event() {
  if (e_ != nullptr) MEMBENCH_CUDA_LOG(cudaEventDestroy(e_));
}

void event::order(cudaStream_t from, cudaStream_t to) {
  MEMBENCH_CUDA_CHECK(cudaEventRecord(e_, from));
  MEMBENCH_CUDA_CHECK(cudaStreamWaitEvent(to, e_, 0));
}

event_timer::event_timer() {
  MEMBENCH_CUDA_CHECK(cudaEventCreate(&start_));
  MEMBENCH_CUDA_CHECK(cudaEventCreate(&stop_));
}

event_timer::~event_timer() {
  if (start_ != nullptr) MEMBENCH_CUDA_LOG(cudaEventDestroy(start_));
  if (stop_ != nullptr) MEMBENCH_CUDA_LOG(cudaEventDestroy(stop_));
}

void event_timer::start(cudaStream_t s) { MEMBENCH_CUDA_CHECK(cudaEventRecord(start_, s)); }
void event_timer::stop(cudaStream_t s) { MEMBENCH_CUDA_CHECK(cudaEventRecord(stop_, s)); }

double event_timer::seconds() {
  MEMBENCH_CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  MEMBENCH_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return static_cast<double>(ms) * 1e-3;
}

device_scope::device_scope(int device) {
  MEMBENCH_CUDA_CHECK(cudaGetDevice(&previous_));
  MEMBENCH_CUDA_CHECK(cudaSetDevice(device));
}

device_scope::~device_scope() { MEMBENCH_CUDA_LOG(cudaSetDevice(previous_)); }

l2_flusher::l2_flusher(std::size_t l2_bytes) : buffer_(2 * l2_bytes / sizeof(std::uint32_t) + 1024), sink_(1) {
  fill_words(buffer_.data(), buffer_.size(), 0xF1u, nullptr);
  MEMBENCH_CUDA_CHECK(cudaDeviceSynchronize());
}

void l2_flusher::flush(cudaStream_t s) { read_words(buffer_.data(), buffer_.size(), sink_.data(), s); }

}  // namespace membench
