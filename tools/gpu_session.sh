#!/usr/bin/env bash
# tools/gpu_session.sh BUNDLE OUT PHASE...: one GPU-machine session over a bundle
# (cmake --build <dir> --target bundle). Phases: info, tests, sass, demos (fault and
# Ctrl-C), ncu (harness vs Nsight Compute), suite:<exe> (wall time, rows, median noise),
# ncu_metrics (membench --metrics vs ncu --metrics), loads:<exe>:<regex> (load opcodes per kernel),
# run:<exe>:<name>:<filter>[:<flags>] (a filtered run and its rows in brief; flags comma-separated),
# reps:<exe> (10 repetitions of the fastest 1 GiB copy and of cudaMemcpy from OUT/<exe>.json).
# Never changes clocks or settings: it only reads them.
set -u
bundle=$1 out=$2
# The CUDA toolkit's own libraries (cuBLAS, CUPTI, nvperf) do not travel in the bundle:
# use this machine's (the same CUDA major version).
for lib in libcublas.so.13 libcupti.so.13 libnvperf_host.so; do
  found=$(find /usr/local/cuda/ /usr/local/cuda-13*/ /usr/lib/x86_64-linux-gnu/ -name "$lib" 2>/dev/null | head -n 1)
  if [ -n "$found" ]; then export LD_LIBRARY_PATH="$(dirname "$found")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; else echo "gpu_session: $lib not found"; fi
done
logs=${LOGDIR:-/tmp/membench_logs}  # OUT brings back at most 8 files: logs stay here
mkdir -p "$logs"
shift 2
mkdir -p "$out"
for phase in "$@"; do
  echo "=== $phase"
  case $phase in
    info)
      nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu,ecc.mode.current,persistence_mode --format=csv
      [ "$(nvidia-smi -L | wc -l)" -gt 1 ] && nvidia-smi topo -m
      nproc; echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
      ;;
    tests)
      "$bundle/membench_gpu_tests" 2>&1 | tail -n 20
      ;;
    sass)
      for pair in membench:default membench_ca:ca membench_cg:cg; do
        "$bundle/check_sass.sh" "$bundle/${pair%%:*}" "${pair##*:}"
      done
      ;;
    demos)
      here=$(dirname "$0")/../tests
      "$here/fault_demo.sh" "$bundle/membench" "$logs/fault_demo.json" "$here/check_rows.cmake" >"$logs/fault_demo.log" 2>&1
      echo "fault demo: exit $?"; grep -E "error row|timed rows|fresh process" "$logs/fault_demo.log"
      "$here/interrupt_demo.sh" "$bundle/membench" "$logs/interrupt_demo.json" "$here/check_rows.cmake" >"$logs/interrupt_demo.log" 2>&1
      echo "interrupt demo: exit $?"; grep -E "timed rows|stopped by" "$logs/interrupt_demo.log"; grep -m3 "error row" "$logs/interrupt_demo.log"
      ;;
    ncu)
      python3 "$(dirname "$0")/ncu_validate.py" "$bundle" "$out"
      echo "ncu validation: exit $?"
      ;;
    ncu_metrics)
      # membench --metrics (CUPTI range profiler) against ncu --metrics on the same rows.
      python3 "$(dirname "$0")/ncu_metrics.py" "$bundle" "$out"
      echo "ncu metrics agreement: exit $?"
      ;;
    suite:*)
      exe=${phase#suite:}
      start=$(date +%s%N)
      timeout 560 "$bundle/$exe" --benchmark_out="$out/$exe.json" --benchmark_out_format=json >"$logs/$exe.log" 2>&1
      rc=$?
      echo "$exe: exit $rc, wall $(( ($(date +%s%N) - start) / 1000000 )) ms"
      python3 - "$out/$exe.json" <<'PY'
import json, statistics, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
ok = [r for r in rows if "noise_pct" in r]
conv = [r for r in ok if r.get("converged", 1) == 1]
print(f"rows {len(rows)}, timed {len(ok)}, errors {len(rows) - len(ok)}, converged {len(conv)}, "
      f"median noise {statistics.median(r['noise_pct'] for r in ok):.3f} %, "
      f"median samples {statistics.median(r['samples'] for r in ok):.0f}")
PY
      tail -n 2 "$logs/$exe.log"
      ;;
    loads:*)
      # loads:<exe>:<regex>: the load opcodes in the SASS of each kernel whose name matches.
      spec=${phase#loads:}; exe=${spec%%:*}; regex=${spec#*:}
      cuobjdump -sass "$bundle/$exe" | awk -v re="$regex" '
        /Function :/ { fn = $3; keep = (fn ~ re) }
        keep && match($0, /(LDG|LDC|LDS|LDL|LD)\.[A-Z0-9._]+|(LDG|LDC|LDS|LDL) /) {
          op = substr($0, RSTART, RLENGTH); gsub(/ /, "", op); n[fn " " op]++ }
        END { for (k in n) print k, n[k] }' | sort | sed "s/^/$exe /"
      ;;
    run:*)
      # run:<exe>:<name>:<filter>: one filtered run to OUT/<name>.json, then a compact table.
      spec=${phase#run:}; exe=${spec%%:*}; spec=${spec#*:}; name=${spec%%:*}; filter=${spec#*:}
      flags=""
      case $filter in *:--*) flags=${filter##*:}; filter=${filter%:*};; esac
      start=$(date +%s%N)
      # shellcheck disable=SC2086
      timeout 500 "$bundle/$exe" --benchmark_filter="$filter" --benchmark_out="$out/$name.json" \
        --benchmark_out_format=json ${flags//,/ } >"$logs/$name.log" 2>&1
      echo "$name ($exe, filter $filter): exit $?, wall $(( ($(date +%s%N) - start) / 1000000 )) ms"
      grep -E "^membench:" "$logs/$name.log" | head -5
      python3 "$(dirname "$0")/summarize_rows.py" "$out/$name.json"
      ;;
    each:*)
      # each:<filter>: tools/run_each_gpu.sh over every GPU of the host, then membench-report gpus.
      "$(dirname "$0")/run_each_gpu.sh" "$bundle/membench" "$out/each" -- --benchmark_filter="${phase#each:}" \
        >"$logs/each.log" 2>&1
      echo "run_each_gpu: exit $?"; tail -n 3 "$logs/each.log"
      "$bundle/membench-report" gpus "$out"/each/membench.dev*.json --format md | head -n 12
      ;;
    gate)
      # The CI gate on real runs: the default build twice (a rerun must pass) and the cg
      # build (L1-bypassing loads: a real slowdown on the reuse rows must fail).
      for run in rerun_a rerun_b; do
        "$bundle/membench" --benchmark_out="$out/$run.json" --benchmark_out_format=json >"$logs/$run.log" 2>&1
        echo "$run: exit $?"
      done
      "$bundle/membench_cg" --benchmark_out="$out/gate_cg.json" --benchmark_out_format=json >"$logs/gate_cg.log" 2>&1
      echo "gate_cg: exit $?"
      "$bundle/membench-report" compare "$out/rerun_a.json" "$out/rerun_b.json" --format md -o "$out/compare_rerun.md"
      echo "compare rerun_a rerun_b: exit $?"; sed -n 1,8p "$out/compare_rerun.md"
      "$bundle/membench-report" compare "$out/rerun_a.json" "$out/gate_cg.json" --format md -o "$out/compare_cg.md"
      echo "compare rerun_a gate_cg: exit $?"; sed -n 1,8p "$out/compare_cg.md"
      ;;
    reportperf)
      # membench-report on 100 000 rows (membench rows replicated under new experiment names).
      python3 - "${REPORT_SOURCE:-$out/rerun_a.json}" "$logs/rows100k.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); base = j["benchmarks"]; rows = []
