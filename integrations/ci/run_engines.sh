#!/usr/bin/env bash
# integrations/ci/run_engines.sh [--report=PATH] [--work=DIR] [--parts=LIST] [--installed=PREFIX]: the engines that fleets run,
# really run, on a machine without a GPU. Only the GPU is a test double: membench_standin
# replays recorded membench JSON for the GPU it is given (four GPUs of one node, the last one
# made 10 % slower). Parts, each skipped with its reason only where what it needs cannot be
# installed (Debian's slurm-wlm and munge; ReFrame and kubernetes-validate from PyPI):
#   local       integrations/slurm/run_local.sh: the array's task body per GPU, then the fleet report
#   slurm       a one-node Slurm (slurmctld, slurmd, munged started here, four fake GPUs in
#               gres.conf); submit.sh's three shapes (array, node, srun) with their fleet jobs
#   slurm-healthcheck  membench_healthcheck.sh on that Slurm: a slow GPU drains the node with a
#               reason naming GPU, level and deficit, a healthy check resumes it, an operator's
#               drain stays; then the same run by slurmd as its HealthCheckProgram; promtool
#               checks the metrics it writes
#   reframe     membench_check.py under the local scheduler and on the Slurm partition (--distribute)
#   kubernetes  the manifests against the Kubernetes API schema (offline); the Jobs' containers
#               run here as the kubelet would run them
# --report: membench-report (default build/ci/bin, else build/dev/bin); --work: build/engines;
# --parts: the parts to run, comma-separated (default all; those not named are not counted);
# --installed: run what a `cmake --install` put under PREFIX (its membench-report, membench-check,
# integrations, Python package and references) instead of the source tree's.
# Needs root for Slurm (daemons, device nodes) and apt-get. Exit: 0 every part passed or was
# skipped, 1 a part failed, 2 no membench-report.
set -uo pipefail
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the tree
cd "$(dirname "$0")/../.." || exit 2
repo=$PWD
report='' work=build/engines parts="local slurm slurm-healthcheck reframe kubernetes" installed=''
for arg in "$@"; do
  case $arg in
    --report=*) report=${arg#*=} ;;
    --work=*) work=${arg#*=} ;;
    --installed=*) installed=$(realpath -m -- "${arg#*=}") ;;
    --parts=*) parts=${arg#*=}; parts=${parts//,/ } ;;
    *) echo "run_engines.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done
# What the engines run: the source tree's, or with --installed a `cmake --install` prefix's
# (bin/, share/membench/: the integrations, the Python package, the references), as a site
# runs them. integrations/ci/ (the stand-ins, the checks) is CI's own and stays here.
if [ -n "$installed" ]; then
  share="$installed/share/membench"
  [ -d "$share/integrations" ] && [ -d "$share/python/membench" ] ||
    { echo "run_engines.sh: $installed is no membench install prefix (no share/membench/)" >&2; exit 2; }
  integrations="$share/integrations" package="$share/python" references="$share/reference"
  membench_check="$installed/bin/membench-check"
  [ -n "$report" ] || report="$installed/bin/membench-report"
else
  integrations="$repo/integrations" package="$repo/python" references="$repo/reference"
  membench_check="$repo/tools/run/membench-check"
fi
# The membench package for every script here and what the engines run: the checks, the
# stand-in, ReFrame's test and configuration (Slurm jobs and the replayed pods inherit it).
export PYTHONPATH="$package${PYTHONPATH:+:$PYTHONPATH}"
for r in "$report" build/ci/bin/membench-report build/dev/bin/membench-report; do
  [ -n "$r" ] && [ -x "$r" ] && { report=$(realpath "$r"); break; }
done
[ -x "$report" ] || { echo "run_engines.sh: no membench-report (build it, or --report=PATH)" >&2; exit 2; }
if [ -d "$work" ] && [ -n "$(ls -A "$work")" ] && [ ! -e "$work/.engines-work" ]; then
  echo "run_engines.sh: $work is not empty and not a folder of this script's (no .engines-work)" >&2; exit 2
fi
mkdir -p "$work" && work=$(realpath "$work") && touch "$work/.engines-work"
fleet_exit=1                   # the fleet report's exit code: the stand-in's slowed GPU is an outlier
standin="$work/standin"        # membench, membench_ca, membench_cg -> the stand-in; recordings/
standin8="$work/standin8"      # eight GPUs, for the Kubernetes Job's eight pods
check="python3 $repo/integrations/ci/check_engines.py"
say() { printf 'engines: %s\n' "$*"; }
started=$SECONDS passed=0 failed=0 skipped=0

