// membench_p2p_check: an independent check of membench's peer/copy rows, sharing no code with
// membench's harness. For every ordered pair of the GPUs given (default: all), a plain loop of
// cudaMemcpyPeerAsync timed with CUDA events on the issuing GPU's stream, the median of at
// least --reps copies and 0.5 s of them (after three untimed): `push_on` (peer access on both ways, issued on src's stream), `push_off` (peer
// access off: the driver stages through host memory) and `bidir_on` (src to dst on src's stream
// and dst to src on dst's at once, joined by events; bytes both ways), at 64 MiB and 1 GiB.
// Each case checks one copy's first, middle and last words first. CSV on stdout:
//   case,src,dst,bytes,gb_per_s
// tools/run/p2p_agree.py joins it with a membench JSON.
//
//   membench_p2p_check [--devices=0,1,...] [--reps=N] [--sizes=64M,1G]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

bool ok(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "p2p_check: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}
#define CHECK(expr)                       \
  do {                                    \
    if (!ok((expr), #expr)) std::exit(1); \
  } while (0)

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
  buffer(int d, std::size_t bytes, int fill) : device(d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaMalloc(&p, bytes));
    CHECK(cudaMemset(p, fill, bytes));
    CHECK(cudaDeviceSynchronize());
  }
  ~buffer() {
    cudaSetDevice(device);
    cudaFree(p);
  }
};

// The first, middle and last 4 bytes of `dst` hold `fill` in every byte.
bool copied(const buffer& dst, std::size_t bytes, int fill) {
  for (std::size_t off : {std::size_t{0}, bytes / 2, bytes - 4}) {
    unsigned char got[4] = {};
    CHECK(cudaSetDevice(dst.device));
    CHECK(cudaMemcpy(got, static_cast<const char*>(dst.p) + off, 4, cudaMemcpyDeviceToHost));
    for (unsigned char c : got) {
      if (c != static_cast<unsigned char>(fill)) return false;
    }
  }
  return true;
}

struct stream_events {
  cudaStream_t s = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr, mark = nullptr;
  explicit stream_events(int d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&mark, cudaEventDisableTiming));
  }
  ~stream_events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cudaEventDestroy(mark);
    cudaStreamDestroy(s);
  }
};

// Median GB/s of at least `reps` timed copies and 0.5 s of them (at most 5000), after three
// untimed: staged copies (peer access off) scatter by several per cent from copy to copy.
double time_copies(int src, int dst, std::size_t bytes, bool bidir, int reps) {
  buffer a(src, bytes, 0x5a), b(dst, bytes, 0x00), back_src(dst, bytes, 0xa5), back_dst(src, bytes, 0x00);
  stream_events on_src(src), on_dst(dst);
  auto one = [&](bool timed) {
    CHECK(cudaSetDevice(src));
    if (timed) CHECK(cudaEventRecord(on_src.start, on_src.s));
    if (bidir) {
      CHECK(cudaEventRecord(on_src.mark, on_src.s));
      CHECK(cudaStreamWaitEvent(on_dst.s, on_src.mark, 0));
      CHECK(cudaMemcpyPeerAsync(back_dst.p, src, back_src.p, dst, bytes, on_dst.s));
      CHECK(cudaEventRecord(on_dst.mark, on_dst.s));
    }
    CHECK(cudaMemcpyPeerAsync(b.p, dst, a.p, src, bytes, on_src.s));
    if (bidir) CHECK(cudaStreamWaitEvent(on_src.s, on_dst.mark, 0));
    if (timed) CHECK(cudaEventRecord(on_src.stop, on_src.s));
    CHECK(cudaStreamSynchronize(on_src.s));
  };
  one(false);
  if (!copied(b, bytes, 0x5a) || (bidir && !copied(back_dst, bytes, 0xa5))) {
    std::fprintf(stderr, "p2p_check: %d -> %d: the copy did not arrive\n", src, dst);
    std::exit(1);
  }
  one(false);
  one(false);
  std::vector<double> seconds;
  double total = 0;
  while ((static_cast<int>(seconds.size()) < reps || total < 0.5) && seconds.size() < 5000) {
    one(true);
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, on_src.start, on_src.stop));
    seconds.push_back(ms * 1e-3);
    total += ms * 1e-3;
  }
  std::sort(seconds.begin(), seconds.end());
  const std::size_t n = seconds.size();
  const double median = n % 2 ? seconds[n / 2] : (seconds[n / 2 - 1] + seconds[n / 2]) / 2;
  return static_cast<double>(bidir ? 2 * bytes : bytes) / median / 1e9;
}

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

std::size_t parse_size(const std::string& s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  const std::string unit(end);
  const std::size_t shift = unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : 0;
  if (v == 0 || (!unit.empty() && shift == 0)) {
    std::fprintf(stderr, "p2p_check: bad size '%s' (64M, 1G, ...)\n", s.c_str());
    std::exit(2);
  }
  return static_cast<std::size_t>(v) << shift;
}

const char* size_text(std::size_t bytes, char* buf) {
  if (bytes % (1u << 30) == 0) std::snprintf(buf, 32, "%zuG", bytes >> 30);
  else if (bytes % (1u << 20) == 0) std::snprintf(buf, 32, "%zuM", bytes >> 20);
  else std::snprintf(buf, 32, "%zu", bytes);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    std::fprintf(stderr, "p2p_check: needs two GPUs (found %d)\n", count);
    return 3;
  }
  std::vector<int> devices;
  for (int i = 0; i < count; ++i) devices.push_back(i);
  std::vector<std::size_t> sizes{std::size_t{64} << 20, std::size_t{1} << 30};
  int reps = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--devices=", 0) == 0) {
      devices.clear();
      for (const auto& d : split(a.substr(10))) devices.push_back(std::atoi(d.c_str()));
    } else if (a.rfind("--reps=", 0) == 0) {
      reps = std::max(1, std::atoi(a.c_str() + 7));
    } else if (a.rfind("--sizes=", 0) == 0) {
      sizes.clear();
      for (const auto& s : split(a.substr(8))) sizes.push_back(parse_size(s));
    } else {
      std::fprintf(stderr, "usage: %s [--devices=0,1,...] [--reps=N] [--sizes=64M,1G]\n", argv[0]);
      return 2;
    }
  }
  for (int d : devices) {
    if (d < 0 || d >= count) {
      std::fprintf(stderr, "p2p_check: no device %d (%d present)\n", d, count);
      return 2;
    }
  }
  std::printf("case,src,dst,bytes,gb_per_s\n");
  char buf[32];
  for (std::size_t bytes : sizes) {
    for (int src : devices) {
      for (int dst : devices) {
        if (src == dst) continue;
        int ab = 0, ba = 0;
        CHECK(cudaDeviceCanAccessPeer(&ab, src, dst));
        CHECK(cudaDeviceCanAccessPeer(&ba, dst, src));
        for (const char* c : {"push_on", "push_off", "bidir_on"}) {
          const bool on = std::strstr(c, "_on") != nullptr;
          if (on && (ab == 0 || ba == 0)) continue;  // no peer path: membench skips these too
          set_access(src, dst, on);
          set_access(dst, src, on);
          const double gbps = time_copies(src, dst, bytes, std::strncmp(c, "bidir", 5) == 0, reps);
          std::printf("%s,%d,%d,%s,%.2f\n", c, src, dst, size_text(bytes, buf), gbps);
          std::fflush(stdout);
          set_access(src, dst, false);
          set_access(dst, src, false);
        }
      }
    }
  }
  return 0;
}
