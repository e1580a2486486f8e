#!/usr/bin/env bash
# tools/report/report_perf.sh [REPORT [SOURCE [ROWS [RUNS [LAYOUTS]]]]]: membench-report's speed and
# memory on files of ROWS (100000) benchmark rows, every command unfiltered, measured with
# /usr/bin/time -v, RUNS (3) times each (once, if that run passes REPORT_PERF_LIMIT, 60 s).
#   REPORT   the membench-report binary (build/dev/bin/membench-report)
#   SOURCE   a committed suite whose rows are the templates (reports/h200/2026-11-21_4f1f839/membench.tar.xz;
#            a packed X.tar.xz is read from the X.json it holds)
#   LAYOUTS  which of these (default all three, comma-separated):
#            suite    the suite's rows replicated under new experiment names, as tools/run/gpu_session.sh's
#                     reportperf phase does: many families of the suite's sizes
#            family   one family of ROWS rows (global/read_offset, a bytes value each)
#            families one row per family (ROWS families)
# Each layout has base.json; new.json, the same rows a run later with every 7th row 6 % slower;
# cg.json, new.json as the cg build. The commands: table and gpus of base.json; builds of base
# and cg; compare of base and new, and of base with itself (reportperf's); history of base and
# new; views of a folder whose views file runs table, gpus and history of base.json (the
# files read once, every counter and the evidence kept).
# Prints, per layout and command, the fastest and median wall time, the CPU time (user +
# system) of the fastest run, the largest peak memory, absolute and as a multiple of one
# input file's size, and whether it meets the targets (docs/report.md): under 1 s wall and
# at most 2x the file, on a 2-core machine. Wall times count only on an otherwise idle
# machine: the load average is printed; the CPU time over the cores is what an idle machine
# would take at best.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
report=${1:-$here/build/dev/bin/membench-report}
source=${2:-$here/reports/h200/2026-11-21_4f1f839/membench.tar.xz}
rows=${3:-100000}
runs=${4:-3}
layouts=${5:-suite,family,families}
limit=${REPORT_PERF_LIMIT:-60}  # seconds a run may take; longer runs are stopped and shown as ">LIMIT"
[ -x "$report" ] || { echo "report_perf: no membench-report at $report (build it first)" >&2; exit 2; }
# The arguments checked before anything is measured: a bad one would otherwise surface as a
# Python traceback, a silent other layout, or a table of nothing.
[[ $rows =~ ^[0-9]+$ ]] && [ "$rows" -gt 0 ] || { echo "report_perf: ROWS must be a whole number above 0, not '$rows'" >&2; exit 2; }
[[ $runs =~ ^[0-9]+$ ]] && [ "$runs" -gt 0 ] || { echo "report_perf: RUNS must be a whole number above 0, not '$runs'" >&2; exit 2; }
[[ $limit =~ ^[0-9]+$ ]] && [ "$limit" -gt 0 ] || { echo "report_perf: REPORT_PERF_LIMIT must be a whole number of seconds above 0, not '$limit'" >&2; exit 2; }
[ -n "${layouts//,/}" ] || { echo "report_perf: LAYOUTS names no layout" >&2; exit 2; }
for layout in ${layouts//,/ }; do
  case $layout in
    suite | family | families) ;;
    *) echo "report_perf: unknown layout '$layout' in LAYOUTS (suite, family, families)" >&2; exit 2 ;;
  esac
