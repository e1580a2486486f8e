// Move-only RAII for every CUDA resource. Constructors allocate and throw cuda_error;
// destructors log failures and never throw. Nothing here runs at static-init time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <cuda_runtime_api.h>

#include "check.hpp"

namespace membench {

namespace detail {
enum class memory_kind { device, pinned, mapped, managed };
void* allocate(memory_kind kind, std::size_t bytes);
void release(memory_kind kind, void* p) noexcept;
}  // namespace detail

/// A typed buffer of `count` elements in one kind of memory.
template <class T, detail::memory_kind Kind>
class basic_buffer {
 public:
  basic_buffer() = default;
  explicit basic_buffer(std::size_t count)
      : ptr_(static_cast<T*>(detail::allocate(Kind, count * sizeof(T)))), count_(count) {}
  basic_buffer(basic_buffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  basic_buffer& operator=(basic_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  basic_buffer(const basic_buffer&) = delete;
  basic_buffer& operator=(const basic_buffer&) = delete;
  ~basic_buffer() { reset(); }

  T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return count_; }
  std::size_t bytes() const noexcept { return count_ * sizeof(T); }
  void reset() noexcept {
    if (ptr_ != nullptr) detail::release(Kind, ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

template <class T> using device_buffer = basic_buffer<T, detail::memory_kind::device>;
template <class T> using pinned_buffer = basic_buffer<T, detail::memory_kind::pinned>;
template <class T> using managed_buffer = basic_buffer<T, detail::memory_kind::managed>;

/// Host memory mapped into the device address space (zero-copy).
template <class T>
class mapped_buffer : public basic_buffer<T, detail::memory_kind::mapped> {
 public:
  using basic_buffer<T, detail::memory_kind::mapped>::basic_buffer;
  /// throws cuda_error
  T* device_data() const {
    void* d = nullptr;
    MEMBENCH_CUDA_CHECK(cudaHostGetDevicePointer(&d, this->data(), 0));
    return static_cast<T*>(d);
  }
};

/// A non-blocking stream (never the legacy default stream).
class stream {
 public:
  stream();  ///< throws cuda_error
  stream(stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  stream& operator=(stream&& o) noexcept;
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream();
  cudaStream_t get() const noexcept { return s_; }
  void synchronize() const;  ///< throws cuda_error

 private:
  cudaStream_t s_ = nullptr;
};

/// One CUDA event without timing: orders work across streams (fork and join).
class event {
 public:
  event();  ///< throws cuda_error
  event(event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  event& operator=(event&& o) noexcept;
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  ~event();
  cudaEvent_t get() const noexcept { return e_; }
  /// Records on `from`; `to` waits for it. throws cuda_error
  void order(cudaStream_t from, cudaStream_t to);

 private:
  cudaEvent_t e_ = nullptr;
};

/// A start/stop pair of CUDA events recorded on one stream.
class event_timer {
 public:
  event_timer();  ///< throws cuda_error
  event_timer(event_timer&& o) noexcept
      : start_(std::exchange(o.start_, nullptr)), stop_(std::exchange(o.stop_, nullptr)) {}
  event_timer& operator=(event_timer&&) = delete;
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;
  ~event_timer();
  void start(cudaStream_t s);  ///< throws cuda_error
  void stop(cudaStream_t s);   ///< throws cuda_error
  /// Waits for the stop event; seconds between the two events. throws cuda_error
  double seconds();

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

/// Makes `device` current for its lifetime and restores the previous one.
class device_scope {
 public:
  explicit device_scope(int device);  ///< throws cuda_error
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;
  ~device_scope();

 private:
  int previous_ = 0;
};

/// Evicts the benchmark's data from L2 by reading a buffer twice the L2 size, so the
/// evicted lines are clean and no write-back spills into the next timed launch.
class l2_flusher {
 public:
  explicit l2_flusher(std::size_t l2_bytes);  ///< throws cuda_error
  void flush(cudaStream_t s);                 ///< throws cuda_error
  std::size_t bytes() const noexcept { return buffer_.bytes(); }

 private:
  device_buffer<std::uint32_t> buffer_;
  device_buffer<std::uint32_t> sink_;
};

}  // namespace membench
