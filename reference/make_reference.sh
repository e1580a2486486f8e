#!/usr/bin/env bash
# reference/make_reference.sh REPORT EVALUATE [OUT]: the node check's reference and its
# evidence, from the committed runs, into OUT (default reference/):
#   node_check.json  what a lone node's check is judged against by default (membench-check;
#                    installed as share/membench/reference/node_check.json): per model, build
#                    and board part (the fleet strata) of three GPUs or more, each level row's
#                    healthy centre and spread (REPORT: membench-report fleet --by=level);
#   fleet.json       the same GPUs' quick-tier reference, every row, grouped by family: what
#                    judges a fleet too small to judge itself (membench-report fleet
#                    --model-reference; installed as share/membench/reference/fleet.json);
#   sources.md       the GPUs behind each stratum, by UUID, and their runs;
#   evaluation.md    the check's false alarms and sensitivity per level on the same runs, each
#                    GPU left out of the reference it is judged by (EVALUATE:
#                    membench-check-evaluate).
# The runs: reports/fleet/'s quick-tier sets and check-tier runs (the check's rows are the same
# rows, measured alike). A stratum with four GPUs or more of check runs is judged on every
# check row, against its check runs alone; the others on the rows the quick tier shares
# (EXCLUDE below: the rest only the check tier runs), from both (reference/check_strata.py).
# The four files are made in a temporary folder and moved into OUT together once every step
# succeeded and each of the four in OUT can be replaced (absent or a regular file, OUT a
# writable folder): a failed run leaves OUT's earlier files whole. Exit 2 when REPORT finds the
# runs unusable or OUT or one of its four files cannot be replaced, else non-zero when a step
# fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
usage="usage: make_reference.sh REPORT EVALUATE [OUT]"
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "make_reference.sh: $usage" >&2; exit 2; }
# An empty argument (an unset variable in a caller's script) names nothing: an empty OUT must
# not mean the default, the checkout's committed reference/.
names=("REPORT is empty: it names no program" "EVALUATE is empty: it names no program" "OUT is empty: it names no folder")
for ((k = 1; k <= $#; k++)); do
  [ -n "${!k}" ] || { echo "make_reference.sh: ${names[k-1]}; $usage" >&2; exit 2; }
done
# absolute WHAT PATH: PATH made absolute, or exit 2 naming it (under set -e a failing realpath
# would end the script with 1, a step's failure). -- : a relative -o is a folder, no option.
absolute() { realpath -- "$2" 2>/dev/null || { echo "make_reference.sh: $1 $2: no such file or folder" >&2; exit 2; }; }
report=$(absolute REPORT "$1") || exit 2
evaluate=$(absolute EVALUATE "$2") || exit 2
out=$(absolute OUT "${3:-$here}") || exit 2
targets=(node_check.json fleet.json sources.md evaluation.md)
staged=()
work=$(mktemp -d)
trap 'rm -rf "$work"; [ ${#staged[@]} = 0 ] || rm -f "${staged[@]}"' EXIT
new="$work/new"
mkdir "$new"
fail() { echo "make_reference.sh: $*" >&2; exit 1; }
[ -d "$out" ] || { echo "make_reference.sh: $out: no such folder" >&2; exit 2; }
# replaceable: each of the four in OUT absent or a regular file, OUT writable; else exit 2 with
# OUT as it was (a folder in one's place would take the new file inside it, beside three new).
replaceable() {
  local f
  [ -w "$out" ] || { echo "make_reference.sh: $out: not writable; its files left as they were" >&2; exit 2; }
  for f in "${targets[@]}"; do
    if [ -e "$out/$f" ] || [ -L "$out/$f" ]; then
      [ -f "$out/$f" ] || { echo "make_reference.sh: $out/$f: not a regular file, cannot be replaced; the four files move together, none moved" >&2; exit 2; }
    fi
  done
}
replaceable
# membench-report fleet: the file its --baseline-out writes, then its other arguments. It exits
# 0, 1, 3 or 4 with a verdict on the GPUs, the reference written all the same; 2 when the runs
# are unusable. Any other exit, or no reference written, is a failure too.
fleet() {
  local made=$1 rc=0
  shift
  "$report" fleet "$@" --baseline-out="$made" 2>"$work/stderr" || rc=$?
  case $rc in
    0|1|3|4) ;;
    2) cat "$work/stderr" >&2; exit 2 ;;
    *) cat "$work/stderr" >&2; fail "$report fleet exited $rc" ;;
  esac
  [ -s "$made" ] || { cat "$work/stderr" >&2; fail "$report fleet exited $rc but wrote no $(basename "$made")"; }
}
# Level rows of the check tier that the quick tier does not run.
EXCLUDE='global/latency/load:plain/spacing:128/bytes:32M|cache/l2_bandwidth/bytes:32M|cluster/dsm_bandwidth/cluster:2|host/copy/dir:d2h/'
# rows_of [EXCLUDE]: the check tier's rows but peer rows (a lone GPU has none) and EXCLUDE's, as
# one regular expression.
rows_of() {
  grep -v '^peer/' "$root/tests/data/benchmark_list_check.txt" | sed 's|/manual_time$||' | grep -Ev "${1:-^$}" |
    sed 's/[.]/[.]/g' | paste -sd '|'
}
keep=$(rows_of "$EXCLUDE")
every=$(rows_of)
cd "$root"
for archive in reports/fleet/h100/*.tar.xz reports/fleet/h100/newcomers/*.tar.xz \
               reports/fleet/h100/check/*.tar.xz reports/fleet/h200/*.tar.xz; do
  # The check runs apart: the quick tier's reference is made without them. Matched on the path
  # inside the repository: a clone under a folder named check is no check run.
  tier=quick
  case $archive in reports/fleet/h100/check/*) tier=check ;; esac
  dir="$work/$tier/$(basename "$(dirname "$archive")")_$(basename "$archive" .tar.xz)"
  mkdir -p "$dir"
  tar xJf "$archive" -C "$dir" 2> "$work/tar.err" ||
    { cat "$work/tar.err" >&2; echo "make_reference.sh: $archive: not a readable .tar.xz (a Git LFS pointer? fetch it)" >&2; exit 2; }
done
fleet "$work/shared.json" "$work/quick" "$work/check" --by=level --allow-mixed --filter="^($keep)(/|$)" \
  --format=md -o "$work/report.md"
# Every check row from the check runs alone: no stratum with three GPUs of them is no reference
# (an empty one), anything else fleet refuses is.
checked() {
  local rc=0
  "$report" fleet "$work/check" --by=level --allow-mixed --filter="^($every)(/|$)" --format=md -o "$work/checked.md" \
    --baseline-out="$work/checked.json" 2>"$work/stderr" || rc=$?
  case $rc in
    0|1|3|4) [ -s "$work/checked.json" ] || fail "$report fleet exited $rc but wrote no reference of the check runs" ;;
    2) grep -q 'no stratum has' "$work/stderr" || { cat "$work/stderr" >&2; exit 2; }; : > "$work/checked.json" ;;
    *) cat "$work/stderr" >&2; fail "$report fleet exited $rc" ;;
  esac
}
checked
fleet "$new/fleet.json" "$work/quick" --allow-mixed --format=md -o "$work/quick.md"
"$evaluate" "$work/quick" "$work/check" --filter="^($keep)(/|$)" > "$work/evaluation.raw" ||
  fail "$evaluate exited $?: no evaluation.md"
# An exit 0 with nothing written is no evaluation: the last one stays.
[ -s "$work/evaluation.raw" ] || fail "$evaluate exited 0 but wrote nothing: no evaluation.md"
: > "$work/evaluation_checked.raw"
if [ -s "$work/checked.json" ]; then
  # No stratum of four GPUs there (three make a reference, not one to leave a GPU out of): none.
  "$evaluate" "$work/check" --filter="^($every)(/|$)" > "$work/evaluation_checked.raw" 2>"$work/stderr" ||
    { grep -q 'no stratum has four' "$work/stderr" || fail "$evaluate exited on the check runs: $(cat "$work/stderr")"
      : > "$work/evaluation_checked.raw"; }
fi
PYTHONPATH="$here/../python${PYTHONPATH:+:$PYTHONPATH}" python3 "$here/check_strata.py" "$work/shared.json" "$work/checked.json" "$work/evaluation.raw" \
  "$work/evaluation_checked.raw" "$new/node_check.json" "$work/evaluation.merged" || fail "check_strata.py failed"
python3 - "$new/node_check.json" "$new/fleet.json" "$report" > "$new/sources.md" <<'PY' || fail "sources.md could not be written"
import json, os, sys


def reference(path):
    """The reference REPORT wrote: an object whose fleets each have their stratum, GPUs and rows;
    anything else stops here with a line (REPORT exits 0 but its file is no reference)."""
    name = os.path.basename(path)
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"make_reference.sh: {name} from {sys.argv[3]} is no JSON: {e}")
    fleets = d.get("fleets") if isinstance(d, dict) else None
    if not isinstance(fleets, list) or not fleets:
        sys.exit(f"make_reference.sh: {name} from {sys.argv[3]} holds no fleets: not a reference")
    for f in fleets:
        try:  # what the tables below read of it
            f["gpu_name"], f["stratum"]["gpu_board_part"][0], f["stratum"]["gpu_vbios"][0], len(f["rows"])
            ok = all((g["uuid"], g["runs"]) for g in f["gpus"])
        except (KeyError, TypeError, IndexError):
            ok = False
        if not ok:
            sys.exit(f"make_reference.sh: {name} from {sys.argv[3]} has a fleet without its GPU name, stratum, GPUs or rows")
    return d


b = reference(sys.argv[1])
quick = reference(sys.argv[2])
print("# The references: their GPUs\n")
print("Made by `reference/make_reference.sh`: `fleet.json` (the quick tier) holds these strata:\n")
print("| GPU | board part | VBIOS | GPUs | rows |\n|---|---|---|---:|---:|")
for f in quick["fleets"]:
    s = f["stratum"]
    print(f"| {f['gpu_name']} | {s['gpu_board_part'][0]} | {s['gpu_vbios'][0]} | {len(f['gpus'])} | {len(f['rows'])} |")
print("\n`node_check.json` (the check's level rows): per stratum, the GPUs whose runs")
print("(reports/fleet/) made it, and how many runs each.\n")
for f in b["fleets"]:
    s = f["stratum"]
    print(f"## {f['gpu_name']}, board part {s['gpu_board_part'][0]}, VBIOS {s['gpu_vbios'][0]}: {len(f['gpus'])} GPUs, {len(f['rows'])} rows\n")
    print("| GPU | runs |\n|---|---:|")
    for g in f["gpus"]:
        print(f"| {g['uuid']} | {g['runs']} |")
    print()
PY
# The temporary folder's name taken out as text, not as a pattern (it may hold | or &).
python3 -c 'import sys; w = sys.argv[1] + "/"; sys.stdout.write(open(sys.argv[2]).read().replace(w, ""))' \
  "$work" "$work/evaluation.merged" > "$new/evaluation.md" || fail "evaluation.md could not be written"
# Checked again (OUT may have changed meanwhile), then copied beside the targets first (a move
# from the temporary folder can be a copy across file systems that stops half-way), and only
# then renamed over them, one file each, never into a folder.
replaceable
for f in "${targets[@]}"; do
  staged+=("$out/.$f.make_reference.$$")
  cp "$new/$f" "${staged[-1]}" || fail "could not copy $f into $out: its files left as they were"
done
for i in "${!targets[@]}"; do
  mv -T -f "${staged[i]}" "$out/${targets[i]}"
done
staged=()
echo "make_reference.sh: $out/: node_check.json, fleet.json, sources.md and evaluation.md from $(find "$work/quick" "$work/check" -name '*.json' | wc -l) runs"
