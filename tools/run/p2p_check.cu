// membench_p2p_check: an independent check of membench's peer rows, sharing no code with
// membench's harness or kernels. For every ordered pair of the GPUs given (default: all) and
// every size, each case below timed with CUDA events on the issuing GPU's stream: the median
// of at least --reps launches and 0.5 s of them (after three untimed), each case checked once
// before it is timed.
//   copy cases (cudaMemcpyPeerAsync): push_on, pull_on, bidir_on (peer access on both ways),
//     push_off, pull_off, bidir_off (access off: the driver stages through host memory).
//     push is issued on src's stream, pull on dst's, bidir both directions at once, each on
//     its source's stream; GB/s of the bytes moved (bidir: both ways).
//   kernel cases (access on): read_uni (a kernel on dst sums src's buffer), write_uni (a
//     kernel on src stores into dst's buffer), read_bidir and write_bidir (the mirror kernel
//     on the other GPU at once); GB/s of the buffer (per kernel, summed). The timing GPU's L2
//     is flushed before each launch.
//   latency (access on): one thread on dst walks a random cycle of 128-byte-spaced pointers
//     in src's memory; ns per dependent load from the event time of a long walk.
//   all_to_one (dst = the hub, src = -1), one_to_all (src = the hub, dst = -1): every other
//     GPU copies to the hub at once, or the hub to every other at once; GB/s of all copies.
// Copies are checked at the first, middle and last words, kernel reads by their sum, kernel
// writes word by word, the chase by where the walk ends. CSV on stdout:
//   case,src,dst,bytes,value,unit
// tools/run/p2p_agree.py joins it with a membench JSON.
//
//   membench_p2p_check [--devices=0,1,...] [--reps=N] [--sizes=64M,1G] [--chains=1M,1G]
//                      [--cases=copy,kernel,latency,aggregate] [--pairs=0:1,2:0]
// --pairs measures only those ordered pairs (no aggregates), so that a script can run each
// pair in a process of its own.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

std::string current_case = "setup";  // named in every error, so that a failure says where

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "p2p_check: %s: %s: %s\n", current_case.c_str(), what, cudaGetErrorString(e));
  return false;
}
#define CHECK(expr)                       \
  do {                                    \
    if (!ok((expr), #expr)) std::exit(1); \
  } while (0)

[[noreturn]] void fail(const char* what, int src, int dst) {
  std::fprintf(stderr, "p2p_check: %d -> %d: %s\n", src, dst, what);
  std::exit(1);
}

// Enables (or disables) access from `from` to `to`; "already so" is fine.
void set_access(int from, int to, bool on) {
  CHECK(cudaSetDevice(from));
  CHECK(cudaDeviceSynchronize());
  const cudaError_t e = on ? cudaDeviceEnablePeerAccess(to, 0) : cudaDeviceDisablePeerAccess(to);
  if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorPeerAccessNotEnabled) {
    (void)cudaGetLastError();
    return;
  }
  CHECK(e);
}

struct buffer {
  int device = 0;
  void* p = nullptr;
  std::size_t bytes = 0;
  buffer(int d, std::size_t n, int fill) : device(d), bytes(n) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaMalloc(&p, n));
    CHECK(cudaMemset(p, fill, n));
    CHECK(cudaDeviceSynchronize());
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer() {
    cudaSetDevice(device);
    cudaFree(p);
  }
  template <class T>
  T* as() const { return static_cast<T*>(p); }
};

// The first, middle and last 4 bytes of `dst` hold `fill` in every byte.
bool copied(const buffer& dst, int fill) {
  for (std::size_t off : {std::size_t{0}, dst.bytes / 2, dst.bytes - 4}) {
    unsigned char got[4] = {};
    CHECK(cudaSetDevice(dst.device));
    CHECK(cudaMemcpy(got, dst.as<char>() + off, 4, cudaMemcpyDeviceToHost));
    for (unsigned char c : got) {
      if (c != static_cast<unsigned char>(fill)) return false;
    }
  }
  return true;
}

