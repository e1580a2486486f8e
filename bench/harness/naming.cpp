#include "naming.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <fmt/format.h>

namespace membench {
namespace {

constexpr std::array<std::pair<char, int>, 4> size_units{{{'T', 40}, {'G', 30}, {'M', 20}, {'K', 10}}};

bool is_token(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool is_size_token(std::string_view s) {
  try {
    (void)parse_size(s);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

const name_key* find_key(std::string_view key) {
  const auto& keys = name_keys();
  auto it = std::find_if(keys.begin(), keys.end(), [&](const name_key& k) { return k.key == key; });
  return it == keys.end() ? nullptr : &*it;
}

void check_param(const name_param& p) {
  if (find_key(p.key) == nullptr) throw std::invalid_argument(fmt::format("unknown name key '{}'", p.key));
  // Byte and element counts take size tokens (64M, 1K); everything else is a plain token.
  const std::string_view unit = find_key(p.key)->unit;
  const bool ok = unit == "bytes" || unit == "elements" ? is_size_token(p.value) : is_token(p.value);
  if (!ok) throw std::invalid_argument(fmt::format("bad value '{}' for key '{}'", p.value, p.key));
}

// Google Benchmark appends these to the names we register.
bool is_framework_segment(std::string_view seg) {
  for (std::string_view prefix : {"repeats:", "threads:", "iterations:", "min_time:", "min_warmup_time:"}) {
    if (seg.substr(0, prefix.size()) == prefix) return true;
  }
  return seg == "manual_time" || seg == "real_time" || seg == "process_time";
}

}  // namespace

std::string format_size(std::uint64_t bytes) {
  if (bytes != 0) {
    for (auto [suffix, shift] : size_units) {
      const std::uint64_t unit = std::uint64_t{1} << shift;
      if (bytes % unit == 0) return fmt::format("{}{}", bytes / unit, suffix);
    }
  }
  return fmt::format("{}", bytes);
}

std::uint64_t parse_size(std::string_view text) {
  if (text.empty()) throw std::invalid_argument("empty size");
  int shift = 0;
  std::string_view digits = text;
  for (auto [suffix, s] : size_units) {
    if (text.back() == suffix) {
      shift = s;
      digits = text.substr(0, text.size() - 1);
      break;
    }
  }
  if (digits.empty() || digits.size() > 19 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    throw std::invalid_argument(fmt::format("bad size '{}' (expected digits with optional K, M, G, T)", text));
  }
  std::uint64_t value = std::stoull(std::string(digits));
  if (shift > 0 && value > (UINT64_MAX >> shift)) throw std::invalid_argument(fmt::format("size '{}' overflows", text));
  return value << shift;
}

const std::vector<name_key>& name_keys() {
  static const std::vector<name_key> keys{
      {"type", "-", "element type: f32, f64"},
      {"width", "bytes", "bytes per element access: 1, 2, 4, 8, 16"},
      {"offset", "elements", "misalignment of the access start"},
      {"stride", "elements", "distance between the elements consecutive threads read"},
      {"map", "-", "thread-to-address map across passes: fixed (same addresses, L1 reuse) or rotate (L2 only)"},
      {"unroll", "elements", "independent accesses per thread per loop iteration"},
      {"block", "threads", "threads per block"},
      {"style", "-", "gridstride (one resident wave loops) or perthread (one block per tile, no loop)"},
      {"l2", "-", "L2 state before each timed launch: cold (flushed) or warm"},
      {"cause", "-", "the fault a demonstration kernel raises: illegal_address, misaligned_address"},
      {"dir", "-", "copy direction: h2d, d2h, d2d (device to device); between GPUs: d0_d1, d1_d0, bidir (both at once)"},
      {"host", "-", "host memory kind: pageable, pinned (cudaMallocHost), host_alloc (cudaHostAlloc), wc (write-combined), registered (cudaHostRegister)"},
      {"api", "-", "the API call a row measures: memcpy (synchronous), memcpy_async, symbol (cudaMemcpyToSymbol / FromSymbol), memcpy_2d (cudaMemcpy2DAsync), memset (cudaMemsetAsync, cudaMemset2DAsync in memset_2d), memset_d8/d16/d32 (cuMemsetD*Async, cuMemsetD2D*Async), kernel, malloc, malloc_host, malloc_async, device_malloc (in-kernel malloc/free)"},
      {"memory", "-", "where the data lives: device (cudaMalloc), mapped (zero-copy host memory), symbol (a static __device__ array)"},
      {"policy", "-", "managed-memory state before the kernel: fault, prefetch, resident, read_mostly, accessed_by"},
      {"streams", "streams", "CUDA streams a chunked pipeline is spread over"},
      {"intensity", "-", "arithmetic per element of a pipeline's kernel: low or high"},
      {"pattern", "-", "access pattern: coalesced, scattered, uniform (one address per warp), per_lane, strided, tile (column of [32][32]), padded (column of [32][33]), broadcast"},
      {"load", "-", "load path: plain, restrict (const __restrict__), ldg (__ldg), constant"},
      {"source", "-", "where a kernel's coefficients live: constant, ldg, global"},
      {"config", "-", "cudaFuncSetCacheConfig preference: prefer_none, prefer_shared, prefer_l1, prefer_equal"},
      {"carveout", "percent", "cudaFuncAttributePreferredSharedMemoryCarveout: shared-memory share of the unified L1/shared"},
      {"storage", "-", "where a per-thread array lives: registers or local (spilled)"},
      {"elems", "elements", "elements in a per-thread array, or in a vector"},
      {"block_bytes", "bytes", "working set of one block; binary suffixes K, M, G"},
      {"variant", "-", "step of a kernel progression (naive, coalesced, tile16, ...) or the vendor reference (cublas)"},
      {"n", "elements", "matrix order N (N x N operands)"},
      {"on", "-", "where the work runs: gpu, cpu1 (one CPU thread), cpu_omp (OpenMP, every core)"},
      {"math", "-", "math library: precise (IEEE sqrtf, cosf, tanhf) or fast (--use_fast_math intrinsics)"},
      {"transfers", "-", "with: the row includes the H2D copies of the inputs and the D2H copy of the result; without: kernel only"},
      {"access", "-", "peer access between two GPUs: on (cudaDeviceEnablePeerAccess) or off (staged through the host)"},
      {"layout", "-", "2D allocation: pitched (cudaMallocPitch) or packed (rows of exactly the width, cudaMalloc)"},
      {"row_bytes", "bytes", "width of one row of a 2D array in bytes"},
      {"rows", "rows", "rows of a 2D array"},
      {"alloc_bytes", "bytes", "size of one allocation"},
      {"op", "-", "the half of an allocation pair a row times: alloc or free (the other half runs untimed between samples)"},
      {"bytes", "bytes", "buffer size; binary suffixes K, M, G = KiB, MiB, GiB"},
  };
  return keys;
}

std::string bench_name::str() const {
  if (!is_token(space) || !is_token(experiment)) {
    throw std::invalid_argument(fmt::format("bad space/experiment '{}/{}'", space, experiment));
  }
  std::string out = space + "/" + experiment;
  for (const auto& p : params) {
    check_param(p);
    out += fmt::format("/{}:{}", p.key, p.value);
  }
  return out;
}

std::optional<std::string> bench_name::get(std::string_view key) const {
  for (const auto& p : params) {
    if (p.key == key) return p.value;
  }
  return std::nullopt;
}

bench_name parse_name(std::string_view text) {
  for (std::string_view agg : {"_mean", "_median", "_stddev", "_cv"}) {
    if (text.size() > agg.size() && text.substr(text.size() - agg.size()) == agg) {
      text.remove_suffix(agg.size());
      break;
    }
  }
  std::vector<std::string_view> segs;
  while (true) {
    auto slash = text.find('/');
    segs.push_back(text.substr(0, slash));
    if (slash == std::string_view::npos) break;
    text.remove_prefix(slash + 1);
  }
  while (!segs.empty() && is_framework_segment(segs.back())) segs.pop_back();
  if (segs.size() < 2) throw std::invalid_argument("name needs <space>/<experiment>");
  bench_name name{std::string(segs[0]), std::string(segs[1]), {}};
  for (std::size_t i = 2; i < segs.size(); ++i) {
    auto colon = segs[i].find(':');
    if (colon == std::string_view::npos) throw std::invalid_argument(fmt::format("segment '{}' is not key:value", segs[i]));
    name_param p{std::string(segs[i].substr(0, colon)), std::string(segs[i].substr(colon + 1))};
    check_param(p);
    name.params.push_back(std::move(p));
  }
  if (!is_token(name.space) || !is_token(name.experiment))
    throw std::invalid_argument(fmt::format("bad space/experiment '{}/{}'", name.space, name.experiment));
  return name;
}

}  // namespace membench