done
[ -f "$source" ] && [ -r "$source" ] || { echo "report_perf: SOURCE $source is not a readable file" >&2; exit 2; }
report=$(realpath "$report")
source=$(realpath "$source")
[ -x /usr/bin/time ] || { echo "report_perf: needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ $source == *.tar.xz ]]; then  # packed (reports/README.md): X.tar.xz holds X.json
  member=$(basename "$source" .tar.xz).json
  tar -xJf "$source" -C "$work" "$member" 2>/dev/null || { echo "report_perf: SOURCE $source holds no $member" >&2; exit 2; }
  packed=$source source=$work/$member
fi
# The templates: a JSON file with a list of benchmark rows, said here rather than as a traceback
# from the heredoc after the table's header.
python3 - "$source" "${packed:-$source}" <<'PY' || exit 2
import json, sys
try:
    rows = json.load(open(sys.argv[1], encoding="utf-8"))["benchmarks"]
    ok = isinstance(rows, list) and rows and all(isinstance(r, dict) and str(r.get("name", "")).count("/") >= 2
                                                 and str(r.get("run_name", "")).count("/") >= 2 for r in rows)
except (OSError, ValueError, KeyError, TypeError):
    ok = False
if not ok:
    print(f"report_perf: SOURCE {sys.argv[2]} is not a membench run with benchmark rows", file=sys.stderr)
    sys.exit(2)
PY

# LAYOUT's base.json, new.json and cg.json in the current folder.
make_files() {
  python3 - "$source" "$rows" "$1" <<'PY'
import json, sys
source, rows, layout = sys.argv[1], int(sys.argv[2]), sys.argv[3]
j = json.load(open(source))
timed = j["benchmarks"]
out = []
for i in range(rows):
    c = dict(timed[i % len(timed)])
    for f in ("name", "run_name"):
        sp, ex, rest = c[f].split("/", 2)
        if layout == "suite":  # the whole suite again under new experiment names
            c[f] = f"{sp}/{ex}_r{i // len(timed)}/{rest}"
        elif layout == "family":
            c[f] = f"global/read_offset/type:f32/offset:4/l2:cold/bytes:{i + 1}/manual_time"
        else:
            c[f] = f"{sp}/{ex}_f{i}/{rest}"
    out.append(c)
j["benchmarks"] = out
json.dump(j, open("base.json", "w"))
j["context"]["date"] = "2026-11-22T10:00:00+00:00"
j["context"]["membench_git_commit"] = "feedfacefeed"
for i, b in enumerate(out):
    if i % 7 == 0 and not b.get("error_occurred"):
        b["real_time"] *= 1.06
        for key in ("t_min_us", "t_median_us", "t_mean_us", "t_max_us", "ci_low_us", "ci_high_us"):
            if key in b:
                b[key] *= 1.06
        for key in ("gb_per_s", "bytes_per_second"):
            if key in b:
                b[key] /= 1.06
json.dump(j, open("new.json", "w"))
j["context"]["membench_cache_mode"] = "cg"
json.dump(j, open("cg.json", "w"))
PY
  mkdir -p views
  ln -sf ../base.json views/membench.json
  cat >views/views.json <<'JSON'
{"views": [{"name": "all", "output": "all.txt", "inputs": {"in": ["membench.json"]},
            "steps": [["table", "$in", "--format", "csv"], ["gpus", "$in", "--format", "csv"],
                      ["history", "$in", "--format", "csv"]]}]}
JSON
}

echo "membench-report: $report"
echo "rows: $rows a file, templates from ${packed:-$source}; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-8s %-28s %7s %7s %7s %8s %7s %6s  %s\n' layout command arguments "best s" "med s" "cpu s" "peak MB" "x file" \
  "cpu/$(nproc)" target
failed=0

# measure LAYOUT COMMAND ARGUMENTS...: one row of the table.
measure() {
  local layout=$1 label=$2
  shift 2
  local walls=() best=999999 best_cpu="" peak=0
  local over=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -v -o time.txt timeout "$limit" "$report" "$@" >/dev/null 2>stderr.txt || {
      local rc=$?
      [ "$rc" -ne 124 ] || over=">"
      [ "$rc" -le 1 ] || [ "$rc" -eq 124 ] || { echo "report_perf: '$label $*' exited $rc:" >&2; cat stderr.txt >&2; exit 1; }
    }
    local wall cpu rss
    wall=$(awk -F': ' '/Elapsed/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' time.txt)
    cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' time.txt)
    rss=$(awk -F': ' '/Maximum resident/ {print $2}' time.txt)
    walls+=("$wall")
    if awk -v a="$wall" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$wall best_cpu=$cpu; fi
    [ "$rss" -gt "$peak" ] && peak=$rss
    [ -z "$over" ] || break  # one run past the limit says enough
  done
  local median ratio missed=()
  median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
  ratio=$(awk -v p="$peak" -v s="$size" 'BEGIN {print p * 1024 / s}')
  awk -v w="$best" 'BEGIN {exit !(w >= 1)}' && missed+=(time)
  awk -v r="$ratio" 'BEGIN {exit !(r > 2)}' && missed+=(memory)
  local verdict=pass
  [ ${#missed[@]} -eq 0 ] || { verdict="FAIL (${missed[*]})"; failed=$((failed + 1)); }
  local args="$*"
  printf '%-9s %-8s %-28s %7s %7.2f %7.2f %8d %7.2f %6.2f  %s\n' "$layout" "$label" "${args:0:28}" "$over$best" "$median" \
    "$best_cpu" $((peak / 1024)) "$ratio" "$(awk -v c="$best_cpu" -v n="$(nproc)" 'BEGIN {print c / n}')" "$verdict"
}

for layout in ${layouts//,/ }; do
  mkdir -p "$work/$layout"
  cd "$work/$layout"
  make_files "$layout"
  size=$(stat -c %s base.json)
  echo "$layout: $((size / 1000000)) MB a file"
  measure "$layout" table table base.json --format csv
  measure "$layout" gpus gpus base.json --format csv
  measure "$layout" builds builds base.json cg.json --format csv
  measure "$layout" compare compare base.json new.json --format md
  measure "$layout" compare compare base.json base.json --format md
  measure "$layout" history history base.json new.json --format csv
  measure "$layout" views views views
  cd "$work"
  rm -rf "${work:?}/$layout"
done
echo "$failed command(s) missed a target"
