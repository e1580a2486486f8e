#!/usr/bin/env bash
# membench_npd.sh: the node check as a node-problem-detector custom plugin (membench-plugin.json
# beside it). It runs membench-check and answers in the plugin's convention: exit 0 (OK) when
# every GPU and level is within its reference, 1 (NonOK) when a GPU is slow or failing, the
# check undecided or a host slow, 2 (Unknown) when the check gave no verdict (also an exit 0
# without a single level judged within or faster: nothing was judged) or a setting is one the
# check would refuse (it is not run); its one line of output (at most 200 bytes,
# node-problem-detector's max_output_length) is the condition's message: "membench:
# GPU-865f7762 DRAM slower +20.07 %". Settings from the environment, as in the DaemonSet's
# container, read as the Slurm health check reads them: MEMBENCH_CHECK (a path, or a name looked
# up on PATH; default membench-check on PATH, else the source tree's), MEMBENCH_CHECK_ARGS (its
# options, split on blanks and line breaks, never globbed; quotes keep a blank in one),
# MEMBENCH_METRICS (a .prom file for node_exporter). The line holds no terminal control
# characters: kubectl describe shows it on a terminal.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# printable and first_bytes: text from the check made safe for a condition's message; the
# settings' readers check_path and check_words.
# shellcheck source-path=SCRIPTDIR source=../../slurm/node_check_text.sh
. "$here/../../slurm/node_check_text.sh" || { echo "membench: $here/../../slurm/node_check_text.sh: not found"; exit 2; }
# node-problem-detector's default max_output_length (membench-plugin.json): npd would cut a
# longer line at that byte, perhaps inside a character; cut here at a character boundary.
MAX_OUTPUT=200
# say TEXT: the plugin's one line, printable and at most MAX_OUTPUT bytes.
say() { printf '%s\n' "$(printf 'membench: %s' "$1" | first_bytes "$MAX_OUTPUT")"; }
# The settings read as the Slurm health check reads them (node_check_text.sh): one the check would
# refuse before any run is the site's fault, said as no verdict (Unknown) without running it.
check_path "$here/../../../tools/run/membench-check" || { say "no verdict (a setting refused): $fault"; exit 2; }
work=$(mktemp -d) || { say "no temporary folder"; exit 2; }
trap 'rm -rf "$work"' EXIT
check_words "$work/args" || { say "no verdict (a setting refused): $fault"; exit 2; }
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