struct lane {
  int device = 0;
  cudaStream_t s = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr, mark = nullptr;
  explicit lane(int d) : device(d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&mark, cudaEventDisableTiming));
  }
  lane(const lane&) = delete;
  lane& operator=(const lane&) = delete;
  ~lane() {
    cudaSetDevice(device);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaEventDestroy(mark);
    cudaStreamDestroy(s);
  }
};

// One timed launch: `head`'s stream records the start, every other lane waits for it, runs its
// part and is joined back; `head` runs its own part between. `before` runs untimed first.
struct launch {
  lane* head = nullptr;
  std::function<void(cudaStream_t)> own;            // on head's stream (may be empty)
  std::vector<std::pair<lane*, std::function<void(cudaStream_t)>>> others;
  std::function<void()> before;                      // untimed, e.g. an L2 flush

  double seconds() const {
    if (before) before();
    CHECK(cudaSetDevice(head->device));
    CHECK(cudaEventRecord(head->start, head->s));
    for (const auto& [l, part] : others) {
      CHECK(cudaStreamWaitEvent(l->s, head->start, 0));
      CHECK(cudaSetDevice(l->device));
      part(l->s);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(l->mark, l->s));
      CHECK(cudaSetDevice(head->device));
    }
    if (own) own(head->s);
    CHECK(cudaGetLastError());
    for (const auto& [l, part] : others) CHECK(cudaStreamWaitEvent(head->s, l->mark, 0));
    CHECK(cudaEventRecord(head->stop, head->s));
    CHECK(cudaStreamSynchronize(head->s));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, head->start, head->stop));
    return ms * 1e-3;
  }
};

// Median seconds of at least `reps` timed launches and 0.5 s of them (at most 5000), after
// three untimed: staged copies (peer access off) slow by 5-10 % for tens of milliseconds now
// and then.
double median_seconds(const launch& l, int reps) {
  for (int i = 0; i < 3; ++i) l.seconds();
  std::vector<double> s;
  double total = 0;
  while ((static_cast<int>(s.size()) < reps || total < 0.5) && s.size() < 5000) {
    s.push_back(l.seconds());
    total += s.back();
  }
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

// ---- copy engines -------------------------------------------------------------------------

std::function<void(cudaStream_t)> peer_copy(const buffer& to, const buffer& from) {
  return [&to, &from](cudaStream_t s) { CHECK(cudaMemcpyPeerAsync(to.p, to.device, from.p, from.device, to.bytes, s)); };
}

double copy_case(int src, int dst, std::size_t bytes, const std::string& dir, int reps) {
  buffer a(src, bytes, 0x5a), b(dst, bytes, 0x00), back_src(dst, bytes, 0xa5), back_dst(src, bytes, 0x00);
  lane on_src(src), on_dst(dst);
  launch l;
  if (dir == "push") {
    l.head = &on_src;
    l.own = peer_copy(b, a);
  } else if (dir == "pull") {
    l.head = &on_dst;
    l.own = peer_copy(b, a);
  } else {
    l.head = &on_src;
    l.own = peer_copy(b, a);
    l.others.push_back({&on_dst, peer_copy(back_dst, back_src)});
  }
  l.seconds();
  if (!copied(b, 0x5a) || (dir == "bidir" && !copied(back_dst, 0xa5))) fail("the copy did not arrive", src, dst);
  return static_cast<double>(dir == "bidir" ? 2 * bytes : bytes) / median_seconds(l, reps) / 1e9;
}

// ---- kernels on the other GPU's memory ----------------------------------------------------

// Each block adds its threads' sums (warp shuffles, then one warp) and adds that once to `total`.
__global__ void sum_kernel(const ulonglong2* in, std::size_t n, unsigned long long* total) {
  __shared__ unsigned long long warps[32];
  unsigned long long acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    const ulonglong2 v = in[i];
    acc += (v.x & 0xffffffffu) + (v.x >> 32) + (v.y & 0xffffffffu) + (v.y >> 32);
  }
  for (int d = 16; d > 0; d /= 2) acc += __shfl_down_sync(0xffffffffu, acc, d);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x >= 32) return;
  acc = threadIdx.x < blockDim.x / 32 ? warps[threadIdx.x] : 0;
  for (int d = 16; d > 0; d /= 2) acc += __shfl_down_sync(0xffffffffu, acc, d);
  if (threadIdx.x == 0) atomicAdd(total, acc);
}

