#include "host_memory.hpp"

#include <cstring>
#include <new>
#include <utility>

#include <cuda_runtime_api.h>

#include "check.hpp"

namespace membench {
namespace {

constexpr std::align_val_t page_alignment{4096};

std::byte* allocate_pageable(std::size_t bytes) {
  return static_cast<std::byte*>(::operator new(bytes, page_alignment));
}

}  // namespace

const char* to_string(host_kind k) noexcept {
  switch (k) {
    case host_kind::pageable: return "pageable";
    case host_kind::pinned: return "pinned";
    case host_kind::host_alloc: return "host_alloc";
    case host_kind::wc: return "wc";
    case host_kind::registered: return "registered";
  }
  return "?";
}

std::optional<host_kind> parse_host_kind(std::string_view s) noexcept {
  for (host_kind k : all_host_kinds) {
    if (s == to_string(k)) return k;
  }
  return std::nullopt;
}

host_buffer::host_buffer(host_kind kind, std::size_t bytes) : kind_(kind), bytes_(bytes) {
  if (bytes == 0) return;
  void* p = nullptr;
  switch (kind) {
    case host_kind::pageable: p = allocate_pageable(bytes); break;
    case host_kind::pinned: MEMBENCH_CUDA_CHECK(cudaMallocHost(&p, bytes)); break;
    case host_kind::host_alloc: MEMBENCH_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocDefault)); break;
    case host_kind::wc: MEMBENCH_CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocWriteCombined)); break;
    case host_kind::registered: {
      p = allocate_pageable(bytes);
      if (const cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterDefault); e != cudaSuccess) {
        ::operator delete(p, page_alignment);
        MEMBENCH_CUDA_CHECK(e);
      }
      break;
    }
  }
  ptr_ = static_cast<std::byte*>(p);
  // Fault every page in now, so no first-touch cost lands in a timed copy.
  std::memset(ptr_, 0x5A, bytes);
}

host_buffer::host_buffer(host_buffer&& o) noexcept
    : kind_(o.kind_), ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}

host_buffer& host_buffer::operator=(host_buffer&& o) noexcept {
  if (this != &o) {
    reset();
    kind_ = o.kind_;
    ptr_ = std::exchange(o.ptr_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

host_buffer::~host_buffer() { reset(); }

void host_buffer::reset() noexcept {
  if (ptr_ == nullptr) return;
  switch (kind_) {
    case host_kind::pageable: ::operator delete(ptr_, page_alignment); break;
    case host_kind::pinned:
    case host_kind::host_alloc:
    case host_kind::wc: MEMBENCH_CUDA_LOG(cudaFreeHost(ptr_)); break;
    case host_kind::registered:
      MEMBENCH_CUDA_LOG(cudaHostUnregister(ptr_));
      ::operator delete(ptr_, page_alignment);
      break;
  }
  ptr_ = nullptr;
  bytes_ = 0;
}

}  // namespace membench
