#!/usr/bin/env bash
# run.sh [RUN_ID]: one membench run on Kubernetes with kubectl's current context and namespace.
# Creates the results volume if missing, starts the Indexed Job (one pod per GPU) with
# MEMBENCH_RUN_ID=RUN_ID (default k8s-<date>-<time>), waits for it to finish, then starts the
# fleet report Job over the run's folder and prints its report. The Jobs of an earlier run
# are deleted first (their results stay on the volume).
# Exit: the fleet report's (0 no outlier, 1 an outlier, 2 unusable input); 3 a Job did not finish.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
run=${1:-k8s-$(date +%Y%m%d-%H%M%S)}
: "${MEMBENCH_K8S_TIMEOUT:=2h}"          # how long to wait for the GPUs' pods

with_run() { kubectl set env --local -o yaml -f "$1" MEMBENCH_RUN_ID="$run"; }
finished() {  # waits for a Job to complete or fail
  kubectl wait --for=condition=complete --timeout="$2" "job/$1" >/dev/null 2>&1 &
  local ok=$!
  kubectl wait --for=condition=failed --timeout="$2" "job/$1" >/dev/null 2>&1 &
  local failed=$!
  wait -n "$ok" "$failed"
  kill "$ok" "$failed" 2>/dev/null
  kubectl get "job/$1" -o 'jsonpath={.status.succeeded} succeeded, {.status.failed} failed{"\n"}'
}

kubectl apply -f "$here/membench-pvc.yaml" || exit 3
kubectl delete job membench membench-fleet --ignore-not-found
with_run "$here/membench-job.yaml" | kubectl apply -f - || exit 3
echo "run.sh: run $run: waiting for the GPUs' pods (up to $MEMBENCH_K8S_TIMEOUT)"
finished membench "$MEMBENCH_K8S_TIMEOUT" || exit 3
with_run "$here/membench-fleet-job.yaml" | kubectl apply -f - || exit 3
finished membench-fleet 30m || exit 3
kubectl logs job/membench-fleet
code=$(kubectl get pods -l job-name=membench-fleet \
  -o 'jsonpath={.items[0].status.containerStatuses[0].state.terminated.exitCode}')
echo "run.sh: fleet report exit ${code:-unknown}; results on the volume under membench-$run/"
exit "${code:-3}"