__global__ void fill_kernel(ulonglong2* out, std::size_t n, unsigned long long word) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = make_ulonglong2(word ^ i, word + i);
}

__global__ void iota_kernel(std::uint32_t* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = static_cast<std::uint32_t>(i * 2654435761u);
}

constexpr int block = 512;

int grid_of(int device, const void* kernel) {
  cudaDeviceProp p{};
  CHECK(cudaGetDeviceProperties(&p, device));
  int per_sm = 0;
  CHECK(cudaSetDevice(device));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
  return std::max(1, per_sm) * p.multiProcessorCount;
}

// A device-side flush of `device`'s L2: writes a buffer larger than it.
struct flusher {
  std::unique_ptr<buffer> big;
  explicit flusher(int device) {
    cudaDeviceProp p{};
    CHECK(cudaGetDeviceProperties(&p, device));
    big = std::make_unique<buffer>(device, 4 * static_cast<std::size_t>(p.l2CacheSize), 0);
  }
  void operator()(cudaStream_t s) const { CHECK(cudaMemsetAsync(big->p, 1, big->bytes, s)); }
};

// `reader` sums `data` (on the other GPU) into `total`, or `writer` fills `data`.
struct kernel_side {
  int device;
  buffer data, total;
  int grid;
  kernel_side(int d, int other, std::size_t bytes, bool read)
      : device(d), data(other, bytes, 0), total(d, 8, 0),
        grid(grid_of(d, read ? reinterpret_cast<const void*>(&sum_kernel) : reinterpret_cast<const void*>(&fill_kernel))) {
    CHECK(cudaSetDevice(other));
    iota_kernel<<<1024, 256>>>(data.as<std::uint32_t>(), bytes / 4);
    CHECK(cudaDeviceSynchronize());
  }
  std::function<void(cudaStream_t)> read() {
    return [this](cudaStream_t s) { sum_kernel<<<grid, block, 0, s>>>(data.as<ulonglong2>(), data.bytes / 16, total.as<unsigned long long>()); };
  }
  std::function<void(cudaStream_t)> write() {
    return [this](cudaStream_t s) { fill_kernel<<<grid, block, 0, s>>>(data.as<ulonglong2>(), data.bytes / 16, 0x9e3779b97f4a7c15ull * (device + 1)); };
  }
};

unsigned long long host_sum(std::size_t words) {
  unsigned long long sum = 0;
  for (std::size_t i = 0; i < words; ++i) sum += static_cast<std::uint32_t>(i * 2654435761u);
  return sum;
}

bool read_right(kernel_side& k) {
  CHECK(cudaSetDevice(k.device));
  CHECK(cudaMemset(k.total.p, 0, 8));
  k.read()(nullptr);
  CHECK(cudaDeviceSynchronize());
  unsigned long long got = 0;
  CHECK(cudaMemcpy(&got, k.total.p, 8, cudaMemcpyDeviceToHost));
  return got == host_sum(k.data.bytes / 4);
}

