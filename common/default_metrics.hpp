// The CUPTI metrics `--metrics` profiles unless `--metric-list` names others: the one list.
// The harness reads it (default_metrics()), membench-schema writes it into the package's
// schema.json (`default_metrics`), and the Python scripts read it from there
// (membench.schema.default_metric): tools/ncu/ncu_metrics.py asks ncu for the same metrics.
#pragma once

#include <string_view>

namespace membench::schema {

struct profiler_metric {
  std::string_view name;     ///< the metric as CUPTI and ncu --metrics name it; the row's counter
  std::string_view unit;
  std::string_view nvprof;   ///< the nvprof metric the lessons read that it replaces
  std::string_view meaning;
};

/// In the order the rows' counters and the tables show them.
inline constexpr profiler_metric default_metric_table[] = {
    {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "%", "gld_efficiency",
     "bytes the loads asked for per 32-byte sector fetched, %"},
    {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "%", "gst_efficiency", "the same for stores"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sectors", "gld_transactions", "sectors global loads fetched"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "requests", "gld_requests",
     "warp-level global load instructions"},
    {"l1tex__t_sector_hit_rate.pct", "%", "l1_cache_global_hit_rate", "L1 hit rate"},
    {"lts__t_sector_hit_rate.pct", "%", "l2_l1_read_hit_rate", "L2 hit rate"},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", "dram_utilization", "DRAM throughput, % of peak"},
};

}  // namespace membench::schema
