// The entries of schema.hpp: plain constexpr tables, one line per key. Add a key here
// before writing or reading it anywhere; `membench-report schema` prints these tables.
#pragma once

#include <string_view>

namespace membench::schema {

struct field {
  std::string_view key;
  std::string_view unit;  ///< "-" when the value has none
  std::string_view meaning;
};

struct option {
  std::string_view flag;           ///< "--max-ci"
  std::string_view value;          ///< "PCT", "" for a switch
  std::string_view default_value;  ///< as --help shows it; the options' own defaults are tested against it
  std::string_view meaning;
};

struct exit_status {
  std::string_view code;
  std::string_view meaning;
};

/// A benchmark family's headline: the number a reader takes from its rows, its unit, and
/// the ceiling a row may be priced against (a `ceiling_table` key; `none`: no % is shown).
struct headline {
  std::string_view family;  ///< `<space>/<experiment>`, as the benchmark names begin
  std::string_view metric;  ///< a counter key, or `time` (the median, us)
  std::string_view unit;
  std::string_view ceiling;
  std::string_view meaning;  ///< which rows, and why that ceiling (or none)
};

/// Keys of `<space>/<experiment>/<key>:<value>/...`, in no particular order.
inline constexpr field name_key_table[] = {
    {"type", "-", "element type: `f32`, `f64`"},
    {"width", "bytes", "bytes per element access: 1, 2, 4, 8, 16"},
    {"offset", "elements", "misalignment of the access start"},
    {"stride", "elements", "distance between the elements consecutive threads read"},
    {"map", "-", "`fixed`: the same addresses every pass (L1 reuse); `rotate`: another SM's data each pass (L2)"},
    {"unroll", "elements", "independent accesses per thread per loop iteration"},
    {"block", "threads", "threads per block"},
    {"style", "-", "`gridstride`: one resident wave loops; `perthread`: one block per tile, no loop"},
    {"l2", "-", "`cold`: L2 flushed before every timed launch; `warm`: not flushed"},
    {"cause", "-", "the fault a `--fault-demo` row raises: `illegal_address`, `misaligned_address`"},
    {"dir", "-",
     "copy direction: `h2d`, `d2h`, `d2d`; between two GPUs `push` (issued on `src`), `pull` (issued on `dst`), `bidir` "
     "(`src` to `dst` and back at once); of a peer kernel `uni` or `bidir` (both GPUs' kernels at once)"},
    {"host", "-",
     "host memory: `pageable`, `pinned` (`cudaMallocHost`), `host_alloc` (`cudaHostAlloc`), `wc` (write-combined), "
     "`registered` (`cudaHostRegister`)"},
    {"api", "-",
     "the call a row measures: `memcpy` (synchronous), `memcpy_async`, `symbol` (`cudaMemcpyToSymbol`/`FromSymbol`), "
     "`memcpy_2d`, `memset` (`cudaMemsetAsync`; `cudaMemset2DAsync` in `alloc/memset_2d`), `memset_d8`/`d16`/`d32` "
     "(`cuMemsetD*Async`, `cuMemsetD2D*Async`), `kernel`, `malloc`, `malloc_host`, `malloc_async`, `device_malloc`"},
    {"memory", "-", "where the data lives: `device`, `mapped` (zero-copy host memory), `symbol` (a static `__device__` array)"},
    {"policy", "-",
     "managed memory before the kernel: `fault`, `prefetch`, `resident`, `read_mostly`, `accessed_by`; the L2 "
     "access policy window of a launch (B5): `none`, `persist`"},
    {"streams", "streams", "streams a chunked pipeline is spread over"},
    {"intensity", "-", "arithmetic per element of the pipeline's kernel: `low` (1 FMA), `high` (4096 FMAs)"},
    {"pattern", "-",
     "access pattern: `coalesced`, `scattered`, `uniform` (one address per warp), `per_lane`, `strided`, `tile`, "
     "`padded`, `broadcast`"},
    {"load", "-", "load path: `plain`, `restrict` (`const __restrict__`), `ldg` (`__ldg`), `constant`"},
    {"source", "-", "where a stencil's coefficients live: `constant`, `ldg`, `global`"},
    {"config", "-", "`cudaFuncSetCacheConfig`: `prefer_none`, `prefer_shared`, `prefer_l1`, `prefer_equal`"},
    {"carveout", "percent", "`cudaFuncAttributePreferredSharedMemoryCarveout` (`default`: not set)"},
    {"storage", "-", "a per-thread array in `registers` or in `local` memory"},
    {"elems", "elements", "elements in a per-thread array, or in a vector (size suffixes allowed)"},
    {"block_bytes", "bytes", "working set of one block"},
    {"variant", "-",
     "step of the matrix-multiply progression: `naive`, `coalesced`, `tile16`, `tile32`, `tile32_padded`, `ilp2`, "
     "`ilp4`, `regtile`; or `cublas`"},
    {"n", "elements", "matrix order N (N x N fp32 operands)"},
    {"on", "-", "where the work runs: `gpu`, `cpu1` (one CPU thread), `cpu_omp` (OpenMP, every core)"},
    {"math", "-", "`precise` or `fast` (the same kernel source built with `--use_fast_math`)"},
    {"transfers", "-", "`with`: H2D of the inputs + kernel + D2H of the result on one stream; `without`: kernel only"},
    {"op", "-",
     "the half of an allocation pair a row times: `alloc` or `free` (the other half runs untimed between samples); a "
     "peer kernel's access: `read` (a kernel on `dst` reads `src`'s memory) or `write` (a kernel on `src` writes `dst`'s)"},
    {"alloc_bytes", "bytes", "size of one allocation"},
    {"layout", "-", "2D rows: `pitched` (`cudaMallocPitch`) or `packed` (exactly the width, `cudaMalloc`)"},
    {"row_bytes", "bytes", "width of one row of a 2D array"},
    {"rows", "rows", "rows of a 2D array"},
    {"access", "-", "peer access between two GPUs: `on` (`cudaDeviceEnablePeerAccess`) or `off` (the driver stages through the host)"},
    {"src", "index", "the GPU a peer row's data leaves (a CUDA device ordinal, as `--device` takes it)"},
    {"dst", "index", "the GPU a peer row's data arrives at"},
    {"method", "-",
     "how tiles reach shared memory (B3): `sync` (loads to registers, stores), `ldgsts` (`cp.async`), `bulk` "
     "(`cp.async.bulk`, 1D TMA), `tensor` (`cp.async.bulk.tensor`, 2D TMA)"},
    {"stages", "stages", "shared-memory buffers of a copy pipeline per block (B3)"},
    {"cluster", "blocks", "blocks per thread-block cluster (B4)"},
    {"target", "-",
     "whose shared memory a cluster's chase reads (B4): `own` (rank 0's, its own SM) or `remote` (the highest rank's, "
     "another SM)"},
    {"hot", "bytes", "hot set re-read every launch while a streaming set evicts the L2 (B5; `0`: the streaming set alone)"},
    {"spacing", "bytes", "distance between neighbouring nodes of a pointer-chase chain (B1; its walk order is random)"},
    {"cycles", "cycles", "SM clock cycles one spin lasts (B7), suffixes `K`, `M` = 2^10, 2^20"},
    {"bytes", "bytes", "buffer size, binary suffixes `K`, `M`, `G` = KiB, MiB, GiB"},
};

/// Counters of a row: first those every timed row has, then the families' own.
inline constexpr field counter_table[] = {
    // Every timed row.
    {"bytes", "bytes", "bytes requested per launch, from the family's unit-tested formula"},
    {"bytes_per_second", "bytes/s", "Google Benchmark's rate: `bytes` over `real_time` (the median)"},
    {"gb_per_s", "GB/s", "decimal GB/s over the **median** sample time"},
    {"pct_peak", "%", "`gb_per_s` as % of the ceiling the label names (`peak:...`), else of the theoretical DRAM peak"},
    {"t_min_us", "us", "fastest kept sample"},
    {"t_median_us", "us", "median of the kept samples (the row's time)"},
    {"t_mean_us", "us", "mean of the kept samples"},
    {"t_max_us", "us", "slowest kept sample"},
    {"ci_low_us", "us", "lower end of the confidence interval of the median (order statistics, level in the context)"},
    {"ci_high_us", "us", "upper end of that interval"},
    {"ci_pct", "%", "half-width of that interval over the median: the stopping statistic"},
    {"ci_target_pct", "%", "the half-width this row had to reach (`--max-ci`, or `--max-ci-host` for host-timed rows)"},
    {"noise_pct", "%", "sample standard deviation / mean (nvbench's noise; outliers inflate it)"},
    {"samples", "samples", "kept samples (never fewer than `--min-samples` unless the row says `unconverged:row_limit`)"},
    {"throttled_samples", "samples", "samples discarded for a low SM clock or a clock event, and re-taken"},
    {"converged", "0/1", "1 when the interval reached its target; otherwise the label says `unconverged:<why>`"},
    {"sampling_s", "s", "wall seconds spent sampling the row"},
    {"wall_s", "s", "wall seconds the whole row took: preparation, verification, warm-up, sampling"},
    {"event_overhead_us", "us", "the event-pair cost subtracted from each sample (blocking method)"},
    {"batch_us", "us", "short rows: time per launch over back-to-back launches with no host gaps (median of batches)"},
    {"batch_launches", "launches", "launches per batch behind `batch_us`"},
    {"batch_ci_low_us", "us", "lower end of the confidence interval of `batch_us` (the batch samples' median, as `ci_low_us`)"},
    {"batch_ci_high_us", "us", "upper end of that interval"},
    {"batch_samples", "samples", "kept batch samples behind `batch_us`, each a batch's time per launch"},
    {"batch_noise_pct", "%", "standard deviation / mean of the batch samples"},
    {"batch_sm_clock_mhz", "MHz", "median SM clock measured after the kept batch samples"},
    {"calls_per_sample", "calls", "API calls one sample times; the row's time is per call (A1)"},
    {"sm_clock_mhz", "MHz", "median SM clock measured after the kept samples"},
    {"sm_clock_min_mhz", "MHz", "lowest SM clock among the kept samples"},
    {"sm_clock_max_mhz", "MHz", "highest SM clock among the kept samples"},
    {"power_w", "W", "NVML: the higher power reading before and after the row"},
    {"temp_c", "C", "NVML: the higher temperature before and after the row"},
    {"nvml_sm_clock_mhz", "MHz", "NVML's SM clock after the row"},
    {"clock_reasons", "bitmask", "NVML clock-event reasons seen around the row (idle excluded)"},
    // --metrics
    {"metrics_passes", "passes", "replay passes the profiler needed (`--metrics`)"},
    {"metrics_kernels", "kernels", "kernels the row's launch ran, one profiler range each (`--metrics`)"},
    {"sectors_per_request", "sectors", "global-load sectors per request (`--metrics`; 4 for a coalesced 4-byte warp load)"},
    // Families.
    {"grid_blocks", "blocks", "blocks launched (G3, G5, A1, B3)"},
    {"passes", "passes", "passes over the working set per launch (G5, C1, B2, B3, B4)"},
    {"sector_bytes", "bytes", "bytes moved in 32-byte sectors by the strided reads, plus the writes (G2)"},
    {"load_efficiency_pct", "%", "requested / moved bytes from the sector formula (G2)"},
    {"slowdown", "x", "time over the reference row of the same run (S1 conflict-free, S3 registers, H2 device memory)"},
    {"ns_per_access", "ns", "per shared-memory access per SM (S1)"},
    {"clocks_per_access", "cycles", "the same at the device's SM clock (S1)"},
    {"model_degree", "ways", "conflict degree from the bank model (S1)"},
    {"blocks_per_sm", "blocks", "resident blocks per SM (S1, B2)"},
    {"speedup_vs_plain", "x", "plain-load row's time over this row's (C2, C3)"},
    {"speedup_vs_global", "x", "global-coefficient row's time over this row's (C4)"},
    {"granted_smem_bytes", "bytes", "shared memory per SM the driver granted (C1)"},
    {"carveout_readback", "percent", "the carveout attribute read back (C1)"},
    {"cta_smem_bytes", "bytes", "static shared memory per block (C1)"},
    {"cta_dynamic_smem_bytes", "bytes", "dynamic shared memory per block (C1)"},
    {"sms_used", "SMs", "SMs the kernel's blocks ran on (C1, B2, B4)"},
    {"model_smem_bytes", "bytes", "shared memory per SM the sm_90 carveout model predicts (C1)"},
    {"model_l1_bytes", "bytes", "L1 left per SM by that model (C1)"},
    {"local_bytes", "bytes", "local memory per thread (S3)"},
    {"num_regs", "registers", "registers per thread (S3)"},
    {"rounds", "rounds", "passes over the per-thread array (S3)"},
    {"gflop_per_s", "GFLOP/s", "2 N^3 over the median (S2)"},
    {"pct_cublas", "%", "of the cuBLAS row of the same run (S2)"},
    {"pct_fp32_peak", "%", "of 2 x SMs x 128 lanes x the SM clock (S2)"},
    {"speedup_vs_prev", "x", "previous step's time over this step's (S2)"},
    {"elems_per_s", "elements/s", "elements over the median (H5)"},
    {"cpu_threads", "threads", "CPU threads of a CPU row (H5)"},
    {"kernel_pct", "%", "the kernel's share of a with-transfers row (H5)"},
    {"cycles_per_load", "cycles", "SM clock ticks per dependent load: clock64 around the timed chain of the row's last launch (B1)"},
    {"ns_per_load", "ns", "`cycles_per_load` at the row's measured SM clock `sm_clock_mhz` (B1)"},
    {"event_sm_clock_mhz", "MHz", "the SM clock as the slope of spun cycles (clock64) over event time between the row's spin and one of half as many cycles (B7)"},
    {"spin_fixed_cost_us", "us", "the row's median less its cycles at `event_sm_clock_mhz`: the launch and event cost the slope removes (B7)"},
    {"chain_nodes", "nodes", "nodes in the chase's cycle (B1)"},
    {"metrics_cycles_per_load", "cycles", "`cycles_per_load` of the last launch `--metrics` profiled: whether its counters saw the timed launches' cache state (the chase families: B1, B3, B4)"},
    {"setaside_bytes", "bytes", "`cudaLimitPersistingL2CacheSize` granted for the row, read back; 0 without a window (B5)"},
    {"max_setaside_bytes", "bytes", "`cudaDevAttrMaxPersistingL2CacheSize`: the most L2 persisting lines may hold (B5)"},
    {"max_window_bytes", "bytes", "`cudaDevAttrMaxAccessPolicyWindowSize`: the largest window (B5)"},
    {"hit_ratio", "-", "the window's `hitRatio`: set-aside over the hot set, at most 1 (B5)"},
    {"hot_passes", "passes", "reads of the hot set per launch (B5)"},
    {"hot_us", "us", "this row's time less the streaming set's alone (`hot:0`): what the hot reads add (B5)"},
    {"speedup_vs_none", "x", "the `policy:none` row's time over this row's, the same hot set (B5)"},
    {"bytes_per_clk_per_sm", "bytes/cycle", "`bytes` over the median, the measured SM clock `sm_clock_mhz` and the SMs the launch ran on (B2, B4)"},
    {"bytes_per_clk", "bytes/cycle", "`bytes` over the median at the measured SM clock, all SMs together (B2)"},
    {"speedup_vs_cpu1", "x", "one CPU thread's time over this row's (H5)"},
    {"speedup_vs_cpu_omp", "x", "OpenMP's time over this row's (H5)"},
    {"host_gb_per_s", "GB/s", "GB/s read from the host (H2)"},
    {"pct_pcie", "%", "of one direction of the PCIe link (H1, H2)"},
    {"h2d_us", "us", "H2D copies alone over all chunks (H4)"},
    {"d2h_us", "us", "D2H copies alone (H4)"},
    {"kernel_us", "us", "kernels alone (H4)"},
    {"bound_us", "us", "the copy-engine bound: the busiest stage (H4)"},
    {"serial_us", "us", "the stages' sum (H4)"},
    {"pct_of_bound", "%", "bound over this row's time (H4)"},
    {"speedup", "x", "the one-stream row's time over this row's (H4)"},
    {"us_per_call", "us", "median per API call, or per thread-allocation in a kernel (A1)"},
    {"heap_bytes", "bytes", "`cudaLimitMallocHeapSize` (A1)"},
    {"calls_per_launch", "calls", "in-kernel allocations per launch (A1)"},
    {"pool_release_threshold_bytes", "bytes", "the pool's release threshold (A1)"},
    {"pool_reserved_bytes", "bytes", "memory the pool holds (A1)"},
    {"pitch_bytes", "bytes", "`cudaMallocPitch`'s pitch (A2)"},
    {"padding_bytes_per_row", "bytes", "pitch minus the row width (A2)"},
    {"misaligned_rows_pct", "%", "rows whose start is not aligned (A2)"},
    {"src_device", "index", "the GPU the data leaves (P1; an aggregate's common end for `one_to_all`)"},
    {"dst_device", "index", "the GPU the data arrives at (P1; an aggregate's common end for `all_to_one`)"},
    {"peer_devices", "GPUs", "GPUs at the other end of an aggregate: every one copies at once (P1 `all_to_one`, `one_to_all`)"},
    {"link_gb_per_s", "GB/s",
     "the row's link ceiling from NVML: NVLinks between the two GPUs (a link to an NVSwitch reaches every GPU) x their rate "
     "per direction, else the slower GPU's PCIe per direction (always for `access:off`, staged through the host); x2 for "
     "`bidir`; an aggregate's: its common end's links; absent when NVML cannot tell (P1)"},
    {"pct_of_link", "%", "`gb_per_s` over `link_gb_per_s` (P1; not on latency rows)"},
    {"link_nvlinks", "links", "NVLinks the ceiling counts (0: the path is PCIe) (P1)"},
    {"peer_access_supported", "0/1", "`cudaDeviceCanAccessPeer` (P1)"},
    {"p2p_native_atomic", "0/1", "`cudaDevP2PAttrNativeAtomicSupported` (P1)"},
    {"p2p_performance_rank", "rank", "`cudaDevP2PAttrPerformanceRank` (P1)"},
    {"local_read_gb_per_s", "GB/s", "the same kernel reading local memory (P1)"},
    {"pct_of_local_read", "%", "peer read over local read (P1)"},
};

/// Tokens of a row's label, `name:value` separated by spaces.
inline constexpr field label_table[] = {
    {"timing", "-", "how the samples were timed: `blocking`, `events`, `single` or `host_clock`"},
    {"fallback", "-", "why a row is not timed with blocking: `launch_blocks_host`, `copy_engine`, `blocking_timed_out`"},
    {"peak", "-", "the ceiling `pct_peak` is of when not DRAM: `pcie`, `pcie_both_directions`"},
    {"work", "-",
     "what a sample times: `kernel` (SM work only), `copy` (copy engines), `host` (host or driver work inside the "
     "sample: calls that block the host, the host clock, page faults, the device heap, mapped host memory); "
     "`membench-report compare` allows each its own run-to-run spread"},
    {"throttle", "-", "clock-event reasons seen while the row ran (`sw_power_cap`, ...): its clean samples were kept"},
    {"unconverged", "-",
     "why the interval missed its target: `budget` (time ran out), `throttled` (too few samples at full clock), "
     "`row_limit` (fewer than `--min-samples` in `--row-limit`), `single` (`--timing=single` takes one sample)"},
    {"floor", "-",
     "`timer`: the samples do not resolve the work: once the event pair's cost is accounted for, the fastest tenth "
     "leave within a few timer steps or pair spreads of zero, or the median a few dozen steps while the samples take "
     "at most two values (docs/statistics.md); the row's time and interval are the timer's, not a finding"},
    {"metrics", "-", "`sums_only(N_kernels)`, `none(not_a_kernel_row)`, `unavailable(REASON)` (`--metrics`)"},
    {"concurrent", "processes", "a host-work or copy row measured while this many GPUs of the host ran membench at once (`--devices`)"},
};

/// Keys of the JSON context (Google Benchmark's own keys are not listed).
inline constexpr field context_table[] = {
    {"membench_cache_mode", "-", "the build: `default`, `ca` or `cg`"},
    {"membench_cuda_architectures", "-", "the architectures this build compiled SASS for"},
    {"membench_build_type", "-", "CMake build type"},
    {"membench_git_commit", "-", "commit of the sources (`-dirty` when modified)"},
    {"membench_version", "-",
     "membench's version, as `--version` says it: the project version, with `git describe` as build metadata "
     "unless built at its clean tag (`0.1.0+3.g0695cf7c1234`: 3 commits past v0.1.0)"},
    {"membench_benchmark_version", "-", "the Google Benchmark version built against"},
    {"membench_compiler", "-", "host compiler and nvcc versions"},
    {"membench_format_version", "major.minor",
     "version of this JSON's layout: `membench-report` reads its own major version and older files without the key, "
     "and refuses a newer major version"},
    {"membench_suite", "-", "the tier that ran: `check`, `quick`, `default` or `full`"},
    {"membench_timing", "-", "timing method"},
    {"membench_timing_fallback", "-", "why every row fell back to plain events, when it did"},
    {"membench_min_samples", "samples", "`--min-samples`"},
    {"membench_max_ci_pct", "%", "`--max-ci`"},
    {"membench_max_ci_host_pct", "%", "`--max-ci-host`"},
    {"membench_ci_level_pct", "%", "confidence level of every row's interval"},
    {"membench_max_time_s", "s", "`--max-time`"},
    {"membench_max_time_host_s", "s", "`--max-time-host`"},
    {"membench_min_time_s", "s", "`--min-time`"},
    {"membench_row_limit_s", "s", "`--row-limit`"},
    {"membench_clock_threshold_pct", "%", "`--clock-threshold`"},
    {"membench_batch_below_us", "us", "`--batch-below`"},
    {"membench_keep_samples", "samples", "`--keep-samples`"},
    {"membench_reference_sm_clock_mhz", "MHz", "SM clock measured under load when the run started; samples are judged against it"},
    {"membench_event_overhead_us", "us", "event-pair cost subtracted from blocking samples (median)"},
    {"membench_event_overhead_spread_us", "us", "its spread: 90th minus 10th percentile of the calibration samples"},
    {"membench_event_overhead_end_us", "us", "the same calibration repeated when the run ended"},
    {"membench_timer_resolution_us", "us",
     "the event timer's step: the smallest non-zero difference between event-pair readings of the calibration"},
    {"membench_empty_kernel_us", "us", "events around an empty kernel less the event pair: what a launch costs beyond its work"},
    {"membench_probe_cache_mode_ca", "0/1", "`cudaFuncAttributes::cacheModeCA` of the probe kernel"},
    {"membench_probe_binary_version", "-", "SASS version of the loaded probe kernel"},
    {"membench_probe_load_cycles", "cycles", "cycles per dependent load of the probe's 4 KiB chain"},
    {"membench_metrics", "-", "profiled metrics (`--metrics`)"},
    {"membench_metrics_rejected", "-", "metrics CUPTI rejected"},
    {"membench_metrics_status", "-", "how the metrics were read, or why not"},
    {"membench_fresh_processes", "processes", "fresh processes that ran the rows left after a fault"},
    {"membench_fresh_process_N_after", "-", "the row whose fault started fresh process N"},
    {"cuda_device_max_connections", "-", "`CUDA_DEVICE_MAX_CONNECTIONS`: hardware queues behind the streams"},
    {"gpu_device", "index", "the device index (`--device`), or `none (why)`"},
    {"gpu_name", "-", "device name"},
    {"gpu_compute_capability", "-", "major.minor"},
    {"gpu_sm_count", "SMs", "multiprocessors"},
    {"gpu_sm_clock_mhz", "MHz", "maximum SM clock the device reports"},
    {"gpu_l2_bytes", "bytes", "L2 size"},
    {"gpu_global_mem_bytes", "bytes", "device memory"},
    {"gpu_smem_per_sm_bytes", "bytes", "shared memory per SM"},
    {"gpu_mem_bus_bits", "bits", "memory bus width"},
    {"gpu_mem_clock_mhz", "MHz", "memory clock"},
    {"gpu_peak_dram_gbps", "GB/s", "theoretical DRAM peak: 2 x memory clock x bus width"},
    {"gpu_ecc", "-", "`on` or `off`"},
    {"gpu_pci_bus_id", "-", "PCI bus id"},
    {"gpu_uuid", "-", "the GPU's UUID (`GPU-...`, as `nvidia-smi -L` prints it): who the GPU is, across reboots and nodes"},
    {"gpu_serial", "-", "board serial number (NVML)"},
    {"gpu_board_part", "-", "board part number (NVML)"},
    {"gpu_vbios", "-", "VBIOS version (NVML)"},
    {"gpu_persistence_mode", "-", "`on` or `off` (NVML)"},
    {"gpu_mig_mode", "-", "`on` or `off`: MIG partitioning (NVML)"},
    {"gpu_app_sm_clock_mhz", "MHz", "application SM clock (NVML)"},
    {"gpu_app_mem_clock_mhz", "MHz", "application memory clock (NVML)"},
    {"gpu_ecc_pending", "-", "ECC mode after the next reboot, `on` or `off` (NVML)"},
    {"gpu_ecc_errors_volatile", "-", "ECC errors since the driver loaded: corrected, uncorrected (NVML)"},
    {"gpu_ecc_errors_aggregate", "-", "ECC errors over the board's life: corrected, uncorrected (NVML)"},
    {"gpu_remapped_rows", "-", "DRAM rows remapped for corrected and uncorrected errors, and a pending or failed remapping (NVML)"},
    {"host_name", "-", "the machine's host name"},
    {"host_boot_id", "-",
     "the host's boot id (Linux `/proc/sys/kernel/random/boot_id`): the same for every GPU of a host until it reboots, "
     "so it tells apart hosts named alike"},
    {"host_cpu_model", "-", "the host CPU's model name (`/proc/cpuinfo`)"},
    {"membench_concurrent_devices", "processes", "GPUs of this host that ran membench at once (`--devices`; 1: alone)"},
    {"membench_host_link", "-",
     "where the file's host-bound rows ran (the `host/` rows, the kernels timed with their copies, `alloc/cost`): "
     "`alone` (`--devices` ran them one GPU at a time after the other rows), or the process's `--host-link` "
     "(`together`, `skip`, `only`; `alone` in a process of its own is alone too)"},
    {"membench_cpus", "cpu list", "host CPUs the process could run on (`0-15,32`); `--devices` gives each GPU its share of the CPUs local to it"},
    {"job_slurm_job_id", "-", "`SLURM_JOB_ID`, inside a Slurm job"},
    {"job_slurm_array_task_id", "-", "`SLURM_ARRAY_TASK_ID`, inside a Slurm job array"},
    {"job_slurm_node", "-", "`SLURMD_NODENAME`, inside a Slurm job"},
    {"job_completion_index", "-", "`JOB_COMPLETION_INDEX`, inside a Kubernetes indexed Job"},
    {"cuda_driver_version", "-", "CUDA version the driver supports"},
    {"cuda_runtime_version", "-", "CUDA runtime version"},
    {"pcie_link", "-", "PCIe generation and width (NVML's maximum, else sysfs, else `unknown`)"},
    {"pcie_peak_gbps", "GB/s", "one direction of that link"},
    {"nvml", "-", "`unavailable: why`, when NVML could not be loaded"},
    {"nvml_driver_version", "-", "driver version"},
    {"nvml_max_sm_clock_mhz", "MHz", "NVML's maximum SM clock"},
    {"nvml_max_mem_clock_mhz", "MHz", "NVML's maximum memory clock"},
    {"nvml_power_limit_w", "W", "enforced power limit"},
    {"nvml_start_sm_clock_mhz", "MHz", "SM clock when the run started"},
    {"nvml_start_temp_c", "C", "temperature when the run started"},
    {"nvml_start_power_w", "W", "power when the run started"},
    {"nvml_start_clock_reasons", "-", "clock-event reasons when the run started"},
    {"nvlink_links", "links", "NVLinks up (NVML)"},
    {"nvlink_version_code", "-", "`nvmlDeviceGetNvLinkVersion` of the first link up, as NVML returns it"},
    {"nvlink_link_gbps", "GB/s", "one direction of one link (NVML's common link speed)"},
    {"nvlink_peak_gbps", "GB/s", "one direction of all links up: the ceiling of a copy to or from one peer over NVLink"},
    {"peer_gpu_uuids", "-", "every GPU the run's peer rows touch: `index=UUID`, comma-separated (P1)"},
};

/// membench's own options (Google Benchmark's are listed by --help after them).
inline constexpr option option_table[] = {
    {"--device", "N", "0", "CUDA device to run on (`CUDA_DEVICE_ORDER=PCI_BUS_ID` makes N match `nvidia-smi`)"},
    {"--devices", "all|LIST", "",
     "run on several GPUs at once (`all`, or indices such as `0,2,3`): one process and one JSON per GPU "
     "(`--benchmark_out` with `.gpuN-UUID` before its extension), their output marked `[gpuN]`, one exit code; then "
     "the peer rows among those GPUs in one more process, alone (`.peers` before the extension, output marked `[peers]`)"},
    {"--list-devices", "", "", "list the CUDA devices with the index `--device` takes, and exit"},
    {"--list-families", "", "",
     "list every family (its key, whether it runs here, what it needs of the GPU, what it measures), and exit"},
    {"--peers", "PAIRS", "all",
     "the ordered GPU pairs (data `src-dst`) the peer rows measure: `all` (every pair among the GPUs this process may "
     "use, counted without CUDA: `CUDA_VISIBLE_DEVICES`, else the driver's list), `none`, or items such as `0-1,2-3`, "
     "`0-*`, `*-2`"},
    {"--peers-only", "", "", "only the peer rows (what `--devices` runs after the per-GPU processes)"},
    {"--host-link", "WHERE", "alone",
     "where the host-bound rows run (the `host/` rows and the kernels timed with their copies cross the host link, "
     "`alloc/cost` calls the driver: what a host's GPUs share): `alone` (under `--devices`, after the other rows, one "
     "GPU at a time, into each GPU's file), `together` (with the other rows, all GPUs at once), `skip` (not at all) "
     "or `only` (nothing else)"},
    {"--suite", "TIER", "default",
     "`check` (every level's rows: the node check), `quick` (every family's headline rows), `default`, or `full` (the whole grid): the same names, fewer rows"},
    {"--timing", "METHOD", "blocking",
     "`blocking`: the stream is held while the launch is queued, the event pair's cost subtracted; `events`: plain "
     "events around the launch; `single`: one warm-up and one launch, for ncu and nsys"},
    {"--max-ci", "PCT", "0.5",
     "stop sampling a row when the confidence interval of its median is within +-PCT % of it"},
    {"--max-ci-host", "PCT", "1",
     "the same for rows whose samples include host work (`timing:host_clock`, calls that block the host)"},
    {"--ci-level", "PCT", "95", "confidence level of the intervals"},
    {"--min-samples", "N", "10", "... with at least N samples"},
    {"--min-time", "S", "0", "... and S seconds of sampled time"},
    {"--max-time", "S", "0.5", "wall-clock budget of a kernel row; past it the row says `unconverged:budget`"},
    {"--max-time-host", "S", "2", "the same for rows whose samples include host work"},
    {"--row-limit", "S", "60", "a row short of `--min-samples` keeps sampling past its budget until this"},
    {"--clock-threshold", "PCT", "95",
     "discard and re-take samples whose SM clock is under PCT % of the clock measured when the run started, or "
     "taken during a power or thermal clock event"},
    {"--batch-below", "US", "100",
     "rows whose median is under US microseconds also get `batch_us`, back-to-back launches, with its own samples "
     "and interval (0: never)"},
    {"--keep-samples", "N", "0",
     "write up to N of each row's samples (microseconds) into the JSON row as `samples_us`, and of its batch "
     "samples as `batch_samples_us`, for `membench-report compare`"},
    {"--progress", "WHEN", "auto", "`[i/N]`, elapsed time and ETA on stderr: `auto` (when stderr is a terminal), `always`, `never`"},
    {"--fault-demo", "", "", "add `global/fault/*` rows that fault on purpose"},
    {"--metrics", "", "",
     "after each kernel row is timed, profile its launch with CUPTI's range profiler (separate replay passes, never "
     "timed) and add load/store efficiency, sectors and requests, L1/L2 hit rates and DRAM throughput as counters"},
    {"--metric-list", "M1,M2,...", "", "profile these metrics instead (implies `--metrics`)"},
    {"--version", "", "",
     "print membench's version, its commit and the Google Benchmark and CUDA runtime versions it was built with, and "
     "exit (touches no GPU)"},
};

inline constexpr exit_status exit_table[] = {
    {"0", "every row ran and verified"},
    {"1", "at least one row failed (verification or CUDA error)"},
    {"2", "unknown flag or bad value (Google Benchmark's flags and non-finite numbers too), a filter "
          "(`--benchmark_filter`, else the environment's `BENCHMARK_FILTER`) that is invalid or matches nothing, a "
          "`--benchmark_out` that cannot be written (both checked before anything runs, also when listing) or whose "
          "results could not be completed after the run"},
    {"3", "no CUDA device or driver (`membench: no CUDA device: ...`)"},
    {"4", "`--device` out of range"},
    {"5", "the kernels were not compiled the way this build claims, or for another CUDA major version"},
    {"128 + N", "stopped by signal N (130 for Ctrl-C); the JSON holds the rows completed before it"},
};

/// The ceilings a headline is priced against: how each is known. A row is priced only
/// against its family's ceiling, and only where the row itself names that ceiling (its
/// label's `peak:`, else DRAM; its link; its bytes per clock): never against another one.
inline constexpr field ceiling_table[] = {
    {"dram", "GB/s", "`gpu_peak_dram_gbps`: only rows the harness priced (`pct_peak`) whose label names no other"},
    {"pcie", "GB/s", "`pcie_peak_gbps`, one direction of the link: the `pct_peak` of rows labelled `peak:pcie`"},
    {"pcie_both_directions", "GB/s",
     "both directions of the PCIe link: the `pct_peak` of rows labelled `peak:pcie_both_directions`"},
    {"label", "GB/s", "the one each row's label names (`peak:pcie`), else DRAM; rows without `pct_peak` unpriced"},
    {"link", "GB/s", "the row's own `link_gb_per_s` (NVLink or PCIe between its two GPUs): `pct_of_link`"},
    {"l1", "bytes/cycle",
     "128 bytes per clock per SM (one L1 wavefront): `bytes_per_clk_per_sm` / 128, at the row's measured clock"},
    {"shared", "bytes/cycle",
     "32 banks x 4 bytes per clock per SM: `bytes_per_clk_per_sm` / 128, at the row's measured clock"},
    {"fp32", "GFLOP/s", "2 x SMs x 128 FP32 lanes x the SM clock: the row's `pct_fp32_peak`"},
    {"none", "-", "none meaningful or published: latencies, costs, ratios, the L2, SM to SM"},
};

/// Every benchmark family's headline, in the order the families' spaces are listed.
inline constexpr headline headline_table[] = {
    {"alloc/cost", "us_per_call", "us", "none", "one allocator call: a cost"},
    {"alloc/device_malloc", "us_per_call", "us", "none", "one in-kernel `malloc`: a cost"},
    {"alloc/memset", "gb_per_s", "GB/s", "dram", "bytes set"},
    {"alloc/memset_2d", "gb_per_s", "GB/s", "dram", "bytes set"},
    {"alloc/pitched", "gb_per_s", "GB/s", "label", "`dir:h2d` of PCIe, `dir:d2d` of DRAM"},
    {"async/bulk_latency", "ns_per_load", "ns", "none", "one dependent bulk copy"},
    {"async/staging", "gb_per_s", "GB/s", "dram", "tiles staged through shared memory"},
    {"cache/constant", "speedup_vs_plain", "x", "none", "against plain loads"},
    {"cache/constant_latency", "ns_per_load", "ns", "none", "one dependent load"},
    {"cache/l1_bandwidth", "gb_per_s", "GB/s", "l1", "L1 hits, all SMs"},
    {"cache/l1_split", "gb_per_s", "GB/s", "none", "relative: the carveout's effect"},
    {"cache/l2_bandwidth", "gb_per_s", "GB/s", "none", "L2 hits: no published ceiling"},
    {"cache/read_only", "speedup_vs_plain", "x", "none", "against plain loads"},
    {"cache/stencil", "speedup_vs_global", "x", "none", "against global coefficients"},
    {"cluster/dsm_bandwidth", "gb_per_s", "GB/s", "none", "SM to SM: no published ceiling"},
    {"cluster/dsm_latency", "ns_per_load", "ns", "none", "one dependent load"},
    {"compute/matmul", "gflop_per_s", "GFLOP/s", "fp32", "FP32 throughput"},
    {"compute/sm_clock", "event_sm_clock_mhz", "MHz", "none", "the SM clock over milliseconds: the slope of two spins"},
    {"compute/transcendental", "elems_per_s", "elements/s", "none", "GPU against CPU"},
    {"compute/vector_add", "elems_per_s", "elements/s", "none", "GPU against CPU"},
    {"global/atomic", "gb_per_s", "GB/s", "none", "done in the L2, not DRAM"},
    {"global/copy", "gb_per_s", "GB/s", "dram", "read and written"},
    {"global/fault", "time", "us", "none", "faults on purpose: no number"},
    {"global/l2_persist", "speedup_vs_none", "x", "none", "a window against none"},
    {"global/latency", "ns_per_load", "ns", "none", "one dependent load by span"},
    {"global/memcpy_d2d", "gb_per_s", "GB/s", "dram", "the in-suite reference"},
    {"global/memset", "gb_per_s", "GB/s", "dram", "the in-suite reference"},
    {"global/read", "gb_per_s", "GB/s", "dram", "bytes read"},
    {"global/read_offset", "gb_per_s", "GB/s", "dram", "bytes requested"},
    {"global/read_reuse", "gb_per_s", "GB/s", "none", "served by the caches, not DRAM"},
    {"global/read_scatter", "gb_per_s", "GB/s", "dram", "bytes requested"},
    {"global/read_stride", "gb_per_s", "GB/s", "dram", "bytes requested"},
    {"global/working_set", "gb_per_s", "GB/s", "none", "the level changes with the size"},
    {"global/write", "gb_per_s", "GB/s", "dram", "bytes written"},
    {"global/write_offset", "gb_per_s", "GB/s", "dram", "bytes requested"},
    {"host/copy", "gb_per_s", "GB/s", "pcie", "one direction of PCIe"},
    {"host/managed", "gb_per_s", "GB/s", "label", "migrating rows of PCIe, resident of DRAM"},
    {"host/streams", "gb_per_s", "GB/s", "pcie_both_directions", "both directions at once"},
    {"host/symbol_copy", "gb_per_s", "GB/s", "pcie", "one direction of PCIe"},
    {"host/zero_copy", "gb_per_s", "GB/s", "label", "device rows of DRAM; mapped rows unpriced"},
    {"local/spill", "slowdown", "x", "none", "against registers"},
    {"peer/copy", "gb_per_s", "GB/s", "link", "of the GPUs' link"},
    {"peer/latency", "ns_per_load", "ns", "none", "one dependent load from a peer"},
    {"peer/sm", "gb_per_s", "GB/s", "link", "of the GPUs' link"},
    {"shared/bandwidth", "gb_per_s", "GB/s", "shared", "all SMs"},
    {"shared/bank_conflict", "slowdown", "x", "none", "against the conflict-free pattern"},
    {"shared/latency", "ns_per_load", "ns", "none", "one dependent load"},
};

}  // namespace membench::schema
