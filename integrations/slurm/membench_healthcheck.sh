#!/usr/bin/env bash
# membench_healthcheck.sh: the node check as Slurm's health check. Set in slurm.conf as
#   HealthCheckProgram=PREFIX/share/membench/integrations/slurm/membench_healthcheck.sh
#   (installed with the files beside it, which it reads: a copy takes the folder)
#   HealthCheckInterval=86400   HealthCheckNodeState=IDLE   (idle nodes, once a day: a check takes
#                                                             about 30 s of every GPU)
# or call it from a prolog or a reboot hook. slurmd runs it as root with a bare environment, so
# its settings come from a file (MEMBENCH_HEALTHCHECK_CONF, default /etc/default/membench-healthcheck,
# sourced when present, in a subshell whose variables are then taken (set -e, exit or cd in it
# cannot end or move this script); one MEMBENCH_HEALTHCHECK_CONF names must be there, and a file
# that does not source cleanly, exits as it is sourced or has CRLF line ends stops the check,
# exit 2, the node untouched) or the environment:
#   MEMBENCH_CHECK       membench-check (default: on PATH, else the install prefix's bin/); a
#                        name without a / is looked up on PATH; not a program file: exit 2
#   MEMBENCH_CHECK_ARGS  its options (--runs=4, --baseline=SITE.json, --bin=DIR, ...), split on
#                        blanks and line breaks, never globbed; quotes keep a blank in one
#                        option (--baseline="/site ref.json"); an unmatched quote, a backslash,
#                        an empty option or value (--baseline=) or an option given twice: exit 2,
#                        the node untouched
#   MEMBENCH_METRICS     a .prom file for node_exporter's textfile collector (membench-check
#                        --metrics); a folder: exit 2, the node untouched
#   MEMBENCH_NODE        this node's Slurm name (default: SLURMD_NODENAME, else hostname -s; none
#                        of them, or not one node's name (a host list such as node[1-64], a
#                        comma, a blank, a glob): exit 2, no scontrol call)
#   MEMBENCH_ON_ERROR    drain (default) or keep: what a check that gave no verdict (any exit but
#                        0, 1, 3 and 4: 2, a signal, a crash) does; another value is said, taken
#                        as drain, and the exit is 2
# A setting refused above is refused before the check runs (no scontrol call): it is the site's
# fault on every node, never a GPU's, so no node is drained for it.
# What it does: a check that finds a GPU slow or failing (exit 1), undecided (3) or a host slow
# (4) drains the node with a reason that names each GPU, level and deficit ("membench: GPU-865f7762
# DRAM slower +20.00 %"); a healthy check (0 with at least one level judged) resumes a node that
# membench drained, never one drained for another reason. A node an admin set DRAIN, DOWN or FAIL
# is left untouched, whatever the check finds (no scontrol update): its reason is the admin's
# record of why the node is out, and a drain for this GPU must never replace it. An admin's
# state is one whose Reason does not start "membench:", stamped [user@time] or not.
# A check that exits 0 having judged no level (--help in MEMBENCH_CHECK_ARGS, say) gave no verdict.
# The reason holds no terminal control characters: sinfo and scontrol show it on a terminal.
# Exit: membench-check's (a signal's 128+N as it is); 2 where it exited 0 but judged no level, a
# setting is unusable, or scontrol could not drain or resume the node as the check asked.
set -uo pipefail
# The text helpers and the reading of the settings, shared with the node-problem-detector plugin
# (node_check_text.sh, beside this script as node_check_reason.awk is: the folder installs whole).
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR source=node_check_text.sh
. "$here/node_check_text.sh" || { echo "membench_healthcheck: $here/node_check_text.sh: not found; nothing checked" >&2; exit 2; }

