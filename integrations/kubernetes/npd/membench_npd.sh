#!/usr/bin/env bash
# membench_npd.sh: the node check as a node-problem-detector custom plugin (membench-plugin.json
# beside it). It runs membench-check and answers in the plugin's convention: exit 0 (OK) when
# every GPU and level is within its reference, 1 (NonOK) when a GPU is slow or failing, the
# check undecided or a host slow, 2 (Unknown) when the check gave no verdict (also an exit 0
# without a single level judged within or faster: nothing was judged); its one line of
# output (at most 200 bytes, node-problem-detector's max_output_length) is the condition's message:
# "membench: GPU-865f7762 DRAM slower +20.07 %". Settings from the environment, as in the
# DaemonSet's container: MEMBENCH_CHECK (default membench-check on PATH), MEMBENCH_CHECK_ARGS
# (its options, split on blanks and line breaks, never globbed), MEMBENCH_METRICS (a .prom file
# for node_exporter). The line holds no terminal control characters: kubectl describe shows it
# on a terminal.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# printable and first_bytes: text from the check made safe for a condition's message.
# shellcheck source=../../slurm/node_check_text.sh
. "$here/../../slurm/node_check_text.sh" || { echo "membench: $here/../../slurm/node_check_text.sh: not found"; exit 2; }
# node-problem-detector's default max_output_length (membench-plugin.json): npd would cut a
# longer line at that byte, perhaps inside a character; cut here at a character boundary.
MAX_OUTPUT=200
# say TEXT: the plugin's one line, printable and at most MAX_OUTPUT bytes.
say() { printf '%s\n' "$(printf 'membench: %s' "$1" | first_bytes "$MAX_OUTPUT")"; }
check=${MEMBENCH_CHECK:-$(command -v membench-check)}
[ -n "$check" ] && [ -x "$check" ] || { say "no membench-check (set MEMBENCH_CHECK)"; exit 2; }
work=$(mktemp -d) || { say "no temporary folder"; exit 2; }
trap 'rm -rf "$work"' EXIT
# The options as words, as the Slurm health check reads them: every blank and line break splits
# (a ConfigMap's value may span lines), quotes keep a blank in one word, never globbed; an
# unmatched quote, a backslash (xargs drops it) or an empty word is refused, not run.
args=()
if [ -n "${MEMBENCH_CHECK_ARGS:-}" ]; then
  case $MEMBENCH_CHECK_ARGS in *\\*) say "MEMBENCH_CHECK_ARGS has a backslash: quote the option instead"; exit 2 ;; esac
  words_err=$(printf '%s\n' "$MEMBENCH_CHECK_ARGS" | xargs -r printf '%s\0' 2>&1 >"$work/args") ||
    { say "MEMBENCH_CHECK_ARGS cannot be read as options (${words_err#xargs: })"; exit 2; }
  while IFS= read -r -d '' word; do
    [ -n "$word" ] || { say "MEMBENCH_CHECK_ARGS has an empty option"; exit 2; }
    args+=("$word")
  done <"$work/args"
fi
[ -n "${MEMBENCH_METRICS:-}" ] && args+=(--metrics="$MEMBENCH_METRICS")
"$check" "${args[@]}" --format=csv >"$work/levels.csv" 2>"$work/err.txt"
rc=$?
reason=$(awk -f "$here/../../slurm/node_check_reason.awk" "$work/levels.csv" | printable)
# Exit 0 is OK only where a level was judged within or faster: else nothing was judged.
if [ "$rc" = 0 ] && ! [[ $(awk -v what=judged -f "$here/../../slurm/node_check_reason.awk" "$work/levels.csv") =~ ^[1-9][0-9]*$ ]]; then
  last=$(tail -n 1 "$work/err.txt" | first_bytes 80)
  say "no verdict (exit 0, no level judged)${last:+: $last}"; exit 2
fi
case $rc in
  0) say "every GPU and level within its reference"; exit 0 ;;
  1 | 3 | 4) say "${reason:-node check exit $rc}"; exit 1 ;;
  *) say "no verdict (exit $rc): $(tail -n 1 "$work/err.txt" | first_bytes 100)"; exit 2 ;;
esac