bool write_right(kernel_side& k) {
  CHECK(cudaSetDevice(k.device));
  k.write()(nullptr);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> got(k.data.bytes / 8);
  CHECK(cudaSetDevice(k.data.device));
  CHECK(cudaMemcpy(got.data(), k.data.p, k.data.bytes, cudaMemcpyDeviceToHost));
  const unsigned long long word = 0x9e3779b97f4a7c15ull * (k.device + 1);
  for (std::size_t i = 0; i < got.size() / 2; ++i) {
    if (got[2 * i] != (word ^ i) || got[2 * i + 1] != word + i) return false;
  }
  return true;
}

// op read: the kernel runs on dst and reads src's buffer; op write: on src, writing dst's.
double kernel_case(int src, int dst, std::size_t bytes, bool read, bool bidir, int reps) {
  const int me = read ? dst : src, other = read ? src : dst;
  kernel_side mine(me, other, bytes, read), theirs(other, me, bytes, read);
  if (!(read ? read_right(mine) : write_right(mine))) fail("the kernel's data is wrong", src, dst);
  if (bidir && !(read ? read_right(theirs) : write_right(theirs))) fail("the mirror kernel's data is wrong", src, dst);
  lane on_me(me), on_other(other);
  const flusher flush(me);
  launch l;
  l.head = &on_me;
  l.own = read ? mine.read() : mine.write();
  if (bidir) l.others.push_back({&on_other, read ? theirs.read() : theirs.write()});
  l.before = [&] {
    CHECK(cudaSetDevice(me));
    flush(on_me.s);
  };
  return static_cast<double>(bidir ? 2 * bytes : bytes) / median_seconds(l, reps) / 1e9;
}

// ---- latency ------------------------------------------------------------------------------

// Walks `steps` loads on from *at and leaves where it stopped there: the walk goes on from
// launch to launch through the whole chain, as a chain larger than L2 needs.
__global__ void walk_kernel(std::uint64_t* at, std::uint64_t steps) {
  auto p = reinterpret_cast<const std::uint64_t*>(*at);
  for (std::uint64_t i = 0; i < steps; ++i) p = reinterpret_cast<const std::uint64_t*>(*p);
  *at = reinterpret_cast<std::uint64_t>(p);
}

// A random cycle over `bytes / 128` nodes 128 bytes apart in `chain` (on src), built on the host.
std::vector<std::uint64_t> cycle_image(std::uint64_t base, std::size_t bytes, std::vector<std::size_t>& order) {
  const std::size_t nodes = bytes / 128, stride = 128 / 8;
  order.resize(nodes);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64{12345});
  std::vector<std::uint64_t> image(bytes / 8, 0);
  for (std::size_t i = 0; i < nodes; ++i) image[order[i] * stride] = base + 128 * order[(i + 1) % nodes];
  return image;
}