say() { printf 'membench_healthcheck: %s\n' "$*" >&2; }
conf=${MEMBENCH_HEALTHCHECK_CONF:-/etc/default/membench-healthcheck}
# A site's settings missing or half-read would run a check against the wrong reference (and
# resume a node on it): a config named, or present, must source whole.
if [ -n "${MEMBENCH_HEALTHCHECK_CONF:-}" ] || [ -e "$conf" ] || [ -L "$conf" ]; then
  [ -f "$conf" ] && [ -r "$conf" ] || { say "$conf: no readable config file (MEMBENCH_HEALTHCHECK_CONF); nothing checked"; exit 2; }
  # CRLF line ends (a file saved on Windows) put a carriage return into every value: the check
  # would refuse '--runs=3\r' and the node be drained for the config's fault.
  ! LC_ALL=C grep -q $'\r' "$conf" ||
    { say "$conf: has carriage returns (CRLF line ends): convert it (dos2unix); nothing checked"; exit 2; }
  "$BASH" -n "$conf" 2>/dev/null || { say "$conf: not valid shell ($("$BASH" -n "$conf" 2>&1 | head -n 1)); nothing checked"; exit 2; }
  # Sourced in a subshell, so that its set -e, exit, exec or cd cannot end this script (a silent
  # exit 0 is a prolog's pass) or change it; the subshell hands back every plain variable as
  # attributes, name and value, then "end" once the file sourced whole. Any command of it failing
  # counts (an unquoted blank in an assignment runs its rest as a command), not only the last
  # one; set -u is the script's, not the config's; the config's output goes to stderr.
  conf_vars=()
  while IFS= read -r -d '' field; do conf_vars+=("$field"); done < <(
    conf_failed=0
    trap 'conf_failed=1' ERR
    set +u
    # shellcheck source=/dev/null
    . "$conf" </dev/null >&2
    [ $? = 0 ] || conf_failed=1  # not "|| ..." on the line above: that would mute the ERR trap in it
    set +e +u
    trap - ERR
    IFS=$' \t\n'
    [ "$conf_failed" = 0 ] || { builtin printf 'failed\0'; exit 0; }
    for name in $(builtin compgen -v); do
      attrs=${!name@a}
      [[ $attrs == *[aAr]* ]] || builtin printf '%s\0%s\0%s\0' "${attrs:--}" "$name" "${!name}"
    done
    builtin printf 'end\0')
  case ${conf_vars[${#conf_vars[@]}-1]:-} in
    end) ;;
    failed) say "$conf: a line of it failed (see above); nothing checked"; exit 2 ;;
    *) say "$conf: stopped (exit, exec or set -e) before it was sourced whole; nothing checked"; exit 2 ;;
  esac
  # Its variables become this script's, exported where it exported them (the check's environment);
  # bash's own and the shell's state are not a setting.
  declare -A conf_set=()
  for ((i = 0; i + 2 < ${#conf_vars[@]}; i += 3)); do
    attrs=${conf_vars[i]} name=${conf_vars[i+1]} value=${conf_vars[i+2]}
    conf_set[$name]=1
    case $name in
      BASH* | SHELLOPTS | SHLVL | PPID | UID | EUID | GROUPS | PWD | OLDPWD | IFS | LINENO | RANDOM | SRANDOM | \
        SECONDS | EPOCHSECONDS | EPOCHREALTIME | HISTCMD | OPTIND | OPTARG | OPTERR | _ | \
        here | conf | conf_failed | conf_vars | conf_set | field | attrs | name | value | i) continue ;;
    esac
    printf -v "$name" '%s' "$value" 2>/dev/null || { say "$conf: cannot take its $name; nothing checked"; exit 2; }
    # shellcheck disable=SC2163  # the variable that $name names
    [[ $attrs == *x* ]] && export "$name"
  done
  # What it unset is unset here too (a variable of the environment it meant to clear).
  for name in $(compgen -e); do
    [[ -n ${conf_set[$name]:-} || $name == BASH* || $name == _ ]] || unset "$name" 2>/dev/null
  done
  unset conf_vars conf_set field attrs name value i
fi
# membench-check: given, on PATH, in the install prefix (share/membench/integrations/slurm/ is
# four folders below it) or in the source tree.
check_path "$here/../../../../bin/membench-check" "$here/../../tools/run/membench-check" || { say "$fault; nothing checked"; exit 2; }
node=${MEMBENCH_NODE:-${SLURMD_NODENAME:-$(hostname -s 2>/dev/null)}}
# scontrol show node '' lists every node, and update nodename= names none: no name, no check.
[ -n "$node" ] || { say "the name of this node is unknown (no MEMBENCH_NODE, no SLURMD_NODENAME, hostname -s failed): set MEMBENCH_NODE"; exit 2; }
# One node's name: scontrol takes a host list (node[1-64], a,b) or a glob as many nodes, and a
# drain for this node's GPU must never reach another; a leading dash (-node7) it reads as options.
[[ $node =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] ||
  { say "MEMBENCH_NODE/node name '$node' is not one node's name (a letter or digit, then letters, digits, . _ -): nothing checked"; exit 2; }
on_error=${MEMBENCH_ON_ERROR:-drain} bad_setting=0
case $on_error in
  drain | keep) ;;
  *) say "MEMBENCH_ON_ERROR=$on_error is neither drain nor keep: taken as drain, exit 2"
     on_error=drain bad_setting=1 ;;
esac
work=$(mktemp -d) || { say "no temporary folder: nothing checked"; exit 2; }
trap 'rm -rf "$work"' EXIT
check_words "$work/args" || { say "$fault; nothing checked"; exit 2; }

"$check" "${args[@]}" --format=csv >"$work/levels.csv" 2>"$work/err.txt"
rc=$?

# The reason: each GPU and level not within (node_check_reason.awk); without such lines, the
# exit and the check's last words.
reason_of() { awk -f "$here/node_check_reason.awk" "$work/levels.csv"; }
node_state() { scontrol show node "$node" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1; }
reason=$(reason_of)
[ -n "$reason" ] || reason="node check exit $rc: $(tail -n 1 "$work/err.txt" | first_bytes 120)"
# Exit 0 is healthy only where a level was judged within or faster: else nothing was judged.
if [ "$rc" = 0 ] && ! [[ $(awk -v what=judged -f "$here/node_check_reason.awk" "$work/levels.csv") =~ ^[1-9][0-9]*$ ]]; then
  say "the node check exited 0 but judged no level: no verdict"
  last=$(tail -n 1 "$work/err.txt" | first_bytes 100)
  rc=2 reason="node check exit 0, no level judged${last:+: $last}"
fi
reason="membench: $(printf '%s' "$reason" | printable)"
# The Reason without its " [user@time]" stamp, which slurm.conf's DownNodes and older scontrol
# leave off: an admin's reason is theirs either way.
state=$(node_state State)
current=$(scontrol show node "$node" 2>/dev/null | sed -n 's/^ *Reason=//p' | head -n 1 | sed 's/ \[[^]@]*@[^]]*\]$//')

# 0, 1, 3 and 4 are membench-check's verdicts; any other exit (2, a signal's 128+N, a crash) is none.
verdict() { case $rc in 0 | 1 | 3 | 4) return 0 ;; *) return 1 ;; esac; }
# An admin took the node out (DRAIN, DOWN or FAIL) for a reason of theirs: theirs to undo.
admin_holds() { [[ $state =~ DRAIN|DOWN|FAIL && -n $current && $current != membench:* ]]; }

if [ "$rc" = 0 ]; then
  if [[ $state == *DRAIN* && $current == membench:* ]]; then
    if scontrol update nodename="$node" state=resume; then
      say "$node resumed: the node check passed"
    else
      say "$node: the node check passed, but scontrol could not resume the node: it stays drained"; rc=2
    fi
  else
    say "$node: the node check passed"
  fi
elif ! verdict && [ "$on_error" = keep ]; then
  say "$node: no verdict ($reason); kept (MEMBENCH_ON_ERROR=keep)"
elif admin_holds; then
  say "$node: $reason; already $state for another reason ($current): left as it is"
else
  if scontrol update nodename="$node" state=drain reason="$reason"; then
    say "$node drained: $reason"
  else
    say "$node could not be drained (scontrol failed): $reason; the node stays in service"; rc=2
  fi
fi
[ "$bad_setting" = 0 ] || exit 2
exit "$rc"
