"""The `tasks` phase (master-worker runtime) against hand-computed results: FCFS on identical
workers, checkpoint costs without failures, and failure accounting with a trace of outages."""
import math
import re
import os
import subprocess
import time

from harness import LLSIM, ROOT, check, check_close, finish, phase_metrics, scratch_dir


def bag(*sets, scenario="tests/inputs/tasks_fcfs_identical.yaml"):
    return phase_metrics(scenario, "bag", *sets)


# FCFS closed form: 50 tasks of 10 s on 8 workers -> 7 waves; task k ends at (k // 8 + 1) * 10 s.
m = bag()
ends = sorted((k // 8 + 1) * 10.0 for k in range(50))
check_close(m["makespan_s"], 70.0, 1e-6, "fcfs makespan")
check_close(m["mean_turnaround_s"], sum(ends) / 50, 1e-6, "fcfs mean turnaround")
check_close(m["p95_turnaround_s"], ends[math.ceil(0.95 * 50) - 1], 1e-6, "fcfs p95 turnaround")
check_close(m["worker_utilization"], 50 * 10 / (8 * 70), 1e-6, "fcfs utilization")
check(m["reexecutions"] == 0 and m["wasted_flops"] == 0, "no failures, no waste")

# A window of one task still fills every worker (events follow each other while they assign).
check_close(bag("phases.bag.scheduler={impl: fcfs, window: 1}")["makespan_s"], 70.0, 1e-6, "fcfs, window 1")
# With a period of 1 s, one task is dispatched per second: worker k starts at k s and keeps that
# offset; 50 = 6 * 8 + 2 tasks, so workers 0 and 1 run a 7th task, ending at 70 s and 71 s.
check_close(bag("phases.bag.scheduler={impl: fcfs, window: 1, period: 1s}")["makespan_s"], 71.0, 1e-6,
            "fcfs, window 1, period 1 s")

# Without failures every checkpoint policy gives the same makespan but for the checkpoint cost:
# interval 4 s on 10 s tasks -> 2 checkpoints per task, 7 tasks in a row per worker.
# local: 100 MB to a 1 GB/s disk = 0.1 s. shared: 100 MB over the 1 GB/s worker NIC (0.1 s), then
# to the 10 GB/s server disk (0.01 s); the 8 running tasks go to 8 different servers.
for policy, per_checkpoint in [("{impl: local, interval: 4s, size: 100MB, storage: scratch}", 0.1),
                               ("{impl: shared, interval: 4s, size: 100MB, storage: ckpt}", 0.11)]:
    p = bag("phases.bag.checkpoint=" + policy)
    check_close(p["makespan_s"] - 70.0, 7 * 2 * per_checkpoint, 0.01, f"checkpoint cost of {policy}")
    check(p["checkpoint_bytes"] == 50 * 2 * 100e6, f"checkpoint bytes of {policy}: {p['checkpoint_bytes']}")
    check(p["wasted_flops"] == 0, f"no waste without failures ({policy})")

# Failure accounting with a trace: worker 0 runs task 0 and is down from 50 s to 60 s; the master
# notices at 55 s; worker 0 rejoins at 60 s and FCFS gives task 0 back to it (the only free one).
# none: 50 s of work lost, task restarts at 60 s and ends at 160 s.
m = bag(scenario="tests/inputs/tasks_failure_trace.yaml")
check_close(m["wasted_flops"], 50e9, 1e-6, "none: wasted work")
check(m["reexecutions"] == 1, f"none: re-executions {m['reexecutions']}")
check_close(m["makespan_s"], 160.0, 1e-6, "none: makespan")
# local, checkpoint every 20 s of compute (1 MB, 1 ms): progress 40 GFlop saved at 40.002 s; lost
# 50 - 40.002 s of compute; worker 0 resumes from it at 60 s (reading 1 MB back, 1 ms).
LOCAL = "phases.bag.checkpoint={impl: local, interval: 20s, size: 1MB, storage: scratch}"
m = bag(LOCAL, scenario="tests/inputs/tasks_failure_trace.yaml")
check_close(m["wasted_flops"], (50 - 40.002) * 1e9, 1e-6, "local: wasted work")
check_close(m["makespan_s"], 60 + 0.001 + 60 + 2 * 0.001, 1e-6, "local: makespan")
# Worker 0 down until 500 s: task 0 goes to worker 1 at 100 s; local cannot resume there (the
# checkpoint is on worker 0), shared can.
LONG = "faults=[{group: workers, impl: trace, file: tasks_long_outage.csv}]"
long_local = bag(LOCAL, LONG, scenario="tests/inputs/tasks_failure_trace.yaml")
long_none = bag(LONG, scenario="tests/inputs/tasks_failure_trace.yaml")
long_shared = bag("phases.bag.checkpoint={impl: shared, interval: 20s, size: 1MB, storage: ckpt}", LONG,
                  scenario="tests/inputs/tasks_failure_trace.yaml")
check_close(long_none["wasted_flops"], 50e9, 1e-6, "long outage, none: wasted")
# Worker 0 computed 50 s minus its two 1 ms checkpoints before failing; all of it is lost.
check_close(long_local["wasted_flops"], (50 - 0.002) * 1e9, 1e-6,
            "long outage, local: everything before the failure is wasted")
check(long_shared["wasted_flops"] < 11e9, f"long outage, shared resumes: wasted {long_shared['wasted_flops']}")
check(long_shared["wasted_flops"] <= long_local["wasted_flops"] <= long_none["wasted_flops"],
      "wasted work: shared <= local <= none")

# Random failures with a fixed seed (exponential up times, quick returns): shared <= local <= none.
UNRELIABLE = "tests/inputs/tasks_unreliable.yaml"
wasted = {}
for name, policy in [("none", "{impl: none}"), ("local", "{impl: local, interval: 5min, size: 100MB, storage: scratch}"),
                     ("shared", "{impl: shared, interval: 5min, size: 100MB, storage: ckpt}")]:
    m = bag("phases.bag.checkpoint=" + policy, scenario=UNRELIABLE)
    wasted[name] = m["wasted_flops"]
    check(m["completed"] == 400 and m["reexecutions"] > 0, f"{name}: every task completes despite failures")
check(wasted["shared"] <= wasted["local"] <= wasted["none"], f"wasted work ordering: {wasted}")

# Workers failing every minute (exponential, 1 s down) against tasks of about 1,800 s of compute
# and no checkpoints: no attempt can finish. The run stops within seconds (it once ran for ever),
# exit 1, naming the task, its attempts and the figures, and writes nothing.
HOPELESS = ["--set", "faults.0.mtbf=1min", "--set", "faults.0.downtime=1s", "--set", "phases.bag.tasks.count=20"]


def hopeless(*sets):
    out = os.path.join(scratch_dir(), "out")
    started = time.monotonic()
    proc = subprocess.run([LLSIM, "run", UNRELIABLE, "--quiet", "--out", out, *HOPELESS, *sets],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    check(time.monotonic() - started < 60, "the hopeless bag of tasks took over a minute to stop")
    check(not os.path.exists(out), f"hopeless bag of tasks: output written to {out}")
    return proc


proc = hopeless()
check(proc.returncode == 1, f"hopeless bag of tasks: exit {proc.returncode}")
check(re.search(r"task \S+ cannot progress: \d+ attempts, the last \d+ in a row ended by a worker failure",
                proc.stderr) is not None, f"hopeless bag of tasks: {proc.stderr}")
for text in ["phase 'bag'",
             "attempts would be needed for one to get farther",
             "before the task got to a checkpoint or finished", "the workers' MTBF is 60 s", "give_up_after"]:
    check(text in proc.stderr, f"hopeless bag of tasks: message lacks {text!r}: {proc.stderr}")
# The compute an attempt needs: a task of 180 TFlop (lognormal, sigma 0.3) on a 100 GFlop/s
# worker (sigma 0.3) is about 1,800 s, far beyond the minute of an attempt.
SECONDS_PER = {"s": 1, "min": 60, "h": 3600}
needed = [float(w.split()[0]) * SECONDS_PER[w.split()[1]] for w in proc.stderr.split("an attempt needs ")[1:]]
check(len(needed) == 1 and 300 < needed[0] < 10000, f"hopeless bag of tasks: compute needed {needed}")
# Failures far faster than the master notices them (MTBF 10 s against a 2-min failure_timeout)
# make each attempt cost hours of simulated time and many failure events: the rate the attempts
# show, or the tasks bounced from failed workers' queues before they start, stop the run (it ran
# for ever).
fast = hopeless("--set", "faults.0.mtbf=10s")
check(fast.returncode == 1 and "cannot progress" in fast.stderr, f"MTBF 10 s: {fast.stderr}")
few = hopeless("--set", "phases.bag.give_up_after=10")
check(few.returncode == 1 and "the last 10 in a row" in few.stderr, f"give_up_after: {few.stderr}")
# Checkpoints every 20 s of compute on shared storage: attempts of a minute move the tasks
# forward, so the same workers finish every task, with many re-executions.
ckpt = bag("faults.0.mtbf=1min", "faults.0.downtime=1s", "phases.bag.tasks.count=20",
           "phases.bag.checkpoint={impl: shared, interval: 20s, size: 100MB, storage: ckpt}", scenario=UNRELIABLE)
check(ckpt is not None and ckpt["completed"] == 20 and ckpt["reexecutions"] > 20 * 10,
      f"checkpointed tasks progress despite failures every minute: {ckpt}")

finish()