double latency_case(int src, int dst, std::size_t bytes, int reps) {
  buffer chain(src, bytes, 0), at(dst, 8, 0);
  std::vector<std::size_t> order;
  const auto base = reinterpret_cast<std::uint64_t>(chain.p);
  const std::vector<std::uint64_t> image = cycle_image(base, bytes, order);
  CHECK(cudaSetDevice(src));
  CHECK(cudaMemcpy(chain.p, image.data(), bytes, cudaMemcpyHostToDevice));
  const std::uint64_t steps = 1 << 16;
  const std::size_t nodes = order.size();
  CHECK(cudaSetDevice(dst));
  CHECK(cudaMemcpy(at.p, &base, 8, cudaMemcpyHostToDevice));
  walk_kernel<<<1, 1>>>(at.as<std::uint64_t>(), steps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::uint64_t got = 0;
  CHECK(cudaMemcpy(&got, at.p, 8, cudaMemcpyDeviceToHost));
  if (got != base + 128 * order[steps % nodes]) fail("the walk ended at the wrong node", src, dst);
  lane on_dst(dst);
  launch l;
  l.head = &on_dst;
  l.own = [&](cudaStream_t s) { walk_kernel<<<1, 1, 0, s>>>(at.as<std::uint64_t>(), steps); };
  return median_seconds(l, std::min(reps, 5)) / static_cast<double>(steps) * 1e9;
}

// ---- aggregates ---------------------------------------------------------------------------

// to_hub: every other GPU pushes its buffer into one of the hub's; else the hub pushes its
// buffer to every other GPU, one stream per destination.
double aggregate_case(int hub, const std::vector<int>& devices, std::size_t bytes, bool to_hub, int reps) {
  std::vector<std::unique_ptr<buffer>> from, to;
  std::vector<std::unique_ptr<lane>> lanes;
  lane head(hub);
  launch l;
  l.head = &head;
  for (int o : devices) {
    if (o == hub) continue;
    from.push_back(std::make_unique<buffer>(to_hub ? o : hub, bytes, 0x40 + o));
    to.push_back(std::make_unique<buffer>(to_hub ? hub : o, bytes, 0));
    lanes.push_back(std::make_unique<lane>(to_hub ? o : hub));
    l.others.push_back({lanes.back().get(), peer_copy(*to.back(), *from.back())});
  }
  l.seconds();
  for (std::size_t i = 0; i < to.size(); ++i) {
    if (!copied(*to[i], 0x40 + (to_hub ? from[i]->device : to[i]->device))) fail("an aggregate copy did not arrive", hub, hub);
  }
  return static_cast<double>(to.size() * bytes) / median_seconds(l, reps) / 1e9;
}

// ---- the command line ---------------------------------------------------------------------

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

// Digits alone (strtoull would take a sign, blanks, and wrap "-64" to a huge number).
bool all_digits(const std::string& s, std::size_t n) {
  return n > 0 && n <= 12 && std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(n),
                                         [](unsigned char c) { return std::isdigit(c) != 0; });
}

std::size_t parse_size(const std::string& s) {
  const std::size_t digits = s.find_first_not_of("0123456789");
  const std::string unit = digits == std::string::npos ? "" : s.substr(digits);
  const std::size_t shift = unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : 0;
  const bool ok = all_digits(s, digits == std::string::npos ? s.size() : digits) && (unit.empty() || shift != 0);
  const unsigned long long v = ok ? std::stoull(s.substr(0, digits)) : 0;
  if (v == 0 || (v << shift) >> shift != v) {
    std::fprintf(stderr, "p2p_check: bad size '%s' (64M, 1G, ...)\n", s.c_str());
    std::exit(2);
  }
  return static_cast<std::size_t>(v) << shift;
}

// A whole number from `low` to `high` for `option`, or exit 2 naming it.
int parse_int(const std::string& s, const char* option, int low, int high) {
  const long long v = all_digits(s, s.size()) ? std::stoll(s) : -1;
  if (v < low || v > high) {
    std::fprintf(stderr, "p2p_check: %s: '%s' is not a whole number from %d to %d\n", option, s.c_str(), low, high);
    std::exit(2);
  }
  return static_cast<int>(v);
}

// A value named twice would be measured twice: the CSV would carry its case twice (p2p_agree.py
// refuses that), and a GPU named twice would be paired with itself.
template <class T, class Show>
void refuse_repeated(const std::vector<T>& values, const char* flag, Show show) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto before = values.begin() + static_cast<std::ptrdiff_t>(i);
    if (std::find(values.begin(), before, values[i]) == before) continue;
    std::fprintf(stderr, "p2p_check: %s names %s twice\n", flag, show(values[i]).c_str());
    std::exit(2);
  }
}

std::string gpu_text(int d) { return "GPU " + std::to_string(d); }
std::string bytes_text(std::size_t b) { return std::to_string(b) + " bytes"; }
std::string pair_text(const std::pair<int, int>& p) { return std::to_string(p.first) + ":" + std::to_string(p.second); }

