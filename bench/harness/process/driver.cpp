// membench's driver of several processes (driver.hpp).
#include "driver.hpp"

#include <unistd.h>

#include <cstdio>
#include <variant>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "harness/device/build_check.hpp"
#include "harness/device/device_info.hpp"
#include "harness/device/nvml.hpp"
#include "harness/family/family.hpp"
#include "harness/options/cli.hpp"
#include "harness/options/peers.hpp"
#include "harness/process/cpu_affinity.hpp"
#include "harness/process/devices.hpp"
#include "harness/process/interrupt.hpp"

namespace membench {
namespace {

// After the per-GPU processes, the peer rows among the same GPUs in one process, alone.
int run_peer_matrix(const std::vector<std::string>& user_args, const std::vector<peer_pair>& pairs,
                    std::string_view progress) {
  const std::string out = output_path(user_args);
  return run_peer_process(peer_process_args(user_args, peer_devices(pairs).front(), format_peers(pairs),
                                            out.empty() ? out : peers_output_path(out), progress));
}

// The peer pairs among the GPUs of --devices and whether the peer process has a row to run.
struct peer_plan {
  std::vector<peer_pair> pairs;
  bool matrix = false;
};

// The plan for `indices`, or the exit code (said) where --peers-only is left with no row.
std::variant<peer_plan, int> plan_peers(const std::vector<std::string>& user_args, const run_options& opt,
                                        const std::vector<int>& indices) {
  const auto peers = resolve_peers(std::get<peer_spec>(parse_peers(opt.peers)), indices, true);
  if (const auto* problem = std::get_if<std::string>(&peers)) {
    std::fprintf(stderr, "membench: %s\n", problem->c_str());
    return exit_usage;
  }
  peer_plan plan{std::get<std::vector<peer_pair>>(peers)};
  plan.matrix = !selected_names(user_args, case_names({opt.suite, false, plan.pairs, true})).empty();
  if (opt.peers_only && !plan.matrix) {
    std::fprintf(stderr, "membench: --peers-only: no peer row selected among --devices=%s (--peers=%s)\n",
                 opt.devices.c_str(), opt.peers.c_str());
    return exit_usage;
  }
  return plan;
}

}  // namespace

// The device the run uses, or the exit code that says why there is none.
int select_device(int device, int& count) {
  if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess || count == 0) {
    int driver = 0;
    // A driver that is there but supports an older CUDA than this build: say which.
    if (err == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) {
      std::fprintf(stderr, "membench: no CUDA device: %s\n",
                   check_cuda_major(CUDART_VERSION, driver).value_or("the driver is too old for this build").c_str());
      return exit_build_mismatch;
    }
    std::fprintf(stderr, "membench: no CUDA device: %s\n",
                 err != cudaSuccess ? cudaGetErrorString(err) : "the driver reports 0 devices");
    return exit_no_device;
  }
  if (device >= count) {
    std::fprintf(stderr, "membench: invalid --device %d: %d CUDA device(s) present (0..%d)\n", device, count, count - 1);
    return exit_bad_device;
  }
  return exit_ok;
}


// --devices: the GPUs asked for, their UUIDs, one process each (process/devices.hpp), then
// the peer rows among them.
int run_devices(const std::vector<std::string>& user_args, const run_options& opt) {
  // parse_options refused a bad list, main a bad filter (check_modes).
  const device_request request = std::get<device_request>(parse_devices(opt.devices));
  // An explicit list needs no CUDA to say what it leaves the peer rows: said before the GPU
  // is looked for, not as the missing GPU a machine without one would report first.
  std::variant<peer_plan, int> plan = peer_plan{};
  if (!request.all) plan = plan_peers(user_args, opt, request.indices);
  if (const int* rc = std::get_if<int>(&plan)) return *rc;
  int count = 0;
  if (const int rc = select_device(0, count); rc != exit_ok) return rc;
  const auto resolved = resolve_devices(request, count);
  if (const auto* problem = std::get_if<std::string>(&resolved)) {
    std::fprintf(stderr, "membench: %s\n", problem->c_str());
    return exit_bad_device;
  }
  const auto& indices = std::get<std::vector<int>>(resolved);
  if (request.all) plan = plan_peers(user_args, opt, indices);
  if (const int* rc = std::get_if<int>(&plan)) return *rc;
  const std::vector<peer_pair>& pairs = std::get<peer_plan>(plan).pairs;
  const bool matrix = std::get<peer_plan>(plan).matrix;
  // With --host-link=alone the host-bound rows run apart, one GPU at a time.
  const bool apart = opt.host_link == host_link_mode::alone && indices.size() > 1;
  const host_link_mode together = apart ? host_link_mode::skip : opt.host_link;
  auto selects = [&](host_link_mode link) {
    return !opt.peers_only && !selected_names(user_args, case_names({opt.suite, opt.fault_demo, {}, false, link})).empty();
  };
  const bool each = selects(together);
  const bool link = apart && selects(host_link_mode::only);
  if (indices.size() == 1)
    std::fprintf(stderr, "membench: --devices=%s is one GPU here: no peer rows (they need two)\n", opt.devices.c_str());
  std::vector<std::string> uuids;
  std::vector<std::vector<int>> local;
  for (int index : indices) {
    const device_info info = query_device(index);
    uuids.push_back(info.uuid);
    std::string why_not;
    const auto nvml = nvml_device::open(info.pci_bus_id, why_not);
    local.push_back(nvml ? nvml->local_cpus() : std::vector<int>{});
  }
  std::vector<std::string> cpus;
  for (const auto& share : share_cpus(local, allowed_cpus())) cpus.push_back(format_cpu_list(share));
  // Each process's progress lines go through ours, marked with its GPU.
  const bool shown = opt.progress == progress_mode::always ||
                     (opt.progress == progress_mode::automatic && isatty(STDERR_FILENO) != 0);
  const char* progress = shown ? "always" : "never";
  // Without a row for any, the per-GPU processes say what is wrong with the filter.
  int rc = each || (!link && !matrix) ? run_on_devices(user_args, indices, uuids, cpus, progress, to_string(together))
                                      : exit_ok;
  if (link && rc <= 128 && interrupted_by() == 0) {
    std::vector<std::string> own;  // alone, each GPU has every CPU local to it
    for (const auto& l : local) own.push_back(format_cpu_list(share_cpus({l}, allowed_cpus()).front()));
    const auto order = case_names({opt.suite, opt.fault_demo, {}, false, host_link_mode::together});
    rc = combined_exit_code({rc, run_host_link_alone(user_args, indices, uuids, own, progress, order)});
  }
  if (!matrix || rc > 128 || interrupted_by() != 0) return rc;
  return combined_exit_code({rc, run_peer_matrix(user_args, pairs, progress)});
}

}  // namespace membench
