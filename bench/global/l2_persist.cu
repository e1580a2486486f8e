// B5: L2 persistence (the access policy window, sm_80+). A resident grid of 256-thread
// blocks reads a hot set 8 times per launch and a 1 GiB streaming set once, interleaved in
// 32 KiB chunks (ld.global.cg, 16-byte loads, a checksum per block), so that 128 MiB of
// streaming data goes through the L2 between two reads of a hot line.
// policy:none launches it plainly: the streaming set evicts the hot set, which is re-read
// from DRAM every pass. policy:persist attaches an access policy window to the launch
// (cudaLaunchKernelEx, cudaLaunchAttributeAccessPolicyWindow: the hot set, hitRatio =
// set-aside / hot at most 1, hits persisting, misses streaming) after setting aside
// min(hot, cudaDevAttrMaxPersistingL2CacheSize) of L2 (cudaLimitPersistingL2CacheSize).
// policy:none/hot:0 is the streaming set alone: every row with a hot set reports `hot_us`,
// its time less that row's, and persist rows `speedup_vs_none` against the none row.
// Expected (H100, 3.0 TB/s of DRAM, ~37.5 MiB set-aside, not published): none rows run at
// DRAM speed, (1 GiB + 8 x hot) / 3.0 TB/s (hot:32M ~450 us, hot_us ~90 us); persist rows
// with hot <= set-aside run at about the streaming-only time (~355 us: the L2 hits hide
// behind the DRAM stream), so their GB/s exceeds the DRAM peak and speedup_vs_none reaches
// 1 + 8 x hot / 1 GiB (~1.25 at 32M); past the set-aside only set-aside / hot of the hot set
// persists, hot_us grows again with 8 x (hot - set-aside) and the speedup stops growing.
// L2 state: warm for every row. A flush (the cold state) reads with normal loads, which may
// not evict persisting lines (the programming guide's rule), so a cold persist row would not
// be cold; and the streaming set evicts every normal line each launch anyway. The warm-up launches leave the hot set
// persisting, so the samples are the steady state of a kernel re-launched on its hot data.
// The rows run 350-550 us, above --batch-below: no batch figure.
// Each row starts and ends with no persisting line (cudaCtxResetPersistingL2Cache) and
// restores the set-aside it found, so no other row inherits either; none rows set aside 0.
// Bytes per launch: l2_persist_bytes = 1 GiB + 8 x hot + 4 per block.
// Tiers: quick has policy:persist/hot:32M and policy:none/hot:32M (the row the profile page
// sets it against; its speedup_vs_none measures the none row when that did not run); the
// default tier has every row.
#include <cuda_runtime.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/parallel.hpp"
#include "harness/family/check.hpp"
#include "harness/family/family.hpp"
#include "harness/family/grid.hpp"
#include "kernels/common/fill.cuh"
#include "kernels/global/l2_persist.cuh"

namespace membench::global {
namespace {

constexpr std::array<std::uint64_t, 7> hot_sizes{std::uint64_t{4} << 20,  std::uint64_t{8} << 20,  std::uint64_t{16} << 20,
                                                 std::uint64_t{24} << 20, std::uint64_t{32} << 20, std::uint64_t{48} << 20,
                                                 std::uint64_t{64} << 20};
constexpr std::uint64_t quick_hot = std::uint64_t{32} << 20;

/// What the device allows; throws infeasible where it has no persisting L2.
struct persistence_limits {
  std::uint64_t max_setaside = 0;
  std::uint64_t max_window = 0;
};

persistence_limits query_persistence(const device_info& d) {
  if (d.arch() < 80)
    throw infeasible("the L2 access policy window needs sm_80 or newer; this GPU is sm_" + std::to_string(d.arch()));
  int setaside = 0, window = 0;
  MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&setaside, cudaDevAttrMaxPersistingL2CacheSize, d.index));
  MEMBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, d.index));
  if (setaside <= 0) throw infeasible("the device has no persisting L2 (cudaDevAttrMaxPersistingL2CacheSize = 0)");
  if (window <= 0) throw infeasible("the device takes no access policy window (cudaDevAttrMaxAccessPolicyWindowSize = 0)");
  return {static_cast<std::uint64_t>(setaside), static_cast<std::uint64_t>(window)};
}