std::vector<std::string> parse_groups(const std::string& text) {
  std::vector<std::string> groups = split(text);
  for (const auto& g : groups) {
    if (g != "copy" && g != "kernel" && g != "latency" && g != "aggregate") {
      std::fprintf(stderr, "p2p_check: --cases: no case group '%s' (copy, kernel, latency, aggregate)\n", g.c_str());
      std::exit(2);
    }
  }
  return groups;
}

std::string size_text(std::size_t bytes) {
  char buf[32];
  if (bytes % (1u << 30) == 0) std::snprintf(buf, sizeof buf, "%zuG", bytes >> 30);
  else if (bytes % (1u << 20) == 0) std::snprintf(buf, sizeof buf, "%zuM", bytes >> 20);
  else std::snprintf(buf, sizeof buf, "%zu", bytes);
  return buf;
}

struct settings {
  std::vector<int> devices;
  std::vector<std::size_t> sizes{std::size_t{64} << 20, std::size_t{1} << 30};
  std::vector<std::size_t> chains{std::size_t{1} << 20, std::size_t{1} << 30};
  std::vector<std::string> groups{"copy", "kernel", "latency", "aggregate"};
  std::vector<std::pair<int, int>> pairs;  // empty: every ordered pair of `devices`
  int reps = 20;
  bool wants(const char* group) const { return std::find(groups.begin(), groups.end(), group) != groups.end(); }
};

// `count`: the GPUs present, or -1 to check the options' form alone (before any CUDA call).
settings parse(int argc, char** argv, int count) {
  settings s;
  for (int i = 0; i < count; ++i) s.devices.push_back(i);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* flag) { return a.rfind(flag, 0) == 0 ? a.substr(std::strlen(flag)) : std::string{"\x01"}; };
    if (const auto v = value("--devices="); v != "\x01") {
      s.devices.clear();
      for (const auto& d : split(v)) s.devices.push_back(parse_int(d, "--devices", 0, 1023));
      refuse_repeated(s.devices, "--devices", gpu_text);
    } else if (const auto r = value("--reps="); r != "\x01") {
      s.reps = parse_int(r, "--reps", 1, 100000);
    } else if (const auto z = value("--sizes="); z != "\x01") {
      s.sizes.clear();
      for (const auto& x : split(z)) s.sizes.push_back(parse_size(x));
      refuse_repeated(s.sizes, "--sizes", bytes_text);
    } else if (const auto c = value("--chains="); c != "\x01") {
      s.chains.clear();
      for (const auto& x : split(c)) s.chains.push_back(parse_size(x));
      refuse_repeated(s.chains, "--chains", bytes_text);
    } else if (const auto g = value("--cases="); g != "\x01") {
      s.groups = parse_groups(g);
    } else if (const auto q = value("--pairs="); q != "\x01") {
      for (const auto& x : split(q)) {
        const std::size_t colon = x.find(':');
        if (colon == std::string::npos) {
          std::fprintf(stderr, "p2p_check: bad pair '%s' (SRC:DST)\n", x.c_str());
          std::exit(2);
        }
        s.pairs.emplace_back(parse_int(x.substr(0, colon), "--pairs", 0, 1023),
                             parse_int(x.substr(colon + 1), "--pairs", 0, 1023));
      }
    } else {
      std::fprintf(stderr, "usage: %s [--devices=0,1,...] [--reps=N] [--sizes=64M,1G] [--chains=1M,1G] "
                   "[--cases=copy,kernel,latency,aggregate] [--pairs=0:1,2:0]\n", argv[0]);
      std::exit(2);
    }
  }
  refuse_repeated(s.pairs, "--pairs", pair_text);
  for (const auto& [a, b] : s.pairs) {
    if (a == b) {
      std::fprintf(stderr, "p2p_check: pair %d:%d is one GPU\n", a, b);
      std::exit(2);
    }
    s.devices.push_back(a);
    s.devices.push_back(b);
  }
  for (int d : s.devices) {
    if (d < 0 || (count >= 0 && d >= count)) {
      std::fprintf(stderr, "p2p_check: no device %d (%d present)\n", d, count);
      std::exit(2);
    }
  }
  return s;
}

