# shellcheck shell=bash disable=SC2034  # check, args and fault are what the caller reads
# node_check_text.sh: sourced by the Slurm health check beside it and by the node-problem-detector
# plugin (integrations/kubernetes/npd/): the text from the check goes where an admin reads it on a
# terminal (sinfo, kubectl describe), and both read the settings one way.

# Standard input as valid UTF-8 without terminal control. First every byte that is no part of
# a valid UTF-8 character is dropped (a lone 0x9b, 8-bit CSI, is one a terminal may honour);
# then escape sequences (colours, titles) whole, a tab or carriage return as a blank, any other
# C0 control character and DEL dropped, and the C1 control characters U+0080..U+009F (UTF-8
# c2 80..c2 9f) dropped whole. Each later step removes whole characters of valid UTF-8, so
# what is left stays valid and no new control character forms from the bytes around.
printable() {
  local esc=$'\033' bel=$'\007' c1=$'\xc2[\x80-\x9f]'
  # Without iconv (a minimal image) every byte above 0x7f goes: ASCII is valid UTF-8. iconv -c
  # exits 1 when it dropped a byte: a caller's pipefail must not take that for a failure.
  if command -v iconv >/dev/null; then iconv -c -f UTF-8 -t UTF-8 2>/dev/null || true; else LC_ALL=C tr -d '\200-\377'; fi |
    LC_ALL=C sed -E "s#$esc\[[0-?]*[ -/]*[@-~]##g; s#$esc\][^$bel$esc]*($bel|$esc\\\\)##g; s#$c1##g" |
    LC_ALL=C tr '\t\r' '  ' | LC_ALL=C tr -d '\000-\037\177'
}

# The first N bytes of standard input made printable, a multi-byte character cut at the end
# dropped: a Slurm reason and a JSON message must stay valid UTF-8.
first_bytes() { printable | head -c "$1" | { iconv -c -f UTF-8 -t UTF-8 2>/dev/null; true; }; }

# The node check's settings (MEMBENCH_CHECK, MEMBENCH_CHECK_ARGS, MEMBENCH_METRICS). The slips
# below, which the check would refuse before any run (exit 2, no verdict), are the site's fault,
# the same on every node: each is refused here, said in fault, and nothing is checked, so that
# no healthy node is drained or marked for it. A check that ran and gave no verdict is judged
# by the caller.

# check_path [FALLBACK...]: check, the membench-check that is run. MEMBENCH_CHECK a bare name is
# looked up on PATH as bash runs it (never the current folder's file of that name), a relative
# path made absolute; unset, membench-check on PATH, else the first FALLBACK there. A program file:
# a folder passes [ -x ] too, and running it (exit 126) reads as a failed check.
check_path() {
  local candidate
  check=${MEMBENCH_CHECK:-}
  if [ -z "$check" ]; then
    for candidate in "$(type -P membench-check)" "$@"; do
      [ -n "$candidate" ] && [ -f "$candidate" ] && [ -x "$candidate" ] && { check=$candidate; return 0; }
    done
    fault="no membench-check found: set MEMBENCH_CHECK"; return 2
  fi
  case $check in
    */*) [[ $check == /* ]] || check=$PWD/$check ;;
    *) check=$(type -P -- "$check") ||
         { fault="MEMBENCH_CHECK=$MEMBENCH_CHECK: no such program on PATH (a name without a / is looked up there; ./$MEMBENCH_CHECK for the current folder's)"; return 2; } ;;
  esac
  [ -f "$check" ] && [ -x "$check" ] || { fault="MEMBENCH_CHECK=$MEMBENCH_CHECK: not a program file that can be run"; return 2; }
}

# metrics_path WHAT PATH: a metrics file, not node_exporter's textfile folder itself (the
# classic slip, the same on every node).
metrics_path() {
  [ ! -d "$2" ] || { fault="$1=$2 is a folder: name a .prom file in it"; return 2; }
}

# check_words SCRATCH: args, the check's options from MEMBENCH_CHECK_ARGS then MEMBENCH_METRICS.
# Every blank and line break splits (a config or a ConfigMap may spread them over lines), quotes
# keep a blank in one word (--baseline="/site ref.json") as xargs reads them; never globbed.
# Refused: what xargs would change unsaid (an unmatched quote, a backslash, which it drops), an
# empty word ('') or value (--baseline=$UNSET), an option given twice (the check takes neither;
# --format aside, which the callers put last) and a metrics file that is a folder.
check_words() {
  local words_err word
  declare -A given=()
  args=()
  if [ -n "${MEMBENCH_CHECK_ARGS:-}" ]; then
    case $MEMBENCH_CHECK_ARGS in
      *\\*) fault="MEMBENCH_CHECK_ARGS has a backslash, which the split would drop: quote the option instead"; return 2 ;;
    esac
    words_err=$(printf '%s\n' "$MEMBENCH_CHECK_ARGS" | xargs -r printf '%s\0' 2>&1 >"$1") ||
      { fault="MEMBENCH_CHECK_ARGS cannot be read as options (${words_err#xargs: })"; return 2; }
    while IFS= read -r -d '' word; do args+=("$word"); done <"$1"
  fi
  for word in "${args[@]}"; do
    [ -n "$word" ] || { fault="MEMBENCH_CHECK_ARGS has an empty option ('' or \"\")"; return 2; }
    case $word in
      --*=) fault="MEMBENCH_CHECK_ARGS has $word with no value (a variable of the config unset?)"; return 2 ;;
      --format=*) continue ;;
      --*=*) [ -z "${given[${word%%=*}]:-}" ] || { fault="MEMBENCH_CHECK_ARGS has ${word%%=*} twice: give it once"; return 2; }
             given[${word%%=*}]=1 ;;
    esac
    case $word in --metrics=*) metrics_path "MEMBENCH_CHECK_ARGS' --metrics" "${word#*=}" || return 2 ;; esac
  done
  [ -n "${MEMBENCH_METRICS:-}" ] || return 0
  [ -z "${given[--metrics]:-}" ] || { fault="MEMBENCH_METRICS and MEMBENCH_CHECK_ARGS' --metrics: give one"; return 2; }
  metrics_path MEMBENCH_METRICS "$MEMBENCH_METRICS" && args+=(--metrics="$MEMBENCH_METRICS")
}
