#!/usr/bin/env bash
# tools/report/report_perf.sh [REPORT [SOURCE [ROWS [RUNS]]]]: membench-report's speed and memory
# on ROWS (100000) benchmark rows, measured with /usr/bin/time -v, RUNS (5) times each.
#   REPORT  the membench-report binary (build/dev/bin/membench-report)
#   SOURCE  a committed suite whose rows are replicated under new experiment names, as
#           tools/run/gpu_session.sh's reportperf phase does (reports/h200/2026-11-21_4f1f839/membench.json)
# Prints, per command, the fastest and median wall time, the CPU time of the fastest run,
# and the largest peak memory, absolute and as a multiple of one input file's size. Targets
# (README): under 1 s and at most 2x the file for table and compare on a 2-core machine.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
report=${1:-$here/build/dev/bin/membench-report}
source=${2:-$here/reports/h200/2026-11-21_4f1f839/membench.json}
rows=${3:-100000}
runs=${4:-5}
[ -x "$report" ] || { echo "report_perf: no membench-report at $report (build it first)" >&2; exit 2; }
report=$(realpath "$report")
[ -x /usr/bin/time ] || { echo "report_perf: needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# base.json: ROWS rows; new.json: the same rows, every 7th 6 % slower (a compare of two
# different files, as in CI).
python3 - "$source" "$rows" "$work/base.json" "$work/new.json" <<'PY'
import json, sys
source, rows, base_path, new_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
j = json.load(open(source))
timed = j["benchmarks"]
out, k = [], 0
while len(out) < rows:
    for b in timed:
        c = dict(b)
        for f in ("name", "run_name"):
            sp, ex, rest = c[f].split("/", 2)
            c[f] = f"{sp}/{ex}_r{k}/{rest}"
        out.append(c)
    k += 1
j["benchmarks"] = out[:rows]
json.dump(j, open(base_path, "w"))
for i, b in enumerate(j["benchmarks"]):
    if i % 7 == 0 and not b.get("error_occurred"):
        b["real_time"] *= 1.06
        for key in ("t_min_us", "t_median_us", "t_mean_us", "t_max_us", "ci_low_us", "ci_high_us"):
            if key in b:
                b[key] *= 1.06
        for key in ("gb_per_s", "bytes_per_second"):
            if key in b:
                b[key] /= 1.06
json.dump(j, open(new_path, "w"))
PY
size=$(stat -c %s "$work/base.json")
echo "membench-report: $report"
echo "input: $rows rows from $source, $((size / 1000000)) MB per file; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-58s %9s %9s %9s %9s %7s %5s\n' command "best s" "median s" "user s" "sys s" "peak MB" "x file"

measure() {
  local label=$1
  shift
  local walls=() best=999999 best_user="" best_sys="" peak=0
  for _ in $(seq "$runs"); do
    /usr/bin/time -v -o "$work/time.txt" "$report" "$@" >/dev/null 2>"$work/stderr.txt" || {
      local rc=$?
      [ "$rc" -le 1 ] || { echo "report_perf: '$label' exited $rc:" >&2; cat "$work/stderr.txt" >&2; exit 1; }
    }
    local wall user sys rss
    wall=$(awk -F': ' '/Elapsed/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$work/time.txt")
    user=$(awk -F': ' '/User time/ {print $2}' "$work/time.txt")
    sys=$(awk -F': ' '/System time/ {print $2}' "$work/time.txt")
    rss=$(awk -F': ' '/Maximum resident/ {print $2}' "$work/time.txt")
    walls+=("$wall")
    if awk -v a="$wall" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$wall best_user=$user best_sys=$sys; fi
    [ "$rss" -gt "$peak" ] && peak=$rss
  done
  local median
  median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
  printf '%-58s %9.2f %9.2f %9.2f %9.2f %7d %5.2f\n' "$label" "$best" "$median" "$best_user" "$best_sys" \
    $((peak / 1024)) "$(awk -v p="$peak" -v s="$size" 'BEGIN {print p * 1024 / s}')"
}

cd "$work"
measure "table base --rows offset --cols experiment --filter _offset" \
  table base.json --rows offset --cols experiment --filter _offset --format csv
measure "table base (unfiltered: a pivot per experiment)" table base.json --format csv
measure "compare base base (reportperf's: one file twice)" compare base.json base.json --format md
measure "compare base new (two files, every 7th row 6 % slower)" compare base.json new.json --format md
measure "gpus base" gpus base.json --format csv