part() {  # part NAME FUNCTION: runs it, counts it; the function returns 77 to skip
  local name=$1 t0=$SECONDS code
  [[ " $parts " == *" $name "* ]] || return 0
  say "--- $name"
  "$2"
  code=$?
  case $code in
    0) passed=$((passed + 1)); say "$name: passed ($((SECONDS - t0)) s)" ;;
    77) skipped=$((skipped + 1)); say "$name: skipped ($((SECONDS - t0)) s)" ;;
    *) failed=$((failed + 1)); say "$name: FAILED ($((SECONDS - t0)) s)" ;;
  esac
}

make_standin() {  # make_standin DIR GPUS: the programs' names linked to the stand-in, and its GPUs
  rm -rf "$1" && mkdir -p "$1"
  for b in membench membench_ca membench_cg; do ln -s "$repo/integrations/ci/membench_standin" "$1/$b"; done
  python3 "$repo/integrations/ci/make_recordings.py" "$1/recordings" --gpus="$2"
}

local_part() {
  local root="$work/local" dir code
  rm -rf "$root"
  MEMBENCH_BIN=$standin MEMBENCH_REPORT=$report MEMBENCH_RESULTS_ROOT=$root MEMBENCH_BUILDS="membench membench_cg" \
    bash "$integrations/slurm/run_local.sh" 0 1 2 3 >"$work/local.log" 2>&1
  code=$?
  grep -E '^(membench task [0-9]+ of|membench fleet:|run_local.sh:)' "$work/local.log" | sed 's/^/  /'
  dir=$(find "$root" -mindepth 1 -maxdepth 1 -name 'membench-local-*' | head -n 1)
  say "run_local.sh exit $code (want $fleet_exit: the fleet report's); log $work/local.log"
  $check tasks "$dir" "$standin/recordings" "membench membench_cg" --scheduler=none &&
    $check fleet "$dir" "$standin/recordings" && [ "$code" = "$fleet_exit" ] || return 1
  cp "$dir/reframe-references.json" "$work/references.json"
  # A bad MEMBENCH_RUNS is refused before anything runs: exit 2, the reason on stderr.
  MEMBENCH_BIN=$standin MEMBENCH_RESULTS_ROOT=$root MEMBENCH_RUN_ID=bad MEMBENCH_TASK=0 MEMBENCH_RUNS=0 \
    bash "$integrations/slurm/membench_array.sbatch" >/dev/null 2>"$work/runs0.err"
  code=$?
  say "MEMBENCH_RUNS=0: exit $code (want 2), $(cat "$work/runs0.err")"
  [ "$code" = 2 ] || return 1
  return 0
}

# shellcheck source=integrations/ci/slurm_cluster.sh
source "$repo/integrations/ci/slurm_cluster.sh"

slurm_submit() {  # slurm_submit MODE [RUNS [BUILDS [FILTER]]]: submit.sh as a site runs it, the stand-in as membench
  MEMBENCH_PARTITION=$slurm_partition MEMBENCH_TIME=00:10:00 MEMBENCH_GPUS=4 MEMBENCH_NODES=1 MEMBENCH_RUNS=${2:-1} \
    MEMBENCH_BIN=$standin MEMBENCH_REPORT=$report MEMBENCH_RESULTS_ROOT="$work/results" \
    MEMBENCH_BUILDS="${3:-membench membench_cg}" MEMBENCH_FILTER="${4:-}" bash "$integrations/slurm/submit.sh" "$1"
}

