#!/usr/bin/env bash
# tools/run/gpu_session.sh BUNDLE WORK PHASE...: one GPU-machine session over a bundle
# (cmake --build <dir> --target bundle), every result and log under WORK (pack it up
# afterwards: a lent machine returns few files). Never changes clocks or settings: it
# only reads them. Phases:
#   info                        nvidia-smi, CPU count, the libraries found
#   tests                       the GPU unit tests (membench_gpu_tests)
#   sass                        check_sass.sh on the three builds
#   suite:EXE:TIER[:FLAGS]      EXE --suite=TIER into WORK/EXE_TIER[_N].json, with its summary;
#                               FLAGS comma-separated (e.g. --keep-samples=200)
#   run:EXE:NAME:FILTER[:FLAGS] a filtered run into WORK/NAME[_N].json, with its summary (NAME: a
#                               plain file name, no / and no leading .; FILTER not empty)
#   peers:TIER                  the peer matrix of every GPU pair alone (--peers-only) into
#                               WORK/peers_TIER[_N].json (_2, _3 for a second, never over the first)
#   p2p_check                   membench_p2p_check against membench's peer rows (p2p_agree.py, 5 %)
#   ncu                         tools/ncu/ncu_validate.py (membench vs ncu, ~2 us to ~10 ms)
#   demos                       the fault and Ctrl-C demonstrations
# RUN_LIMIT (each run's time limit, timeout's duration, not 0; default per phase, 400 to 580 s).
# Exit: 2 without BUNDLE and WORK (a usage line), for a BUNDLE that is no folder, a RUN_LIMIT
# that is no duration, a WORK it cannot make or write, an unknown phase (one short of its fields
# too), tests, p2p_check, ncu or demos given twice, or a NAME or TIER that is no plain file name
# (before any phase runs); else 0, each phase's exit in its log line.
set -u
if [ $# -lt 2 ] || [ -z "$1" ] || [ -z "$2" ]; then
  echo "usage: gpu_session.sh BUNDLE WORK PHASE... (phases: see the head of $0)" >&2
  exit 2
fi
bundle=$1 work=$2
shift 2
# No bundle: every phase would fail in its log (127) and the session still end 0.
[ -d "$bundle" ] || { echo "gpu_session: BUNDLE '$bundle' is no folder (cmake --build <dir> --target bundle makes it)" >&2; exit 2; }
# RUN_LIMIT is timeout's duration: text there makes every run fail at once (timeout's 125), and
# timeout reads 0 as no limit at all (a hung run would hold the lent machine): a digit not 0.
if [ -n "${RUN_LIMIT:-}" ] && ! { [[ $RUN_LIMIT =~ ^[0-9]{1,6}(\.[0-9]{1,3})?[smhd]?$ ]] && [[ $RUN_LIMIT == *[1-9]* ]]; }; then
  echo "gpu_session: RUN_LIMIT='$RUN_LIMIT' is no duration (seconds, or a number with s, m, h or d: 580, 10m; not 0)" >&2
  exit 2
fi
# A NAME, EXE or TIER becomes a file name under WORK: one with / or .. would write outside it
# (and a leading . would hide the result). Every phase is checked before the first one runs.
plain_name() {  # plain_name WHAT VALUE: exits 2 unless VALUE is a plain file name
  case $2 in
    "" | .* | */* | *..*)
      echo "gpu_session: $1 '$2' is not a plain file name (no /, no .., no leading .)" >&2
      exit 2
      ;;
  esac
}
# A typo'd phase would run nothing, and one short of its fields (run:EXE:NAME without FILTER) a
# run nobody asked for, and the session still end 0 on a lent machine.
unknown() { echo "gpu_session: unknown phase '$1'${2:+ ($2)} (phases: see the head of $0)" >&2; exit 2; }
declare -A once=()
for phase in "$@"; do
  case $phase in
    suite:*:*) spec=${phase#suite:}; plain_name EXE "${spec%%:*}"; spec=${spec#*:}; plain_name TIER "${spec%%:*}";;
    suite:*) unknown "$phase" "suite:EXE:TIER[:FLAGS]" ;;
    run:*:*:?*) spec=${phase#run:}; plain_name EXE "${spec%%:*}"; spec=${spec#*:}; plain_name NAME "${spec%%:*}"
      filter=${spec#*:}  # as the phase reads it: FLAGS after the last ':--'
      case $filter in *:--*) filter=${filter%:*};; esac
      [ -n "$filter" ] || unknown "$phase" "no FILTER: run:EXE:NAME:FILTER[:FLAGS]" ;;
    run:*) unknown "$phase" "no FILTER: run:EXE:NAME:FILTER[:FLAGS]" ;;
    peers:*) plain_name TIER "${phase#peers:}";;
    info | sass) ;;
    # Their files have no number: a second one would replace the first's.
    tests | p2p_check | ncu | demos)
      [ -z "${once[$phase]:-}" ] || { echo "gpu_session: phase '$phase' given twice: its second run would replace the first's files" >&2; exit 2; }
      once[$phase]=1 ;;
    *) unknown "$phase" ;;
  esac
done
# The bundle's layout (cmake --install --component bundle): programs in bin/, the GPU checks
# in libexec/membench/; a bundle made before that layout has everything in one folder.
bin=$bundle/bin checks=$bundle/libexec/membench
[ -x "$bin/membench" ] || bin=$bundle checks=$bundle
here=$(cd "$(dirname "$0")" && pwd)
export PYTHONPATH="$here/../../python${PYTHONPATH:+:$PYTHONPATH}"  # the membench package the scripts import
# The CUDA toolkit's own libraries (cuBLAS, CUPTI, nvperf) do not travel in the bundle:
# use this machine's (the same CUDA major version).
for lib in libcublas.so.13 libcupti.so.13 libnvperf_host.so; do
  found=$(find /usr/local/cuda/ /usr/local/cuda-13*/ /usr/lib/x86_64-linux-gnu/ -name "$lib" 2>/dev/null | head -n 1)
  if [ -n "$found" ]; then LD_LIBRARY_PATH="$(dirname "$found")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"; export LD_LIBRARY_PATH; else echo "gpu_session: $lib not found"; fi
done
# Every phase writes under WORK: without it each would fail on its own and the session
# still end 0.
if ! mkdir -p "$work" 2>/dev/null || [ ! -d "$work" ] || [ ! -w "$work" ]; then
  echo "gpu_session: WORK '$work' is not a folder it can make and write" >&2
  exit 2
fi
# Milliseconds since the epoch as an integer: mawk (Debian's default awk) prints a number
# this large as 1.79667e+12, which $(( )) cannot read.
ms() { date +%s%3N; }

# fresh NAME: NAME, else NAME_2, NAME_3, ...: the first with no result or log in WORK, so that a
# phase given again (or a WORK used before) never replaces an earlier run's files.
fresh() {
  local name=$1 n=1
  while [ -e "$work/$name.json" ] || [ -e "$work/$name.log" ]; do n=$((n + 1)); name=${1}_$n; done
  printf '%s\n' "$name"
}

run_membench() {  # run_membench EXE OUTNAME TIMEOUT ARGS...
  local exe=$1 name=$2 limit=$3
  shift 3
  local start rc
  start=$(ms)
  timeout "$limit" "$bin/$exe" --benchmark_out="$work/$name.json" --benchmark_out_format=json "$@" \
    >"$work/$name.log" 2>&1
  rc=$?
  local wall=$(( $(ms) - start ))
  echo "$name ($exe $*): exit $rc, wall $wall ms"
  grep -E "^membench:" "$work/$name.log" | head -5
  [ -s "$work/$name.json" ] && python3 "$here/suite_summary.py" "$work/$name.json" "$(awk "BEGIN{print $wall/1000}")"
}

for phase in "$@"; do
  echo "=== $phase ($(date -u +%H:%M:%S))"
  case $phase in
    info)
      nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu,ecc.mode.current,persistence_mode --format=csv
      nproc; echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"; command -v ncu cuobjdump compute-sanitizer
      "$bin/membench" --list-devices
      ;;
    tests)
      "$checks/membench_gpu_tests" >"$work/gpu_tests.log" 2>&1
      echo "membench_gpu_tests: exit $?"; grep -E "^\[  (FAILED|PASSED)|cycles|us per launch|blocking" "$work/gpu_tests.log"
      ;;
    sass)
      for pair in membench:default membench_ca:ca membench_cg:cg; do
        "$checks/check_sass.sh" "$bin/${pair%%:*}" "${pair##*:}" 2>&1 | tee -a "$work/sass.log"
        echo "check_sass ${pair##*:}: exit ${PIPESTATUS[0]}"
      done
      ;;
    suite:*)
      spec=${phase#suite:}; exe=${spec%%:*}; spec=${spec#*:}; tier=${spec%%:*}; flags=""
      [ "$spec" != "$tier" ] && flags=${spec#*:}
      name=$(fresh "${exe}_${tier}")
      # shellcheck disable=SC2086
      MEMBENCH_SUITE_PART=${SUITE_PART:-} run_membench "$exe" "$name" "${RUN_LIMIT:-580}" --suite="$tier" --progress=always ${flags//,/ }
      ;;
    run:*)
      spec=${phase#run:}; exe=${spec%%:*}; spec=${spec#*:}; name=${spec%%:*}; filter=${spec#*:}; flags=""
      case $filter in *:--*) flags=${filter##*:}; filter=${filter%:*};; esac
      name=$(fresh "$name")
      # shellcheck disable=SC2086
      run_membench "$exe" "$name" "${RUN_LIMIT:-500}" --benchmark_filter="$filter" ${flags//,/ }
      ;;
    peers:*)
      tier=${phase#peers:}
      run_membench membench "$(fresh "peers_$tier")" "${RUN_LIMIT:-580}" --peers-only --suite="$tier" --progress=always
      ;;
    p2p_check)
      run_membench membench p2p_membench "${RUN_LIMIT:-400}" --peers-only --suite=default --min-time=0.5 \
        --benchmark_filter='^peer/(copy|sm|all_to_one|one_to_all)/.*bytes:64M|^peer/latency/'
      timeout 300 "$checks/membench_p2p_check" --sizes=64M --chains=1M,1G >"$work/p2p_check.csv" 2>"$work/p2p_check.log"
      echo "membench_p2p_check: exit $?"
      python3 "$here/p2p_agree.py" "$work/p2p_membench.json" "$work/p2p_check.csv" | tee "$work/p2p_agree.txt"
      echo "p2p_agree: exit ${PIPESTATUS[0]}"
      ;;
    ncu)
      timeout 560 python3 "$here/../ncu/ncu_validate.py" "$bin" "$work" >"$work/ncu_validate.log" 2>&1
      echo "ncu_validate: exit $?"; cat "$work/ncu_validate.md" 2>/dev/null || tail -20 "$work/ncu_validate.log"
      ;;
    demos)
      t=$here/../tests
      "$t/fault_demo.sh" "$bin/membench" "$work/fault_demo.json" "$t/check_rows.cmake" >"$work/fault_demo.log" 2>&1
      echo "fault demo: exit $?"; grep -E "error row|timed rows|fresh process" "$work/fault_demo.log"
      "$t/interrupt_demo.sh" "$bin/membench" "$work/interrupt_demo.json" "$t/check_rows.cmake" >"$work/interrupt_demo.log" 2>&1
      echo "interrupt demo: exit $?"; grep -E "timed rows|stopped by" "$work/interrupt_demo.log"
      ;;
  esac
done
# Each phase said its exit above: the session itself ran them all.
exit 0
