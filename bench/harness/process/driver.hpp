// membench's driver of several processes: --devices runs one process per GPU (devices.hpp),
// the host-bound rows of each GPU alone where asked, then the peer rows among the GPUs.
#pragma once

#include <string>
#include <vector>

#include "harness/options/options.hpp"

namespace membench {

/// `device` when it is there, with `count` the devices present; otherwise the exit code that
/// says why not (no driver, one too old for this build, no device, an index out of range).
int select_device(int device, int& count);

/// Runs what --devices asks for (argv as the user gave it); the combined exit code.
int run_devices(const std::vector<std::string>& user_args, const run_options& opt);

}  // namespace membench
