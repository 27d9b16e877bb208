#!/usr/bin/env bash
# Starts a one-node Slurm on this machine for tests/llsim/test_slurm.py (CI runs it as root):
# munged, slurmctld and slurmd on localhost, state and logs under DIR. Prints the line to export.
# usage: tests/slurm/start_local_slurm.sh DIR        stop: tests/slurm/stop_local_slurm.sh DIR
set -euo pipefail
dir=$(realpath -m "${1:?usage: start_local_slurm.sh DIR}")
[ "$(id -u)" -eq 0 ] || { echo "start_local_slurm.sh: must run as root (munged and slurmd)" >&2; exit 1; }
mkdir -p "$dir"/{state,spool,log,run}
host=$(hostname -s)
cpus=$(nproc)
memory_mib=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))

# munge: a key owned by the munge user, its runtime directory, the daemon as that user.
if [ ! -s /etc/munge/munge.key ]; then
  mungekey -c -k /etc/munge/munge.key >&2
fi
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge && chown munge:munge /run/munge /var/log/munge /var/lib/munge
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged >&2

cat > "$dir/slurm.conf" <<CONF
ClusterName=llsim-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
NodeName=$host CPUs=$cpus RealMemory=$memory_mib State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" >&2
slurmd -f "$SLURM_CONF" >&2
for _ in $(seq 60); do
  if sinfo -h -o %t 2>/dev/null | grep -q idle; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 1
done
echo "start_local_slurm.sh: the node did not become idle within 60 s; logs in $dir/log" >&2
sinfo >&2 || true
exit 1