slurm_part() {
  slurm_install || return $?
  slurm_start || return 1
  local mode out ok=0 root="$work/results"
  declare -A job fleet
  rm -rf "$root"
  declare -A runs=([array]=1 [node]=1 [srun]=2)  # srun's tasks run each build twice (MEMBENCH_RUNS)
  for mode in array node srun; do
    out=$(slurm_submit "$mode" "${runs[$mode]}") || { echo "$out"; return 1; }
    job[$mode]=$(awk '/^membench job/ {print $3}' <<<"$out")
    fleet[$mode]=$(awk '/^fleet job/ {print $3}' <<<"$out")
    say "submit.sh $mode: membench job ${job[$mode]}, fleet job ${fleet[$mode]} (--dependency=afterany:${job[$mode]})"
  done
  # The copy and host rows again, twice, of the default build, as the README gives them more runs.
  out=$(slurm_submit node 2 membench "$(tools/gate/filter.sh host)") || { echo "$out"; return 1; }
  local host_job host_fleet
  host_job=$(awk '/^membench job/ {print $3}' <<<"$out")
  host_fleet=$(awk '/^fleet job/ {print $3}' <<<"$out")
  say "submit.sh node, the copy and host rows twice: membench job $host_job, fleet job $host_fleet"
  slurm_wait 300 "${job[@]}" "${fleet[@]}" "$host_job" "$host_fleet" || return 1
  for mode in array node srun; do
    say "slurm $mode: how the jobs ended"
    slurm_job_end "${job[$mode]}"
    slurm_job_end "${fleet[$mode]}"
    slurm_job_end "${job[$mode]}" | grep -v 'COMPLETED, exit code 0:0' && { say "a $mode task did not complete"; ok=1; }
    slurm_job_end "${fleet[$mode]}" | grep -q "FAILED, exit code $fleet_exit:0" ||
      { say "the $mode fleet job did not exit $fleet_exit"; ok=1; }
    find "$root/slurm-logs" \( -name "*-${job[$mode]}_*.out" -o -name "*-${job[$mode]}.out" \) \
      -exec grep -h 'CUDA_VISIBLE_DEVICES' {} + | sed 's/^/  /'
  done
  local dir="$root/membench-${job[array]}"
  $check tasks "$dir" "$standin/recordings" "membench membench_cg" --scheduler=array || ok=1
  $check fleet "$dir" "$standin/recordings" || ok=1
  dir="$root/membench-${job[node]}"
  $check node "$dir" "$standin/recordings" "membench membench_cg" || ok=1
  $check fleet "$dir" "$standin/recordings" || ok=1
  dir="$root/membench-${job[srun]}"
  $check tasks "$dir" "$standin/recordings" "membench membench_cg" --scheduler="srun:${job[srun]}" --runs=2 || ok=1
  $check fleet "$dir" "$standin/recordings" --runs=2 || ok=1
  slurm_job_end "$host_job" | grep -v 'COMPLETED, exit code 0:0' && { say "a copy-and-host-rows task did not complete"; ok=1; }
  # fleet over both node submissions' node folders: the default build's GPUs have 1 + 2 runs.
  "$report" fleet --allow-mixed "$root/membench-${job[node]}"/node-* "$root/membench-$host_job"/node-* \
    --format json -o "$work/joined.json" 2>"$work/joined.err"
  $check joined "$work/joined.json" "$?" "$standin/recordings" --runs=3 --build=default || { cat "$work/joined.err"; ok=1; }
  return $ok
}

healthcheck_state() {  # healthcheck_state NODE: its state, then its reason, as scontrol shows them
  scontrol show node "$1" | grep -oE '(^| )State=[^ ]+' | head -n 1 | cut -d= -f2
  scontrol show node "$1" | sed -n 's/^ *Reason=//p'
}

healthcheck_wait() {  # healthcheck_wait NODE PATTERN SECONDS: until the node's state matches
  local deadline=$((SECONDS + $3)) state
  while :; do
    state=$(healthcheck_state "$1" | head -n 1)
    [[ $state =~ $2 ]] && return 0
    [ $SECONDS -ge $deadline ] && { say "node $1 is $state after $3 s (want $2)"; return 1; }
    sleep 1
  done
}

healthcheck_run() {  # healthcheck_run MUTATE: the health check as an operator or a prolog runs it
  echo "$1" > "$work/hc/mutate"
  MEMBENCH_HEALTHCHECK_CONF="$work/hc/conf" bash "$integrations/slurm/membench_healthcheck.sh"
}