/// Sets aside `bytes` of L2 for persisting lines, with none left from before, for its
/// lifetime; then turns every persisting line back to normal and restores the set-aside it
/// found. throws infeasible (the limit cannot be changed here: MPS client, MIG), cuda_error
class persisting_l2 {
 public:
  explicit persisting_l2(std::size_t bytes) {
    MEMBENCH_CUDA_CHECK(cudaDeviceGetLimit(&previous_, cudaLimitPersistingL2CacheSize));
    MEMBENCH_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
    const cudaError_t set = cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes);
    if (set != cudaSuccess) {
      if (is_sticky(set)) throw_cuda_error(set, "cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize)", __FILE__, __LINE__);
      (void)cudaGetLastError();  // not sticky: keep it out of the harness's next cudaGetLastError
      throw infeasible("cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, " + std::to_string(bytes) +
                       ") failed: " + cudaGetErrorString(set) + " (MPS clients and MIG instances cannot set it)");
    }
    engaged_ = true;
    const cudaError_t got = cudaDeviceGetLimit(&granted_, cudaLimitPersistingL2CacheSize);
    if (got != cudaSuccess) {
      restore();
      throw_cuda_error(got, "cudaDeviceGetLimit(cudaLimitPersistingL2CacheSize)", __FILE__, __LINE__);
    }
  }
  persisting_l2(persisting_l2&& o) noexcept
      : previous_(o.previous_), granted_(o.granted_), engaged_(std::exchange(o.engaged_, false)) {}
  persisting_l2& operator=(persisting_l2&&) = delete;
  persisting_l2(const persisting_l2&) = delete;
  persisting_l2& operator=(const persisting_l2&) = delete;
  ~persisting_l2() { restore(); }

  /// The set-aside the driver granted (read back: it may round).
  std::uint64_t granted() const noexcept { return granted_; }

 private:
  void restore() noexcept {
    if (!engaged_) return;
    engaged_ = false;
    MEMBENCH_CUDA_LOG(cudaCtxResetPersistingL2Cache());
    MEMBENCH_CUDA_LOG(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, previous_));
  }

  std::size_t previous_ = 0;
  std::size_t granted_ = 0;
  bool engaged_ = false;
};

struct l2_persist_workspace {
  device_buffer<word16> hot;     // l2_persist_max_hot_bytes; a row's hot set is its first `hot` bytes
  device_buffer<word16> stream;  // l2_persist_stream_bytes
  device_buffer<std::uint32_t> partials;
  std::vector<std::uint32_t> hot_sums, stream_sums;  // per chunk, computed on first verification
};

l2_persist_workspace& get_workspace(bench_context& ctx, std::uint64_t blocks) {
  return ctx.workspace<l2_persist_workspace>({}, [&] {
    ctx.require_device_bytes(l2_persist_max_hot_bytes + l2_persist_stream_bytes + 4 * blocks);
    l2_persist_workspace w{device_buffer<word16>(l2_persist_max_hot_bytes / sizeof(word16)),
                           device_buffer<word16>(l2_persist_stream_bytes / sizeof(word16)),
                           device_buffer<std::uint32_t>(blocks), {}, {}};
    fill_device<l2_persist_value>(w.hot.data(), w.hot.size(), ctx.stream(), l2_persist_hot_seed);
    fill_device<l2_persist_value>(w.stream.data(), w.stream.size(), ctx.stream(), l2_persist_stream_seed);
    MEMBENCH_CUDA_CHECK(cudaGetLastError());
    return w;
  });
}

std::vector<std::uint32_t> chunk_sums(std::uint32_t seed, std::uint64_t bytes) {
  std::vector<std::uint32_t> sums(bytes / l2_persist_chunk_bytes);
  parallel_parts(
      sums.size(),
      [&](std::size_t b, std::size_t e, std::size_t) {
        for (std::size_t c = b; c < e; ++c) sums[c] = l2_persist_chunk_sum(seed, static_cast<std::uint32_t>(c));
      },
      1);
  return sums;
}

// Every block's checksum against the host reference, from per-chunk sums made once.
output_check block_sums_check(bench_context& ctx, l2_persist_workspace& ws, const l2_persist_shape& shape,
                              std::uint32_t blocks) {
  auto verify = [&ctx, &ws, shape, blocks] {
    if (ws.hot_sums.empty()) ws.hot_sums = chunk_sums(l2_persist_hot_seed, l2_persist_max_hot_bytes);
    if (ws.stream_sums.empty()) ws.stream_sums = chunk_sums(l2_persist_stream_seed, l2_persist_stream_bytes);
    const std::vector<std::uint32_t> expected = l2_persist_block_sums(shape, blocks, ws.hot_sums, ws.stream_sums);
    verify_device_array(ctx.reader(), ws.partials.data(), blocks, [&](std::size_t b) { return expected[b]; },
                        "block checksums");
  };
  return {poison_words(ws.partials.data(), blocks, 0xB5B5), verify};
}

/// One launch through cudaLaunchKernelEx, with the window as a launch attribute or none:
/// both policies take the same launch path.
struct l2_persist_launch {
  const word16* hot = nullptr;
  const word16* stream = nullptr;
  std::uint32_t* partials = nullptr;
  l2_persist_shape shape;
  std::uint32_t blocks = 0;
  bool window = false;
  cudaAccessPolicyWindow policy{};

