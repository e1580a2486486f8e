#!/usr/bin/env bash
# reports/fleet/held_out_power.sh REPORT [OUT]: power on GPUs the test was not tuned on. Each
# fresh single-GPU H100 of newcomers/ that a committed baseline of its board part judges (both
# measured after the test was set) is judged as measured, with every row 5 % slower, and with
# each family of the baseline (two GPU rows or more, three reference GPUs or more) 10 % slower
# in turn (tools/gate/inject_slowdown.py); the exit codes counted into OUT (default
# reports/fleet/held_out_power.md).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$here")")
# Checked before anything runs: without -e, a failed check inside $(...) would not stop the script,
# and the table would be written over OUT regardless.
[ $# -ge 1 ] && [ -n "$1" ] || { echo "usage: held_out_power.sh REPORT [OUT]" >&2; exit 2; }
[ -x "$1" ] && [ -f "$1" ] || { echo "held_out_power.sh: REPORT $1 is not an executable file" >&2; exit 2; }
report=$(realpath "$1")
out=${2:-$here/held_out_power.md}
[ -d "$(dirname "$out")" ] || { echo "held_out_power.sh: OUT $out: No such folder $(dirname "$out")" >&2; exit 2; }
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# judge RUNS BASELINE PCT [FILTER]: fleet's exit code on the runs made PCT % slower.
judge() {
  local d; d=$(mktemp -d -p "$work")
  for f in "$1"/quick*/membench*.json; do
    local run; run=$(basename "$(dirname "$f")")
    mkdir -p "$d/$run"
    python3 "$root/tools/gate/inject_slowdown.py" "$f" "$d/$run/m.json" --slowdown "$3" ${4:+--filter "$4"} \
      >/dev/null 2>"$work/inject.err" || { echo "inject failed: $(cat "$work/inject.err")"; return; }
  done
  "$report" fleet "$d" --baseline "$2" >/dev/null 2>&1
  echo $?
}
{
  echo "# Power on held-out GPUs"
  echo
  echo "Made by \`reports/fleet/held_out_power.sh\`: fresh single-GPU H100s against the committed baseline of"
  echo "their board part, as measured and slowed (fleet's exit code: 0 within, 1 a GPU slow)."
  echo
  echo "| GPU | baseline | as measured | every row 5 % | one family 10 %: exit 1 |"
  echo "|---|---|---:|---:|---:|"
  for pair in "371611dc h100/baseline_board692-0200-000.json" "e5f1ca74 h100/baseline_board692-0202-000.json"; do
    read -r gpu base <<<"$pair"
    runs="$work/$gpu"
    mkdir -p "$runs"
    tar xJf "$here/h100/newcomers/2026-12-07_1gpu_$gpu.tar.xz" -C "$runs"
    families=$(python3 -c "import json,sys
b = json.load(open(sys.argv[1]))['fleets'][0]
print(' '.join(sorted(s['name'] for s in b['scopes'] if s['kind'] == 'family' and s['part'] == 'gpu' and s['gpus'] >= 3)))" \
      "$here/$base")
    n=0 found=0
    for family in $families; do
      n=$((n + 1))
      [ "$(judge "$runs" "$here/$base" 10 "^$family/")" = 1 ] && found=$((found + 1))
    done
    echo "| GPU-$gpu | \`$base\` | exit $(judge "$runs" "$here/$base" 0) | exit $(judge "$runs" "$here/$base" 5) | $found of $n families |"
  done
} > "$work/out.md" || { echo "held_out_power.sh: could not write the table" >&2; exit 1; }
# Written whole into the temporary folder first, so a failure never leaves OUT truncated.
mv -f "$work/out.md" "$out" || { echo "held_out_power.sh: could not write $out" >&2; exit 1; }
echo "held_out_power.sh: $out"
