# shellcheck shell=bash disable=SC2154  # $work comes from run_engines.sh
# slurm_cluster.sh (sourced by run_engines.sh): a one-node Slurm cluster on this machine, for
# CI. Debian's packages; the daemons started by hand (a container has no init to start them):
# munged (unless one answers already), slurmctld and slurmd as root. The node declares four
# GPUs (gres.conf File= four character devices made here, nothing behind them) and select/
# cons_tres hands them out; no accounting, no cgroups (proctrack/linuxproc, task/none), so no
# systemd is needed. Everything lives under $work/slurm; SLURM_CONF points the clients there.
# Uses $work and say() from run_engines.sh.

slurm_partition=${MEMBENCH_CI_PARTITION:-ci}
slurm_started=()   # pid files of the daemons started here, stopped at exit

slurm_install() {  # returns 77 with the reason where the packages cannot be had
  local pkgs=(slurmctld slurmd slurm-client munge) missing=()
  for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    say "SKIP slurm: ${missing[*]} not installed and apt-get not usable here (run as root on Debian/Ubuntu)"
    return 77
  fi
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$work/apt-slurm.log" 2>&1 ||
    { apt-get update -qq >>"$work/apt-slurm.log" 2>&1 &&
      apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$work/apt-slurm.log" 2>&1; } ||
    { say "SKIP slurm: apt-get could not install ${missing[*]} (log: $work/apt-slurm.log)"; return 77; }
}

slurm_write_config() {  # slurm_write_config DIR NODE
  local dir=$1 node=$2
  cat >"$dir/etc/slurm.conf" <<EOF
ClusterName=membenchci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.log
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
MpiDefault=none
ReturnToService=2
MinJobAge=600
SlurmdParameters=config_overrides
NodeName=$node NodeAddr=127.0.0.1 CPUs=8 Boards=1 SocketsPerBoard=1 CoresPerSocket=8 ThreadsPerCore=1 RealMemory=1000 Gres=gpu:4 State=UNKNOWN
PartitionName=$slurm_partition Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  # Four GPUs: device nodes with NVIDIA's major number, nothing behind them.
  echo "NodeName=$node Name=gpu File=$dir/dev/fakenvidia[0-3]" >"$dir/etc/gres.conf"
}

munge_start() {
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then say "munged: already running"; return 0; fi
  [ -s /etc/munge/munge.key ] || { mungekey --create 2>/dev/null || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null; }
  chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge /var/log/munge /var/lib/munge && chown munge:munge /run/munge /var/log/munge /var/lib/munge
  runuser -u munge -- /usr/sbin/munged || return 1
  slurm_started+=(/run/munge/munged.pid)
  for _ in $(seq 20); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return 0; sleep 0.5; done
  return 1
}

slurm_start() {
  local dir="$work/slurm" node state
  node=$(hostname -s)
  slurm_stop
  rm -rf "$dir" && mkdir -p "$dir"/{etc,state,spool,run,log,dev}
  for i in 0 1 2 3; do
    mknod "$dir/dev/fakenvidia$i" c 195 "$i" 2>/dev/null || touch "$dir/dev/fakenvidia$i"
  done
  slurm_write_config "$dir" "$node"
  export SLURM_CONF="$dir/etc/slurm.conf"
  munge_start || { say "munged did not start"; return 1; }
  slurmctld -c -f "$SLURM_CONF" && slurm_started+=("$dir/run/slurmctld.pid") || return 1
  slurmd -f "$SLURM_CONF" && slurm_started+=("$dir/run/slurmd.pid") || return 1
  for _ in $(seq 60); do
    state=$(sinfo -h -n "$node" -o %t 2>/dev/null)
    [ "$state" = idle ] && { say "slurm: node $node idle, partition $slurm_partition, gres $(sinfo -h -o %G)"; return 0; }
    sleep 1
  done
  say "slurm: node $node is '$state' after 60 s"; scontrol show node "$node"; tail -n 20 "$dir"/log/*.log
  return 1
}

slurm_stop() {  # the daemons this script started, by their pid files
  local f pid
  for f in "${slurm_started[@]}" "$work/slurm/run/slurmd.pid" "$work/slurm/run/slurmctld.pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null && for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  done
  slurm_started=()
}

slurm_wait() {  # slurm_wait SECONDS JOBID...: until none of the jobs is pending or running
  local deadline=$((SECONDS + $1)) ids
  shift
  ids=$(IFS=,; echo "$*")
  while [ -n "$(squeue -h -j "$ids" 2>/dev/null)" ]; do
    [ $SECONDS -ge $deadline ] && { say "slurm: jobs $ids still queued:"; squeue; return 1; }
    sleep 1
  done
}

slurm_job_end() {  # slurm_job_end JOBID: how the job (or each of its array tasks) ended
  awk -v id="$1" '{
    delete f; for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
    if (f["JobId"] == id || f["ArrayJobId"] == id)
      printf "  job %s%s: %s, exit code %s\n", f["JobId"], f["ArrayTaskId"] != "" ? " (array task " f["ArrayTaskId"] ")" : "",
        f["JobState"], f["ExitCode"]
  }' "$work/slurm/log/jobcomp.log"
}