// Names the case for any error on the way, measures it and prints its line.
void run_case(const std::string& c, int src, int dst, std::size_t bytes, const char* unit, const std::function<double()>& measure) {
  current_case = c + " " + std::to_string(src) + " -> " + std::to_string(dst) + " " + size_text(bytes);
  const double value = measure();
  std::printf("%s,%d,%d,%s,%.2f,%s\n", c.c_str(), src, dst, size_text(bytes).c_str(), value, unit);
  std::fflush(stdout);
}

bool peers(int a, int b) {
  int ab = 0, ba = 0;
  CHECK(cudaDeviceCanAccessPeer(&ab, a, b));
  CHECK(cudaDeviceCanAccessPeer(&ba, b, a));
  return ab != 0 && ba != 0;
}

void access_all(const std::vector<int>& devices, bool on) {
  for (int a : devices) {
    for (int b : devices) {
      if (a != b && peers(a, b)) set_access(a, b, on);
    }
  }
}

void pair_cases(const settings& s, int src, int dst) {
  const bool path = peers(src, dst);
  for (std::size_t bytes : s.sizes) {
    for (const char* access : {"on", "off"}) {
      const bool on = access[1] == 'n';
      if (!s.wants("copy") || (on && !path)) continue;  // no peer path: membench skips these too
      set_access(src, dst, on);
      set_access(dst, src, on);
      for (const char* dir : {"push", "pull", "bidir"})
        run_case(std::string(dir) + "_" + access, src, dst, bytes, "gb_per_s",
                 [&] { return copy_case(src, dst, bytes, dir, s.reps); });
    }
    if (!s.wants("kernel") || !path) continue;
    set_access(src, dst, true);
    set_access(dst, src, true);
    for (const char* op : {"read", "write"}) {
      for (const char* dir : {"uni", "bidir"}) {
        run_case(std::string(op) + "_" + dir, src, dst, bytes, "gb_per_s",
                 [&] { return kernel_case(src, dst, bytes, op[0] == 'r', dir[0] == 'b', s.reps); });
      }
    }
  }
  set_access(src, dst, path);
  set_access(dst, src, path);
  for (std::size_t bytes : s.chains) {
    if (s.wants("latency") && path)
      run_case("latency", src, dst, bytes, "ns_per_load", [&] { return latency_case(src, dst, bytes, s.reps); });
  }
  set_access(src, dst, false);
  set_access(dst, src, false);
}

}  // namespace

int main(int argc, char** argv) {
  parse(argc, argv, -1);  // a bad option is said as such, not as the missing GPU
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    std::fprintf(stderr, "p2p_check: needs two GPUs (found %d)\n", count);
    return 3;
  }
  const settings s = parse(argc, argv, count);
  std::printf("case,src,dst,bytes,value,unit\n");
  if (!s.pairs.empty()) {
    for (const auto& [src, dst] : s.pairs) pair_cases(s, src, dst);
    return 0;  // aggregates need every GPU: --devices
  }
  for (int src : s.devices) {
    for (int dst : s.devices) {
      if (src != dst) pair_cases(s, src, dst);
    }
  }
  if (!s.wants("aggregate") || s.devices.size() < 3) return 0;  // with two GPUs an aggregate is a pair's copy
  access_all(s.devices, true);
  for (std::size_t bytes : s.sizes) {
    for (int hub : s.devices) {
      run_case("all_to_one", -1, hub, bytes, "gb_per_s", [&] { return aggregate_case(hub, s.devices, bytes, true, s.reps); });
      run_case("one_to_all", hub, -1, bytes, "gb_per_s", [&] { return aggregate_case(hub, s.devices, bytes, false, s.reps); });
    }
  }
  access_all(s.devices, false);
  return 0;
}
