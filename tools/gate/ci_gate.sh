#!/usr/bin/env bash
# tools/gate/ci_gate.sh REPORT BASELINE NEW [COMPARE OPTIONS...]: the CI regression gate.
#   REPORT    the membench-report binary
#   BASELINE  a membench JSON file, or a folder of them (several runs of the baseline: their
#             run-to-run spread counts in every verdict)
#   NEW       a JSON file, or a folder of them (several runs of the candidate)
# Compares NEW against BASELINE (membench-report compare; its options after NEW, e.g.
# --threshold 3 or --unsure fail), writes the Markdown to $GITHUB_STEP_SUMMARY when set and
# to $MEMBENCH_GATE_MD when set, prints the verdict lines, and exits as compare does:
# 0 no regression, 1 a regression, 2 unusable input (a benchmark missing or errored on
# either side unless --allow-missing, a malformed file, a bad option; also a REPORT that is
# no executable file, either Markdown path naming an input file, the REPORT program or no
# regular file (a folder, a FIFO), or both naming one file, before anything runs).
set -uo pipefail
if [ $# -lt 3 ]; then
  echo "usage: tools/gate/ci_gate.sh REPORT BASELINE NEW [COMPARE OPTIONS...]" >&2
  exit 2
fi
report=$1 baseline=$2 candidate=$3
shift 3
# A REPORT that does not run would end in bash's 127, no code of this gate's.
if [ ! -f "$report" ] || [ ! -x "$report" ]; then
  echo "ci_gate.sh: REPORT=$report: no membench-report there (not an executable file)" >&2
  exit 2
fi
# The Markdown is never written over (or appended to) an input: that would lose the results.
# Compared by real path (a link or ./ spelling is the same file); a folder input: each file in it.
inputs=()
for path in "$baseline" "$candidate"; do
  if [ -d "$path" ]; then
    for f in "$path"/* "$path"/.[!.]* "$path"/..?*; do
      [ -e "$f" ] && inputs+=("$(realpath -m -- "$f")")
    done
  fi
  inputs+=("$(realpath -m -- "$path")")
done
# Nor over the program the gate runs, nor this script: a typo for membench-report.md would
# replace it.
programs=("$(realpath -m -- "$report")" "$(realpath -m -- "$0")")
for var in GITHUB_STEP_SUMMARY MEMBENCH_GATE_MD; do
  [ -n "${!var:-}" ] || continue
  # A regular file or none yet: a FIFO no one reads would block the copy (the CI step hangs),
  # a folder would swallow it, a device take it unsaid.
  if [ -e "${!var}" ] && [ ! -f "${!var}" ]; then
    echo "ci_gate.sh: $var=${!var}: not a regular file (a folder, FIFO or device); nothing written" >&2
    exit 2
  fi
  out=$(realpath -m -- "${!var}")
  for f in "${inputs[@]}"; do
    if [ "$out" = "$f" ]; then
      echo "ci_gate.sh: $var=${!var}: is one of the inputs ($f); nothing written" >&2
      exit 2
    fi
  done
  for f in "${programs[@]}"; do
    if [ "$out" = "$f" ]; then
      echo "ci_gate.sh: $var=${!var}: is a program the gate runs ($f); nothing written" >&2
      exit 2
    fi
  done
done
# The step summary is appended to (earlier steps' text stays); MEMBENCH_GATE_MD is replaced:
# one file for both would lose the earlier steps' summaries.
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -n "${MEMBENCH_GATE_MD:-}" ] &&
  [ "$(realpath -m -- "$GITHUB_STEP_SUMMARY")" = "$(realpath -m -- "$MEMBENCH_GATE_MD")" ]; then
  echo "ci_gate.sh: GITHUB_STEP_SUMMARY and MEMBENCH_GATE_MD name one file ($MEMBENCH_GATE_MD): the gate's Markdown would replace the earlier steps' summary; give MEMBENCH_GATE_MD a file of its own" >&2
  exit 2
fi

# A file, or every *.json of a folder, as repeated --base/--new options.
runs() {
  local flag=$1 path=$2
  if [ -d "$path" ]; then
    local found=0
    for f in "$path"/*.json; do
      [ -e "$f" ] || continue
      printf '%s\n%s\n' "$flag" "$f"
      found=1
    done
    [ $found -eq 1 ] || { echo "ci_gate: no JSON files in $path" >&2; return 1; }
  elif [ -f "$path" ]; then
    printf '%s\n%s\n' "$flag" "$path"
  else
    echo "ci_gate: $path: no such file or folder" >&2
    return 1
  fi
}
mapfile -t base_args < <(runs --base "$baseline") && [ ${#base_args[@]} -gt 0 ] || exit 2
mapfile -t new_args < <(runs --new "$candidate") && [ ${#new_args[@]} -gt 0 ] || exit 2

md=$(mktemp)
trap 'rm -f "$md" "$md.summary"' EXIT
"$report" compare "${base_args[@]}" "${new_args[@]}" --format md -o "$md" "$@"
rc=$?
case $rc in
  0) verdict="no regression" ;;
  1) verdict="REGRESSION" ;;
  *) verdict="unusable input (exit $rc)" ;;
esac
if [ -s "$md" ]; then
  {
    echo "### membench gate: $verdict"
    echo
    cat "$md"
  } > "$md.summary"
  # Each requested copy written, or said: a folder named as the file would swallow it.
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && ! cat "$md.summary" >> "$GITHUB_STEP_SUMMARY"; then
    echo "ci_gate.sh: GITHUB_STEP_SUMMARY=$GITHUB_STEP_SUMMARY: not written" >&2; exit 2
  fi
  if [ -n "${MEMBENCH_GATE_MD:-}" ] && { [ -d "$MEMBENCH_GATE_MD" ] || ! cp -T "$md.summary" "$MEMBENCH_GATE_MD"; }; then
    echo "ci_gate.sh: MEMBENCH_GATE_MD=$MEMBENCH_GATE_MD: not written (a folder, or not writable)" >&2; exit 2
  fi
  grep -E '^- [0-9]+ compared|^- geometric mean|^- unusable' "$md" || true
  rm -f "$md.summary"
fi
echo "ci_gate: $verdict"
exit $rc
