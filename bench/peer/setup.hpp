// What every peer row needs besides its launch: the devices it names present and able to map
// each other's memory, peer access set for the row and put back after it, each GPU's buffers
// made and freed with that GPU current, work spread over several GPUs' streams inside one
// timed launch, and the counters every peer row carries (the pair, the driver's attributes,
// the link's ceiling from NVML).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <cuda_runtime_api.h>

#include "harness/core/resources.hpp"
#include "harness/device/links.hpp"
#include "harness/options/peers.hpp"
#include "harness/session/context.hpp"

namespace membench::peer {

/// throws infeasible when fewer than two GPUs are present or one of `devices` is not.
void require_devices(const std::vector<int>& devices);

/// throws infeasible when `a` and `b` cannot map each other's memory (no peer path).
void require_peer_access(int a, int b);

/// Sets peer access between `hub` and each of `others`, both ways, for its lifetime; then
/// puts back the state it found. Every change happens with the devices idle.
class peer_access_scope {
 public:
  /// throws cuda_error
  peer_access_scope(int hub, const std::vector<int>& others, bool on);
  peer_access_scope(const peer_access_scope&) = delete;
  peer_access_scope& operator=(const peer_access_scope&) = delete;
  ~peer_access_scope();

 private:
  void restore() noexcept;
  struct grant {
    int from, to;
    bool was;
  };
  bool on_;
  std::vector<grant> changed_;
};

// Makes the device current again when destroyed, if told which one.
struct restore_device {
  int previous = -1;
  restore_device() = default;
  restore_device(const restore_device&) = delete;
  restore_device& operator=(const restore_device&) = delete;
  ~restore_device();
};

/// Another stream of a GPU and an event recorded on it when its work is queued.
struct lane {
  membench::stream st;
  membench::event done;
};

/// throws infeasible when `bytes` more of `device`'s memory would not fit, naming it.
void require_bytes_on(bench_context& ctx, int device, std::uint64_t bytes);

/// What one GPU's part of a row holds besides its source.
struct side_shape {
  std::size_t destinations = 1;  ///< buffers as large as the source
  std::size_t lanes = 0;         ///< extra streams
  std::size_t partials = 0;      ///< words for a read kernel's per-block sums
};

/// One GPU's part of a peer row: a source holding peer_word(device, i), destinations, extra
/// streams, partial sums, and a stream and an event of its own. Made with its device current
/// (make_side); destroyed with it current.
struct device_side {
  restore_device restore;  // declared first: destroyed last, after the buffers and streams
  int device;
  std::size_t words;
  device_buffer<std::uint32_t> src;
  std::vector<device_buffer<std::uint32_t>> dst;
  device_buffer<std::uint32_t> partials;
  membench::stream st;
  membench::event done;  ///< recorded on st when this side's part of a launch is queued
  std::vector<lane> lanes;
  std::optional<std::uint32_t> checksum;  ///< of src, once a read row computed it

  device_side(int dev, std::size_t n, const side_shape& shape);
  device_side(const device_side&) = delete;
  device_side& operator=(const device_side&) = delete;
  ~device_side();
};

/// The sides of `devices` (shapes[i] for devices[i]), `bytes` per buffer, sources filled,
/// each device's free memory checked first. throws infeasible, cuda_error
std::vector<std::unique_ptr<device_side>> make_sides(bench_context& ctx, const std::vector<int>& devices,
                                                     std::uint64_t bytes, const std::vector<side_shape>& shapes);

/// The sides of a row, in the order it asked for them. Each family derives its own type, so
/// that two families never share sides shaped for the other.
struct peer_sides {
  std::vector<std::unique_ptr<device_side>> sides;
  device_side& operator[](std::size_t i) { return *sides[i]; }
};

/// The row's sides, kept across the rows whose names agree on src, dst and bytes.
/// throws infeasible, cuda_error
template <class Sides>
Sides& sides_for(bench_context& ctx, const std::vector<int>& devices, std::uint64_t bytes,
                 const std::vector<side_shape>& shapes) {
  return ctx.workspace<Sides>({"src", "dst", "bytes"}, [&] {
    Sides w;
    w.sides = make_sides(ctx, devices, bytes, shapes);
    return w;
  });
}

/// Poisons `words` words at `p` on `device` (its stream `st`) and waits. throws cuda_error
void poison(int device, std::uint32_t* p, std::size_t words, cudaStream_t st);

/// Work of one launch on another stream (of any GPU): `done` is an event of that stream's
/// device; a kernel launch makes `device` current around it (copies need not).
struct piece {
  int device;
  cudaStream_t st;
  cudaEvent_t done;
  std::function<void(cudaStream_t)> work;
};

/// One launch on `st` (a stream of the current device): `own` on st and each piece on its
/// own stream, all at once once what `st` queued before has run; then `st` waits for every
/// piece. `fork` is an event of the current device. throws cuda_error
void run_pieces(cudaStream_t st, cudaEvent_t fork, const std::vector<piece>& pieces,
                const std::function<void(cudaStream_t)>& own);

/// src_device, dst_device and the driver's attributes of src -> dst. throws cuda_error
void set_pair_counters(bench_context& ctx, peer_pair p);

/// link_gb_per_s (`ceiling` times `factor`), link_nvlinks and, for a rate row, pct_of_link
/// from the row's gb_per_s; nothing when the ceiling is unknown.
void set_link_counters(bench_context& ctx, const std::optional<link_ceiling>& ceiling, double factor, bool rate);

/// The ceiling of one direction between two GPUs: staged through the host (peer access off),
/// or their peer path; null when NVML cannot tell. throws cuda_error
std::optional<link_ceiling> ceiling_between(bench_context& ctx, int a, int b, bool staged);

/// The ceiling into (or out of) `hub` from all of `others` at once. throws cuda_error
std::optional<link_ceiling> ceiling_of_aggregate(bench_context& ctx, int hub, const std::vector<int>& others);

}  // namespace membench::peer