  void operator()(cudaStream_t s) const {
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeAccessPolicyWindow;
    attr.val.accessPolicyWindow = policy;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(l2_persist_block);
    cfg.dynamicSmemBytes = 0;
    cfg.stream = s;
    cfg.attrs = window ? &attr : nullptr;
    cfg.numAttrs = window ? 1 : 0;
    MEMBENCH_CUDA_CHECK(cudaLaunchKernelEx(&cfg, l2_persist_kernel, hot, stream, shape, partials));
  }
};

struct row_refs {
  std::string stream_only;  // policy:none/hot:0
  std::string none;         // policy:none, the same hot set (persist rows)
};

void run_l2_persist(bench_context& ctx, bool persist, std::uint64_t hot, const row_refs& refs) {
  const persistence_limits limits = query_persistence(ctx.device());
  if (persist && hot > limits.max_window)
    throw infeasible("the hot set (" + std::to_string(hot) + " bytes) exceeds the largest access policy window (" +
                     std::to_string(limits.max_window) + " bytes)");
  const auto blocks = static_cast<std::uint32_t>(resident_blocks(l2_persist_kernel, l2_persist_block, ctx.device()));
  auto& ws = get_workspace(ctx, blocks);
  if (ws.partials.size() < blocks) throw std::logic_error("l2_persist: the workspace has fewer partials than blocks");

  const l2_persist_shape shape = make_l2_persist_shape(hot, l2_persist_stream_bytes, l2_persist_passes);
  const l2_persist_launch plain{ws.hot.data(), ws.stream.data(), ws.partials.data(), shape, blocks};
  launch_options opt;
  opt.l2 = l2_state::warm;

  // The references first, under the none rows' conditions: no set-aside, no persisting line.
  double stream_only_s = std::numeric_limits<double>::quiet_NaN(), none_s = stream_only_s;
  {
    const persisting_l2 no_setaside(0);
    if (hot > 0) {
      l2_persist_launch alone = plain;
      alone.shape = make_l2_persist_shape(0, l2_persist_stream_bytes, l2_persist_passes);
      stream_only_s = ctx.reference_seconds(refs.stream_only, opt, alone);
    }
    if (persist) none_s = ctx.reference_seconds(refs.none, opt, plain);
  }

  const persisting_l2 setaside(persist ? l2_persist_setaside_request(hot, limits.max_setaside) : 0);
  l2_persist_launch launch = plain;
  float hit_ratio = 0;
  if (persist) {
    if (setaside.granted() == 0) throw infeasible("the driver granted no persisting L2 (cudaLimitPersistingL2CacheSize = 0)");
    hit_ratio = l2_persist_hit_ratio(setaside.granted(), hot);
    launch.window = true;
    launch.policy.base_ptr = ws.hot.data();
    launch.policy.num_bytes = hot;
    launch.policy.hitRatio = hit_ratio;
    launch.policy.hitProp = cudaAccessPropertyPersisting;
    launch.policy.missProp = cudaAccessPropertyStreaming;
  }
  const double t = ctx.verify_and_time(opt, l2_persist_bytes(hot, l2_persist_stream_bytes, l2_persist_passes, blocks),
                                       launch, block_sums_check(ctx, ws, shape, blocks));

  ctx.set_counter(schema::counter("setaside_bytes"), static_cast<double>(setaside.granted()));
  ctx.set_counter(schema::counter("max_setaside_bytes"), static_cast<double>(limits.max_setaside));
  ctx.set_counter(schema::counter("max_window_bytes"), static_cast<double>(limits.max_window));
  ctx.set_counter(schema::counter("hot_passes"), static_cast<double>(l2_persist_passes));
  if (persist) {
    ctx.set_counter(schema::counter("hit_ratio"), static_cast<double>(hit_ratio));
    ctx.set_counter(schema::counter("speedup_vs_none"), none_s / t);
  }
  if (hot > 0) ctx.set_counter(schema::counter("hot_us"), (t - stream_only_s) * 1e6);
}

std::vector<name_param> row_params(bool persist, std::uint64_t hot) {
  return {{"policy", persist ? "persist" : "none"}, {"hot", format_size(hot)}};
}

void make_cases(family_builder& f) {
  const std::string stream_only = f.name(row_params(false, 0));
  f.add(row_params(false, 0), suite_tier::standard,
        [=](bench_context& ctx) { run_l2_persist(ctx, false, 0, {stream_only, ""}); });
  for (bool persist : {false, true}) {
    for (std::uint64_t hot : hot_sizes) {
      const row_refs refs{stream_only, f.name(row_params(false, hot))};
      // Quick: the persisting row and the same hot set without the policy (the page's contrast).
      f.add(row_params(persist, hot), hot == quick_hot ? suite_tier::quick : suite_tier::standard,
            [=](bench_context& ctx) { run_l2_persist(ctx, persist, hot, refs); });
    }
  }
}

const family_registrar l2_persist_family{"global/l2_persist", &make_cases,
    "L2 persistence: the access policy window over a reused set", family_needs::sm80};

}  // namespace
}  // namespace membench::global