# The node check as Slurm's health check, under the real slurmctld and slurmd: the check stand-in
# replays an H100's committed check runs (DRAM made 20 % slower, or not), membench-check and
# membench-report are real.
healthcheck_part() {
  if [ -z "${SLURM_CONF:-}" ] || ! sinfo -h >/dev/null 2>&1; then  # run alone (--parts)
    slurm_install || return $?
    slurm_start || return 1
  fi
  local node hc="$work/hc" ok=0 code slow="slow ^global/(read|write|copy)/.*bytes:1G|latency/.*bytes:1G"
  node=$(hostname -s)
  rm -rf "$hc" && mkdir -p "$hc/runs" "$hc/bin"
  tar xJf reports/fleet/h100/check/2026-12-07_1gpu_865f7762.tar.xz -C "$hc/runs"
  ln -s "$repo/integrations/ci/check_standin" "$hc/bin/membench"
  ln -s "$report" "$hc/bin/membench-report"
  cat >"$hc/conf" <<CONF
export MEMBENCH_CHECK=$membench_check
export MEMBENCH_CHECK_ARGS="--runs=4 --bin=$hc/bin --baseline=$references/node_check.json"
export MEMBENCH_METRICS=$hc/node.prom MEMBENCH_NODE=$node SLURM_CONF=$SLURM_CONF
export CHECK_RUNS=$hc/runs CHECK_STATE=$hc/state CHECK_MUTATE_FILE=$hc/mutate PYTHONPATH=$package
CONF
  healthcheck_run "$slow"; code=$?
  say "health check, DRAM 20 % slower: exit $code (want 1); node $(healthcheck_state "$node" | paste -sd' ')"
  [ "$code" = 1 ] && healthcheck_state "$node" | tail -n 1 | grep -q '^membench: GPU-865f7762 DRAM slower +2' || ok=1
  sinfo -R -h -o '  sinfo -R: %n %t "%E"' -n "$node"
  if command -v promtool >/dev/null; then
    promtool check metrics <"$hc/node.prom" && say "promtool check metrics: the health check's metrics pass" || ok=1
    grep -E '^membench_(level_healthy\{[^}]*level="dram"|check_exit_code)' "$hc/node.prom" | sed 's/^/  /'
  else
    say "promtool not installed: the metrics are not checked"
  fi
  healthcheck_run none; code=$?
  say "health check, healthy: exit $code (want 0); node $(healthcheck_state "$node" | paste -sd' ')"
  [ "$code" = 0 ] && healthcheck_wait "$node" '^(IDLE|MIXED|ALLOCATED)$' 10 || ok=1
  # An operator's drain is theirs: a check, failing or passing, leaves it and its reason.
  scontrol update nodename="$node" state=drain reason="disk replacement"
  healthcheck_run "$slow" >/dev/null 2>&1; healthcheck_run none >/dev/null 2>&1
  healthcheck_state "$node" | tail -n 1 | grep -q '^disk replacement' && say "an operator's drain stays as it was" || ok=1
  scontrol update nodename="$node" state=resume
  # slurmd itself runs it: HealthCheckProgram, every 2 s, until the node is drained, then resumed.
  printf '#!/bin/bash\nMEMBENCH_HEALTHCHECK_CONF=%s exec bash %s\n' "$hc/conf" "$integrations/slurm/membench_healthcheck.sh" >"$hc/program"
  chmod +x "$hc/program"
  cp "$SLURM_CONF" "$hc/slurm.conf.before"
  printf 'HealthCheckProgram=%s\nHealthCheckInterval=2\nHealthCheckNodeState=ANY\n' "$hc/program" >>"$SLURM_CONF"
  echo "$slow" > "$hc/mutate"
  scontrol reconfigure
  healthcheck_wait "$node" 'DRAIN' 60 && say "slurmd's health check drained $node: $(healthcheck_state "$node" | tail -n 1)" || ok=1
  echo none > "$hc/mutate"
  healthcheck_wait "$node" '^(IDLE|MIXED|ALLOCATED)$' 60 && say "slurmd's health check resumed $node" || ok=1
  cp "$hc/slurm.conf.before" "$SLURM_CONF" && scontrol reconfigure
  return $ok
}

venv_with() {  # venv_with PACKAGE==VERSION [PIP-OPTIONS/MORE PACKAGES...]: the engines' venv has it, else 77
  local venv="$work/venv" log="$work/venv.log"
  [ -x "$venv/bin/pip" ] || python3 -m venv "$venv" >>"$log" 2>&1 || /usr/bin/python3 -m venv "$venv" >>"$log" 2>&1 ||
    { say "SKIP: no Python venv here (python3-venv; log: $log)"; return 77; }
  "$venv/bin/pip" show -q "${1%%==*}" >/dev/null 2>&1 && return 0
  say "pip install $*"
  "$venv/bin/pip" install -q "$@" >>"$log" 2>&1 || { say "SKIP: pip could not install $1 from PyPI (log: $log)"; return 77; }
}

# ReFrame without its optional analytics (polars, 50 MB: results storage and performance
# comparisons, which the test does not use), as the GPU machines carry it: its other
# requirements (reframe-hpc 4.10.4's metadata) named one by one.
reframe_packages=(reframe-hpc==4.10.4 'archspec>=0.2.4' 'argcomplete~=3.6' 'clustershell~=1.9' 'fasteners~=0.20'
  'jinja2~=3.1' 'jsonschema~=4.26' 'lxml~=6.0' 'pyyaml~=6.0' 'requests~=2.33' 'semver~=3.0' 'tabulate~=0.10')
reframe_install() {
  venv_with "${reframe_packages[0]}" --no-deps || return $?
  "$work/venv/bin/pip" show -q jsonschema >/dev/null 2>&1 || venv_with "${reframe_packages[@]:1}"
}

