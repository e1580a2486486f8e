#!/usr/bin/env bash
# tests/check_node_check.sh REPORT EVALUATE SOURCE_DIR: the node check without a GPU.
#  1. reference/ (the references, their sources, the check's evaluation) is what reference/make_reference.sh
#     makes from the committed runs;
#  2. membench-check end to end with a stand-in for membench (the GPU: each run writes the next
#     committed check run of a real H100 where membench would write it) and the real
#     membench-report: a healthy GPU exits 0 with a line per level; the same runs with the DRAM
#     rows 20 % slower (tools/gate/inject_slowdown.py) exit 1 on DRAM; with the L1 rows lost,
#     exit 1, failing; a membench that cannot run (no GPU) exits 2; bad options exit 2.
set -uo pipefail
report=$(realpath "$1") evaluate=$(realpath "$2") src=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_node_check: $*" >&2; exit 1; }

# Through a link named check: a clone's own path must not decide which runs are check runs.
ln -s "$src" "$work/check"
"$work/check/reference/make_reference.sh" "$report" "$evaluate" "$work" >/dev/null || fail "reference/make_reference.sh failed"
for made in node_check.json fleet.json sources.md evaluation.md; do
  cmp -s "$work/$made" "$src/reference/$made" ||
    fail "reference/$made is not what reference/make_reference.sh makes from the committed runs: run it again"
done

# The stand-in: the committed check runs of GPU-865f7762 (an H100 alone on its host), one a run.
runs="$work/runs"
mkdir -p "$runs" "$work/bin"
tar xJf "$src"/reports/fleet/h100/check/2026-12-07_1gpu_865f7762.tar.xz -C "$runs"
ln -s "$src/integrations/ci/check_standin" "$work/bin/membench"
ln -s "$report" "$work/bin/membench-report"
check() {  # expected exit, then membench-check's options; environment: MUTATE, FILTER, NO_GPU, RUNS
  rm -f "$work/state"
  CHECK_STATE="$work/state" CHECK_RUNS="${RUNS:-$runs}" CHECK_MUTATE=${MUTATE:-none} CHECK_FILTER=${FILTER:-} \
    "$src/tools/run/membench-check" --bin="$work/bin" --baseline="$src/reference/node_check.json" --format=csv \
    "${@:2}" > "$work/out.csv" 2> "$work/err.txt"
  local rc=$?
  [ "$rc" = "$1" ] || { cat "$work/out.csv" "$work/err.txt" >&2; fail "membench-check ${*:2} (${MUTATE:-none}) exited $rc, not $1"; }
}
line() { grep -E "^${GPU:-GPU-865f7762}[^,]*,[^,]*,$1," "$work/out.csv" || fail "no line for $1: $(head -20 "$work/out.csv")"; }

MUTATE=none check 0 --metrics="$work/node.prom"
# The metrics a textfile collector reads: a healthy series per level judged, the check's own.
grep -q '^membench_level_healthy{gpu_uuid="GPU-865f7762[^}]*level="dram"} 1$' "$work/node.prom" ||
  fail "no healthy DRAM series in the metrics: $(head -c 600 "$work/node.prom")"
grep -q '^membench_check_exit_code 0$' "$work/node.prom" || fail "the metrics lack the check's exit code"
if command -v promtool >/dev/null; then
  promtool check metrics < "$work/node.prom" || fail "promtool check metrics refuses the node check's metrics"
fi
# Its stratum's reference holds every level (five of its GPUs ran the check tier).
for level in "L1" "shared" "L2 near" "L2 far" "DRAM" "constant cache" "DSM \(another SM\)" "SM clock under load" \
             "PCIe h2d \(pinned\)" "PCIe d2h \(pinned\)"; do
  line "$level" | grep -q ",within," || fail "a healthy GPU is not within on $level: $(line "$level")"
done
# GPU-371611dc's stratum has one GPU of check runs: its reference lacks L2 far, and says so.
mkdir "$work/fewer"
tar xJf "$src"/reports/fleet/h100/check/2026-12-07_1gpu_371611dc.tar.xz -C "$work/fewer"
RUNS="$work/fewer" check 0
GPU=GPU-371611dc line "L2 far" | grep -q ",not in the reference," ||
  fail "L2 far, which the reference lacks, is not said: $(GPU=GPU-371611dc line "L2 far")"
MUTATE=slow FILTER='^global/(read|write|copy)/.*bytes:1G|latency/.*bytes:1G' check 1 --metrics="$work/node.prom"
grep -q '^membench_level_healthy{[^}]*level="dram"} 0$' "$work/node.prom" || fail "DRAM slower is healthy in the metrics"
grep -q '^membench_check_exit_code 1$' "$work/node.prom" || fail "the metrics do not say exit 1"
line "DRAM" | grep -q ",slower," || fail "DRAM 20 % slower is not called: $(line DRAM)"
line "L1" | grep -q ",within," || fail "L1 is not within when DRAM is slow: $(line L1)"
# The same verdict as a CI system reads it: DRAM a failed case of its GPU.
MUTATE=slow FILTER='^global/(read|write|copy)/.*bytes:1G|latency/.*bytes:1G' check 1 --format=junit
grep -A1 'name="DRAM"' "$work/out.csv" | grep -q '<failure .*type="slower"' || fail "DRAM slower is no failed JUnit case"
MUTATE=lose FILTER='^(global/latency/.*bytes:16K|cache/l1_bandwidth)' check 1
line "L1" | grep -q ",failing," || fail "a GPU that lost L1 is not failing: $(line L1)"
NO_GPU=1 check 2 --metrics="$work/node.prom"
grep -q '^membench_check_exit_code 2$' "$work/node.prom" && ! grep -q '^membench_level_healthy' "$work/node.prom" ||
  fail "a check that could not run is not said in the metrics, or still has level series"
grep -q "membench exited 3" "$work/err.txt" || fail "a membench that cannot run is not said: $(cat "$work/err.txt")"
check 2 --runs=0
check 2 --out=
check 2 --self --baseline=x.json
echo "check_node_check: the reference is reproducible; healthy 0, DRAM 20 % slower 1, L1 lost 1, no GPU 2"
