// The buffers a family makes for a row, kept across Google Benchmark's calls and across
// rows that ask for the same key. One slot: a new key frees the old one first, so a sweep
// never holds two families' gigabytes at once. What it holds is freed with the device it was
// made on current (a peer row may have moved the row to another GPU meanwhile).
#pragma once

#include <memory>
#include <string>
#include <typeindex>

#include <cuda_runtime_api.h>

namespace membench {

class workspace_cache {
 public:
  /// The object `make()` returns for (W, key); made when the slot holds anything else.
  template <class W, class Make>
  W& get(const std::string& key, Make&& make) {
    std::shared_ptr<void>& slot = slot_for(key, typeid(W));
    if (!slot) {
      slot = std::make_shared<W>(make());
      if (cudaGetDevice(&device_) != cudaSuccess) device_ = -1;
    }
    return *static_cast<W*>(slot.get());
  }
  /// Frees what the slot holds (before a poisoned context is abandoned, at close).
  void clear() noexcept {
    release();
    key_.clear();
    type_ = typeid(void);
  }

 private:
  std::shared_ptr<void>& slot_for(const std::string& key, std::type_index type) {
    if (key_ != key || type_ != type) {
      release();  // free before the next allocation, never hold both
      key_ = key;
      type_ = type;
    }
    return slot_;
  }

  void release() noexcept {
    int current = -1;
    const bool moved = slot_ && device_ >= 0 && cudaGetDevice(&current) == cudaSuccess && current != device_ &&
                       cudaSetDevice(device_) == cudaSuccess;
    slot_.reset();
    if (moved) (void)cudaSetDevice(current);
  }

  std::string key_;
  std::type_index type_{typeid(void)};
  std::shared_ptr<void> slot_;
  int device_ = -1;  ///< current when the slot's content was made
};

}  // namespace membench
