#!/usr/bin/env bash
# Stops the daemons tests/slurm/start_local_slurm.sh DIR started (munged is left running).
dir=$(realpath -m "${1:?usage: stop_local_slurm.sh DIR}")
for daemon in slurmd slurmctld; do
  [ -s "$dir/run/$daemon.pid" ] && kill "$(cat "$dir/run/$daemon.pid")" 2>/dev/null
done
exit 0
