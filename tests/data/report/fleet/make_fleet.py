#!/usr/bin/env python3
"""tests/data/report/fleet/make_fleet.py: makes the fixture fleet of `membench-report fleet`'s
tests from the committed pair of H200s (reports/h200/2026-11-27_a56f772: two GPUs, each run
alone and with the other at once). Run from anywhere; it rewrites the files next to it and
../fleet_other/h100.json.

Four GPUs of two runs each, every file cut to 43 rows of eleven families (a peer row
among them) and to the keys membench-report reads:
  gpuA_*: GPU 0's two runs;  gpuB_*: GPU 1's;
  gpuC_*: GPU 0's, every row's times x (1 +- 0.3 %), a jitter fixed by the row's name; its
          cache/constant_latency 64K row an error row;
  gpuD_*: GPU 1's, jittered the same way, then global/read and global/write 8 % slower
          (membench.slowdown, as tools/gate/inject_slowdown.py): the outlier.
fleet_other/h100.json: GPU A's first run as another model (a mixed fleet), jittered as C and D.
"""
import copy
import hashlib
import json
import re
from pathlib import Path

from membench import schema as S
from membench.slowdown import inject, scale_row

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]

RUNS = ROOT / "reports" / "h200" / "2026-11-27_a56f772"
ROWS = re.compile(r"^(global/(read|write|read_stride|copy)/|shared/bank_conflict/|cache/l1_split/|"
                  r"host/(symbol_copy|managed)/|alloc/cost/|compute/matmul/|peer/copy/access:on/dir:d0_d1|"
                  r"cache/constant_latency/)")
C, R, X = S.counter, S.row, S.context
ROW_KEYS = {R.name, R.run_name, R.run_type, R.repetitions, R.repetition_index, R.iterations,
            R.real_time, R.cpu_time, R.time_unit, R.label, R.error_occurred, R.error_message,
            C.ci_low_us, C.ci_high_us, C.converged, C.samples, C.noise_pct, C.sm_clock_mhz, C.t_median_us,
            C.gb_per_s, C.bytes}
CONTEXT_KEYS = {X.gpu_uuid, X.gpu_name, X.gpu_global_mem_bytes, X.gpu_sm_count, X.gpu_app_sm_clock_mhz,
                X.nvml_max_sm_clock_mhz, X.membench_cache_mode, X.membench_suite, X.host_name,
                X.membench_git_commit, X.membench_ci_level_pct, X.membench_reference_sm_clock_mhz,
                X.gpu_peak_dram_gbps, S.gbench_context.date}


def source(gpu, alone):
    folder = RUNS / ("devices_alone" if alone else "devices_at_once")
    return json.loads(next(folder.glob(f"membench.gpu{gpu}*.json")).read_text())


def cut(doc, uuid, host):
    out = {"context": {k: v for k, v in doc["context"].items() if k in CONTEXT_KEYS},
           "benchmarks": [{k: v for k, v in b.items() if k in ROW_KEYS}
                          for b in doc["benchmarks"] if ROWS.search(b[R.name])]}
    out["context"][X.gpu_uuid] = uuid
    out["context"][X.host_name] = host
    return out


def jitter(doc, seed):
    """Every row's times x (1 + u), u within +-0.3 %, fixed by the seed and the row's name."""
    for b in doc["benchmarks"]:
        h = int(hashlib.sha256(f"{seed}/{b[R.name]}".encode()).hexdigest()[:8], 16)
        scale_row(b, 1 + 0.006 * (h / 0xFFFFFFFF - 0.5))


def make_error(doc, name):
    for b in doc["benchmarks"]:
        if b[R.name].startswith(name):
            for k in list(b):
                if k not in (R.name, R.run_name, R.run_type, R.repetitions, R.repetition_index,
                             R.iterations, R.time_unit, R.label):
                    del b[k]
            b[R.real_time] = b[R.cpu_time] = 0
            b[R.error_occurred] = True
            b[R.error_message] = "verification failed: element 17 is 3 (expected 4)"


def short(v):
    return float(f"{v:.7g}") if isinstance(v, float) else v


def write(path, doc):
    """Compact, a row a line, numbers to seven digits."""
    rows = ",\n".join(json.dumps({k: short(v) for k, v in b.items()}, separators=(",", ":")) for b in doc["benchmarks"])
    context = json.dumps(doc["context"], separators=(",", ":"))
    path.write_text(f'{{"context":{context},\n"benchmarks":[\n{rows}]}}\n')


def main():
    for run, alone in ((1, True), (2, False)):
        a = cut(source(0, alone), "GPU-aaaaaaaa-0000-4000-8000-000000000001", "node1")
        b = cut(source(1, alone), "GPU-bbbbbbbb-0000-4000-8000-000000000002", "node1")
        c = cut(source(0, alone), "GPU-cccccccc-0000-4000-8000-000000000003", "node2")
        d = cut(source(1, alone), "GPU-dddddddd-0000-4000-8000-000000000004", "node2")
        jitter(c, "c")
        make_error(c, "cache/constant_latency/bytes:64K")
        jitter(d, "d")
        inject(d, 8, r"^global/(read|write)/")
        for name, doc in (("A", a), ("B", b), ("C", c), ("D", d)):
            write(HERE / f"gpu{name}_{run}.json", doc)
        if run == 1:
            other = copy.deepcopy(a)
            other["context"][X.gpu_name] = "NVIDIA H100 80GB HBM3"
            other["context"][X.gpu_uuid] = "GPU-eeeeeeee-0000-4000-8000-000000000005"
            jitter(other, "e")  # a measurement of its own: a copy of A's times would be A's run
            (HERE.parent / "fleet_other").mkdir(exist_ok=True)
            write(HERE.parent / "fleet_other" / "h100.json", other)


if __name__ == "__main__":
    main()