reframe_quoted() {  # reframe_quoted DIR WORD FILE: every job script under DIR has WORD; FILE was never made
  local script n=0
  while IFS= read -r script; do
    n=$((n + 1))
    grep -qF -- "$2" "$script" || { say "$script: no $2"; return 1; }
  done < <(find "$1" -name rfm_job.sh)
  [ "$n" -gt 0 ] && [ ! -e "$3" ] || { say "no job script, or extra_args ran as a command ($3)"; return 1; }
  say "reframe: extra_args with blanks and ';' one quoted word in $n job scripts, nothing run"
}

run_reframe() {  # run_reframe NAME REFRAME-OPTIONS...: membench_check.py over the stand-in
  local name=$1 code refs=() injected="$work/reframe/INJECTED"
  shift
  [ -s "$work/references.json" ] && refs=(-S references="$work/references.json")
  mkdir -p "$work/reframe/$name"
  # extra_args with blanks and ';', which must reach membench as one option and run nothing.
  (cd "$work/reframe/$name" && HOME="$work/reframe/home" RFM_COLORIZE=n "$work/venv/bin/reframe" \
    -C "$integrations/reframe/config/ci.py" -c "$integrations/reframe/membench_check.py" "$@" \
    -S membench_dir="$standin" -S "extra_args=--benchmark_context='note=a b; touch $injected'" "${refs[@]}" \
    -r --prefix="$work/reframe/$name" --report-file="$work/reframe/$name/report.json" >"$work/reframe/$name.log" 2>&1)
  code=$?
  grep -E '^\[ *(OK|FAIL|SKIP) *\]|^\[ *(PASSED|FAILED) *\]' "$work/reframe/$name.log" | sed 's/^/  /'
  say "reframe on $name: exit $code (1: a test failed); log $work/reframe/$name.log"
  $check reframe "$work/reframe/$name/report.json" "$standin/recordings" &&
    reframe_quoted "$work/reframe/$name" "'--benchmark_context=note=a b; touch $injected'" "$injected"
}

reframe_part() {
  reframe_install || return $?
  if [ ! -s "$work/references.json" ]; then
    say "no reframe-references.json (the local part failed)"; return 1
  fi
  rm -rf "$work/reframe" && mkdir -p "$work/reframe/home"
  local ok=0
  run_reframe local --system=membenchci:local || ok=1
  if [ -n "${SLURM_CONF:-}" ] && sinfo -h >/dev/null 2>&1; then
    MEMBENCH_CI_PARTITION=$slurm_partition run_reframe slurm --system=membenchci:slurm --distribute=all || ok=1
  else
    say "reframe on Slurm: not run (the slurm part did not bring Slurm up)"
  fi
  return $ok
}

kubernetes_part() {
  venv_with kubernetes-validate==1.37.0 || return $?
  local k="$integrations/kubernetes" ok=0 v py="$work/venv/bin/python"
  for v in 1.33.0 1.37.0; do  # 1.33: backoffLimitPerIndex is GA
    "$work/venv/bin/kubernetes-validate" --strict -k "$v" "$k"/*.yaml || ok=1
  done
  # The validator must refuse what the API server would: a misspelt field.
  sed 's/^  completionMode: Indexed/  completionMod: Indexed/' "$k/membench-job.yaml" >"$work/misspelt-job.yaml"
  if "$work/venv/bin/kubernetes-validate" --strict --quiet "$work/misspelt-job.yaml" >/dev/null 2>&1; then
    say "kubernetes-validate accepted a misspelt field"; ok=1
  else
    say "kubernetes-validate refuses a misspelt field (completionMod), as it should"
  fi
  "$py" "$repo/integrations/ci/check_engines.py" k8s-static "$k" || ok=1
  rm -rf "$work/k8s"
  "$py" "$repo/integrations/ci/check_engines.py" k8s-replay "$k" "$standin8" "$report" "$work/k8s" || ok=1
  return $ok
}

slurm_stop  # daemons a run before this one left, by its pid files
find "$work" -mindepth 1 -maxdepth 1 ! -name venv ! -name venv.log ! -name .engines-work -exec rm -rf {} +
trap slurm_stop EXIT
say "membench-report: $report; work: $work; integrations: $integrations"
make_standin "$standin" 4 && make_standin "$standin8" 8 || exit 1
part local local_part
part slurm slurm_part
part slurm-healthcheck healthcheck_part
part reframe reframe_part
part kubernetes kubernetes_part
say "$((SECONDS - started)) s in all"
echo "engines: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
