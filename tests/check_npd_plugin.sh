#!/usr/bin/env bash
# tests/check_npd_plugin.sh REPORT SOURCE_DIR: node-problem-detector's membench plugin answers in
# the custom plugin's convention (0 OK, 1 NonOK, 2 Unknown, one line its message), over the real
# membench-check and membench-report with the check stand-in for the GPU (an H100's committed
# check runs); its plugin configuration names the script where the image has it.
# node-problem-detector itself is not run here.
set -uo pipefail
report=$(realpath "$1") src=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_npd_plugin: $*" >&2; exit 1; }
mkdir -p "$work/runs" "$work/bin"
tar xJf "$src/reports/fleet/h100/check/2026-12-07_1gpu_865f7762.tar.xz" -C "$work/runs"
ln -s "$src/integrations/ci/check_standin" "$work/bin/membench"
ln -s "$report" "$work/bin/membench-report"
plugin() {  # plugin WANT-EXIT MUTATE [NO_GPU]: the plugin's exit and its one line
  rm -f "$work/state"
  out=$(CHECK_RUNS="$work/runs" CHECK_STATE="$work/state" CHECK_MUTATE=$2 NO_GPU=${3:-0} \
        CHECK_FILTER='^global/(read|write|copy)/.*bytes:1G|latency/.*bytes:1G' \
        MEMBENCH_CHECK="$src/tools/run/membench-check" \
        MEMBENCH_CHECK_ARGS="--runs=4 --bin=$work/bin --baseline=$src/reference/node_check.json" \
        bash "$src/integrations/kubernetes/npd/membench_npd.sh")
  local rc=$?
  [ "$rc" = "$1" ] || fail "plugin ($2) exited $rc, not $1: $out"
  [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "plugin ($2) wrote more than one line: $out"
  echo "$out"
}
plugin 0 none | grep -q '^membench: every GPU and level within' || fail "healthy: no OK message"
plugin 1 slow | grep -q '^membench: GPU-865f7762 DRAM slower +2' || fail "DRAM 20 % slower: no message naming GPU, level and deficit"
plugin 2 none 1 | grep -q '^membench: no verdict (exit 2)' || fail "no GPU: not Unknown"
python3 - "$src" <<'PY' || exit 1
import json, sys
src = sys.argv[1]
c = json.load(open(f"{src}/integrations/kubernetes/npd/membench-plugin.json"))
assert c["plugin"] == "custom", "not a custom plugin monitor"
rule = c["rules"][0]
assert rule["condition"] == c["conditions"][0]["type"], "the rule sets no condition the monitor declares"
# The image copies the repository to /opt/membench (integrations/kubernetes/Dockerfile).
assert rule["path"] == "/opt/membench/integrations/kubernetes/npd/membench_npd.sh", rule["path"]
assert "WORKDIR /opt/membench" in open(f"{src}/integrations/kubernetes/Dockerfile").read()
PY
echo "check_npd_plugin: OK 0, a slow DRAM level NonOK 1 with GPU, level and deficit, no GPU Unknown 2"