k = 0
while len(rows) < 100000:
    for b in base:
        c = dict(b)
        for f in ("name", "run_name"):
            sp, ex, rest = c[f].split("/", 2)
            c[f] = f"{sp}/{ex}_r{k}/{rest}"
        rows.append(c)
    k += 1
j["benchmarks"] = rows[:100000]
json.dump(j, open(sys.argv[2], "w"))
PY
      ls -la "$logs/rows100k.json"
      for cmd in "compare $logs/rows100k.json $logs/rows100k.json --format md" \
                 "table $logs/rows100k.json --rows offset --cols experiment --filter _offset --format csv" \
                 "builds $logs/rows100k.json ${REPORT_SOURCE_CG:-$out/gate_cg.json} --format csv" "gpus $logs/rows100k.json --format csv"; do
        s0=$(date +%s%N); "$bundle/membench-report" $cmd >/dev/null; rc=$?
        echo "membench-report ${cmd%% *} on 100000 rows: exit $rc, $(( ($(date +%s%N) - s0) / 1000000 )) ms"
      done
      ;;
    reps:*)
      exe=${phase#reps:}
      best=$(python3 - "$out/$exe.json" <<'PY'
import json, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["name"].startswith("global/copy/") and "gb_per_s" in b]
print(max(rows, key=lambda b: b["gb_per_s"])["run_name"])
PY
)
      echo "fastest copy: $best"
      "$bundle/$exe" --benchmark_filter="^($best|global/memcpy_d2d/l2:cold/bytes:1G/manual_time)\$" \
        --benchmark_repetitions=10 --benchmark_out="$out/${exe}_reps.json" --benchmark_out_format=json 2>&1 | grep -E "_(mean|median|cv)"
      ;;
  esac
done
