#!/usr/bin/env bash
# run.sh [RUN_ID] | --help: one membench run on Kubernetes with kubectl's current context and namespace.
# Creates the results volume if missing, starts the Indexed Job (one pod per GPU) with
# MEMBENCH_RUN_ID=RUN_ID (default k8s-<date>-<time>), waits for it to complete, then starts
# the fleet report Job over the run's folder and prints its report. The Jobs of an earlier run
# are deleted first (their results stay on the volume). A membench Job that failed (a pod
# exited non-zero) or did not finish within MEMBENCH_K8S_TIMEOUT gets no fleet report: its
# results are not those of every GPU, or not yet written.
# RUN_ID: letters, digits, . _ - (it names the results folder), not starting with . or -, at
# most 246 characters, not empty (given empty it names no run: exit 2, no generated id);
# MEMBENCH_K8S_TIMEOUT: a kubectl duration such as 30s, 10m, 2h or 1h30m. Both are checked
# before anything is deleted or applied.
# Exit: 0 for --help; the fleet report's (0 no outlier, 1 an outlier, 2 unusable input, or a
# bad RUN_ID, argument or MEMBENCH_K8S_TIMEOUT); 3 a Job failed or did not finish, or the
# report's container ended with none of fleet's codes (137: killed or evicted).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: run.sh [RUN_ID] (default k8s-<date>-<time>); MEMBENCH_K8S_TIMEOUT (default 2h)"
case ${1:-} in -h | --help) echo "$usage"; exit 0 ;; esac
[ $# -le 1 ] || { echo "run.sh: one argument, the run id; '$2' is not taken; $usage" >&2; exit 2; }
# An empty RUN_ID (run.sh "$ID" with ID unset) names no run: no generated id in its place.
if [ $# = 1 ] && [ -z "$1" ]; then
  echo "run.sh: the run id is empty: it names no run (leave it out for k8s-<date>-<time>); $usage" >&2; exit 2
fi
run=${1:-k8s-$(date +%Y%m%d-%H%M%S)}
: "${MEMBENCH_K8S_TIMEOUT:=2h}"          # how long to wait for the GPUs' pods
# Checked before the earlier run's Jobs are deleted: a bad one found later leaves a new Job
# started that no one waits for, or a run named after an option.
[[ $run =~ ^[A-Za-z0-9_][A-Za-z0-9._-]*$ ]] ||
  { echo "run.sh: run id '$run': letters, digits, . _ - only, not starting with . or -; $usage" >&2; exit 2; }
# It names the folder membench-RUN_ID: a file system takes 255 bytes a name.
[ ${#run} -le 246 ] || { echo "run.sh: run id of ${#run} characters: at most 246 (the folder membench-RUN_ID); $usage" >&2; exit 2; }
bad_timeout="run.sh: MEMBENCH_K8S_TIMEOUT=$MEMBENCH_K8S_TIMEOUT: a duration such as 30s, 10m, 2h or 1h30m"
# At most 6 digits a part, so bash's arithmetic below cannot wrap.
[[ $MEMBENCH_K8S_TIMEOUT =~ ^([0-9]{1,6}[smh])+$ && $MEMBENCH_K8S_TIMEOUT =~ [1-9] ]] ||
  { echo "$bad_timeout" >&2; exit 2; }
within_go_duration() {  # kubectl (Go's time.ParseDuration) refuses a total over 2562047h
  local rest=$1 total=0 part
  while [[ $rest =~ ^([0-9]+)([smh])(.*)$ ]]; do
    part=$((10#${BASH_REMATCH[1]}))
    case ${BASH_REMATCH[2]} in m) part=$((part * 60)) ;; h) part=$((part * 3600)) ;; esac
    total=$((total + part)); rest=${BASH_REMATCH[3]}
    [ "$total" -le $((2562047 * 3600)) ] || return 1
  done
}
within_go_duration "$MEMBENCH_K8S_TIMEOUT" ||
  { echo "$bad_timeout, at most 2562047h in all" >&2; exit 2; }

with_run() { kubectl set env --local -o yaml -f "$1" MEMBENCH_RUN_ID="$run"; }
finished() {  # finished JOB TIMEOUT: 0 the Job completed, 1 it failed, 2 neither in the time
  kubectl wait --for=condition=complete --timeout="$2" "job/$1" >/dev/null 2>&1 &
  local ok=$! state
  kubectl wait --for=condition=failed --timeout="$2" "job/$1" >/dev/null 2>&1 &
  local failed=$!
  wait -n "$ok" "$failed"
  kill "$ok" "$failed" 2>/dev/null
  wait "$ok" "$failed" 2>/dev/null
  # The Job's conditions decide, not which wait returned first: a wait also returns when
  # its time is up or kubectl fails (no such Job, the API server unreachable).
  state=$(kubectl get "job/$1" -o 'jsonpath={range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}')
  kubectl get "job/$1" -o 'jsonpath={.status.succeeded} succeeded, {.status.failed} failed{"\n"}'
  case " $state " in
    *" Failed "*) return 1 ;;
    *" Complete "*) return 0 ;;
    *) return 2 ;;
  esac
}
fleet_by_hand="kubectl set env --local -o yaml -f $here/membench-fleet-job.yaml MEMBENCH_RUN_ID=$run | kubectl apply -f -"

kubectl apply -f "$here/membench-pvc.yaml" || exit 3
kubectl delete job membench membench-fleet --ignore-not-found
with_run "$here/membench-job.yaml" | kubectl apply -f - || exit 3
echo "run.sh: run $run: waiting for the GPUs' pods (up to $MEMBENCH_K8S_TIMEOUT)"
finished membench "$MEMBENCH_K8S_TIMEOUT"
case $? in
  0) ;;
  1) echo "run.sh: run $run: the membench Job failed (indexes $(kubectl get job/membench \
       -o 'jsonpath={.status.failedIndexes}')): no fleet report; see kubectl describe job/membench." >&2
     echo "run.sh: to judge the GPUs whose pods completed anyway: $fleet_by_hand" >&2
     exit 3 ;;
  *) echo "run.sh: run $run: the membench Job did not finish within $MEMBENCH_K8S_TIMEOUT: no fleet report" \
       "over results still being written (it goes on: kubectl get job/membench)." >&2
     exit 3 ;;
esac
with_run "$here/membench-fleet-job.yaml" | kubectl apply -f - || exit 3
# The fleet Job fails when its report finds an outlier (exit 1): finished, either way.
finished membench-fleet 30m
[ $? -le 1 ] || { echo "run.sh: the fleet report Job did not finish within 30m" >&2; exit 3; }
kubectl logs job/membench-fleet
code=$(kubectl get pods -l job-name=membench-fleet \
  -o 'jsonpath={.items[0].status.containerStatuses[0].state.terminated.exitCode}')
# Only fleet's codes are passed on: another (137 OOM-killed or evicted, 126, none) means the
# report never ran to its end, and passed on would read as run.sh itself killed by a signal.
case $code in
  0 | 1 | 2 | 3 | 4) echo "run.sh: fleet report exit $code; results on the volume under membench-$run/"; exit "$code" ;;
esac
echo "run.sh: the fleet report Job's container ended with exit ${code:-unknown}, none of fleet's codes" \
  "(137: killed, e.g. out of memory or evicted): no report; see kubectl describe job/membench-fleet." \
  "Results on the volume under membench-$run/" >&2
exit 3
