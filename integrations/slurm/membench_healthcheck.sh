#!/usr/bin/env bash
# membench_healthcheck.sh: the node check as Slurm's health check. Set in slurm.conf as
#   HealthCheckProgram=/usr/libexec/membench/membench_healthcheck.sh   (where you install it)
#   HealthCheckInterval=86400   HealthCheckNodeState=IDLE   (idle nodes, once a day: a check takes
#                                                             about 30 s of every GPU)
# or call it from a prolog or a reboot hook. slurmd runs it as root with a bare environment, so
# its settings come from a file (MEMBENCH_HEALTHCHECK_CONF, default /etc/default/membench-healthcheck,
# sourced when present) or the environment:
#   MEMBENCH_CHECK       membench-check (default: on PATH, else the install prefix's bin/)
#   MEMBENCH_CHECK_ARGS  its options (--runs=4, --baseline=SITE.json, --bin=DIR, ...), split on blanks
#   MEMBENCH_METRICS     a .prom file for node_exporter's textfile collector (membench-check --metrics)
#   MEMBENCH_NODE        this node's Slurm name (default: SLURMD_NODENAME, else hostname -s)
#   MEMBENCH_ON_ERROR    drain (default) or keep: what a check that gave no verdict (exit 2) does
# What it does: a check that finds a GPU slow or failing (exit 1), undecided (3) or a host slow
# (4) drains the node with a reason that names each GPU, level and deficit ("membench: GPU-865f7762
# DRAM slower +20.00 %"); a healthy check (0) resumes a node that membench drained, never one
# drained for another reason; an admin's drain is never overwritten. Exit: membench-check's.
set -uo pipefail
conf=${MEMBENCH_HEALTHCHECK_CONF:-/etc/default/membench-healthcheck}
# shellcheck source=/dev/null
[ -r "$conf" ] && . "$conf"
here=$(cd "$(dirname "$0")" && pwd)
say() { printf 'membench_healthcheck: %s\n' "$*" >&2; }
# membench-check: given, on PATH, in the install prefix (share/membench/integrations/slurm/ is
# four folders below it) or in the source tree.
check=${MEMBENCH_CHECK:-}
for candidate in "$(command -v membench-check)" "$here/../../../../bin/membench-check" "$here/../../tools/run/membench-check"; do
  [ -z "$check" ] && [ -n "$candidate" ] && [ -x "$candidate" ] && check=$candidate
done
[ -n "$check" ] && [ -x "$check" ] || { say "no membench-check found: set MEMBENCH_CHECK"; exit 2; }
node=${MEMBENCH_NODE:-${SLURMD_NODENAME:-$(hostname -s)}}
read -r -a args <<<"${MEMBENCH_CHECK_ARGS:-}"
[ -n "${MEMBENCH_METRICS:-}" ] && args+=(--metrics="$MEMBENCH_METRICS")
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

"$check" "${args[@]}" --format=csv >"$work/levels.csv" 2>"$work/err.txt"
rc=$?

# The reason: each GPU and level not within (node_check_reason.awk); without such lines, the
# exit and the check's last words.
reason_of() { awk -f "$here/node_check_reason.awk" "$work/levels.csv"; }
node_state() { scontrol show node "$node" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1; }
reason=$(reason_of)
[ -n "$reason" ] || reason="node check exit $rc: $(tail -n 1 "$work/err.txt" | cut -c1-120)"
reason="membench: $reason"
state=$(node_state State) current=$(scontrol show node "$node" 2>/dev/null | sed -n 's/^ *Reason=\(.*\) \[.*$/\1/p')

if [ "$rc" = 0 ]; then
  if [[ $state == *DRAIN* && $current == membench:* ]]; then
    scontrol update nodename="$node" state=resume && say "$node resumed: the node check passed"
  else
    say "$node: the node check passed"
  fi
elif [ "$rc" = 2 ] && [ "${MEMBENCH_ON_ERROR:-drain}" = keep ]; then
  say "$node: no verdict ($reason); kept (MEMBENCH_ON_ERROR=keep)"
elif [[ $state == *DRAIN* && -n $current && $current != membench:* ]]; then
  say "$node: $reason; already drained for another reason ($current): left as it is"
else
  scontrol update nodename="$node" state=drain reason="$reason" && say "$node drained: $reason"
fi
exit "$rc"
