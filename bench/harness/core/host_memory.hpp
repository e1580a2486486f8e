// Host memory of every kind a host-device copy can start from or land in (H1, H4), behind
// one move-only owner. The kind names are the `host` name key's values.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace membench {

enum class host_kind {
  pageable,    ///< plain operator new: the driver stages every copy through its own pinned buffer
  pinned,      ///< cudaMallocHost
  host_alloc,  ///< cudaHostAlloc(cudaHostAllocDefault): the same pages as cudaMallocHost, the other API
  wc,          ///< cudaHostAlloc(cudaHostAllocWriteCombined): uncached on the host, no PCIe snoop
  registered,  ///< pageable memory pinned in place with cudaHostRegister
};
inline constexpr std::array<host_kind, 5> all_host_kinds{host_kind::pageable, host_kind::pinned, host_kind::host_alloc,
                                                         host_kind::wc, host_kind::registered};
const char* to_string(host_kind k) noexcept;
std::optional<host_kind> parse_host_kind(std::string_view s) noexcept;
/// Whether a cudaMemcpyAsync from or to this memory can be asynchronous (page-locked).
constexpr bool is_page_locked(host_kind k) noexcept { return k != host_kind::pageable; }

class host_buffer {
 public:
  host_buffer() = default;
  /// `bytes` of `kind`, every page touched (resident before anything is timed).
  /// throws cuda_error, std::bad_alloc
  host_buffer(host_kind kind, std::size_t bytes);
  host_buffer(host_buffer&& o) noexcept;
  host_buffer& operator=(host_buffer&& o) noexcept;
  host_buffer(const host_buffer&) = delete;
  host_buffer& operator=(const host_buffer&) = delete;
  ~host_buffer();

  std::byte* data() const noexcept { return ptr_; }
  std::size_t bytes() const noexcept { return bytes_; }
  host_kind kind() const noexcept { return kind_; }

 private:
  void reset() noexcept;
  host_kind kind_ = host_kind::pageable;
  std::byte* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace membench
