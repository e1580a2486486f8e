#include "identity.hpp"

#include <unistd.h>

#include <fstream>
#include <string>

#include <fmt/format.h>

#include "common/schema.hpp"

namespace membench {

std::string format_gpu_uuid(const std::array<unsigned char, 16>& b) {
  std::string hex;
  for (unsigned char c : b) hex += fmt::format("{:02x}", c);
  return fmt::format("GPU-{}-{}-{}-{}-{}", hex.substr(0, 8), hex.substr(8, 4), hex.substr(12, 4), hex.substr(16, 4),
                     hex.substr(20, 12));
}

std::string describe_nvlink(const nvlink_links& l) {
  if (l.up == 0) return l.present > 0 ? fmt::format("none up of {}", l.present) : "none";
  if (l.link_gbps <= 0) return fmt::format("{} up (NVML gives no link rate)", l.up);
  return fmt::format("{} x {:.1f} GB/s ({:.1f} GB/s per direction)", l.up, l.link_gbps, l.peak_gbps());
}

namespace {

std::string on_off(bool b) { return b ? "on" : "off"; }

using schema::context_key;

void add(context_list& out, const schema::field& key, std::string value) {
  out.push_back(schema::entry(key, std::move(value)));
}

void add_ecc(context_list& out, const gpu_identity& id) {
  if (id.ecc_pending) add(out, context_key("gpu_ecc_pending"), on_off(*id.ecc_pending));
  if (id.ecc_volatile)
    add(out, context_key("gpu_ecc_errors_volatile"), fmt::format("{} corrected, {} uncorrected", id.ecc_volatile->corrected,
                                                    id.ecc_volatile->uncorrected));
  if (id.ecc_aggregate)
    add(out, context_key("gpu_ecc_errors_aggregate"), fmt::format("{} corrected, {} uncorrected", id.ecc_aggregate->corrected,
                                                     id.ecc_aggregate->uncorrected));
  if (id.rows)
    add(out, context_key("gpu_remapped_rows"),
        fmt::format("{} corrected, {} uncorrected{}{}", id.rows->corrected, id.rows->uncorrected,
                    id.rows->pending ? ", remapping pending (reset the GPU)" : "",
                    id.rows->failed ? ", a remapping failed" : ""));
}

}  // namespace

context_list identity_context(const gpu_identity& id) {
  context_list out;
  if (!id.serial.empty()) add(out, context_key("gpu_serial"), id.serial);
  if (!id.board_part.empty()) add(out, context_key("gpu_board_part"), id.board_part);
  if (!id.vbios.empty()) add(out, context_key("gpu_vbios"), id.vbios);
  if (id.persistence) add(out, context_key("gpu_persistence_mode"), on_off(*id.persistence));
  if (id.mig_mode) add(out, context_key("gpu_mig_mode"), on_off(*id.mig_mode != 0));
  if (id.app_sm_mhz) add(out, context_key("gpu_app_sm_clock_mhz"), fmt::format("{}", *id.app_sm_mhz));
  if (id.app_mem_mhz) add(out, context_key("gpu_app_mem_clock_mhz"), fmt::format("{}", *id.app_mem_mhz));
  add_ecc(out, id);
  if (id.nvlink) {
    add(out, context_key("nvlink_links"), fmt::format("{}", id.nvlink->up));
    add(out, context_key("nvlink_version_code"), fmt::format("{}", id.nvlink->version_code));
    if (id.nvlink->link_gbps > 0) {  // a ceiling of 0 would make every peer row look infinitely fast
      add(out, context_key("nvlink_link_gbps"), fmt::format("{:.3f}", id.nvlink->link_gbps));
      add(out, context_key("nvlink_peak_gbps"), fmt::format("{:.1f}", id.nvlink->peak_gbps()));
    }
  }
  return out;
}

context_list scheduler_context(const std::function<const char*(const char*)>& getenv) {
  static constexpr std::pair<const char*, const schema::field*> variables[] = {
      {"SLURM_JOB_ID", &context_key("job_slurm_job_id")},
      {"SLURM_ARRAY_TASK_ID", &context_key("job_slurm_array_task_id")},
      {"SLURMD_NODENAME", &context_key("job_slurm_node")},
      {"JOB_COMPLETION_INDEX", &context_key("job_completion_index")},
  };
  context_list out;
  for (const auto& [variable, key] : variables) {
    if (const char* v = getenv(variable); v != nullptr && *v != '\0') add(out, *key, v);
  }
  return out;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

namespace {

std::string trimmed(std::string s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

std::string host_boot_id(const std::string& path) {
  std::ifstream in(path);
  std::string id;
  if (!in || !std::getline(in, id) || trimmed(id).empty()) return "unknown";
  return trimmed(id);
}

std::string host_cpu_model(const std::string& path) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos || trimmed(line.substr(0, colon)) != "model name") continue;
    if (std::string model = trimmed(line.substr(colon + 1)); !model.empty()) return model;
  }
  return "unknown";
}

}  // namespace membench
