#!/usr/bin/env bash
# A single-node Slurm for tests, from Debian's packages (apt-get install slurm-wlm munge), as root,
# with nothing under /etc touched: a munge key, a slurm.conf and every state file in one folder.
#
#   scripts/slurm-local.sh start DIR   # prints `export SLURM_CONF=DIR/slurm.conf`; waits for the node
#   scripts/slurm-local.sh stop DIR    # stops what start started, by pid
#
# Commands then need SLURM_CONF=DIR/slurm.conf in their environment (sbatch, squeue, sinfo, …).
set -euo pipefail
cmd=${1:-}; dir=${2:-}
if [[ -z "$cmd" || -z "$dir" ]]; then echo "usage: $0 start|stop DIR" >&2; exit 2; fi

stop() {
  for f in slurmd slurmctld munged; do
    if [[ -f "$dir/$f.pid" ]]; then kill "$(cat "$dir/$f.pid")" 2>/dev/null || true; fi
  done
  sleep 1
}

if [[ "$cmd" == stop ]]; then stop; exit 0; fi
[[ "$cmd" == start ]] || { echo "$0: unknown command $cmd" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "$0: needs root (slurmd runs jobs as their users)" >&2; exit 3; }
for b in munged slurmctld slurmd sinfo; do command -v "$b" >/dev/null || { echo "$0: $b not found (apt-get install slurm-wlm munge)" >&2; exit 3; }; done

mkdir -p "$dir"/{munge,state,spool,logs}
dir=$(cd "$dir" && pwd)
host=$(hostname -s)
# munge: a key of its own, its socket in DIR
if [[ ! -f "$dir/munge/munge.key" ]]; then
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
fi
chmod 700 "$dir/munge"; chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/logs/munged.log" --seed-file="$dir/munge/munge.seed"

# the node: the CPUs and memory slurmd reports, less a margin for the rest of the machine
read -r cpus mem < <(slurmd -C | awk '{for(i=1;i<=NF;i++){split($i,kv,"="); if(kv[1]=="CPUs")c=kv[2]; if(kv[1]=="RealMemory")m=kv[2]}} END{print c, m}')
mem=$(( mem > 1024 ? mem - 512 : mem ))
cat > "$dir/slurm.conf" <<CONF
ClusterName=lshdp-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/logs/slurmctld.log
SlurmdLogFile=$dir/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmctldPort=16817
SlurmdPort=16818
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld
slurmd
for _ in $(seq 1 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then echo "export SLURM_CONF=$dir/slurm.conf"; exit 0; fi
  sleep 1
done
echo "$0: the node did not come up; see $dir/logs" >&2
stop
exit 1
