"""The `train` phase on the services: checkpoint I/O against tier bandwidth bounds, every I/O
parameter changing what it should, the Daly policy against its formula with the measured mean
blocking time, failure accounting by hand with a trace, failures taking node-local copies, and a
run that cannot progress stopping with the reason."""
import csv
import math
import os
import subprocess
import time

from harness import LLSIM, ROOT, check, check_close, finish, phase_metrics, run, scratch_dir, summary

SCENARIO = "tests/inputs/train_symmetric.yaml"
TOTAL_B = 20e9 * 14
TRACE = "faults=[{group: compute, impl: trace, file: train_failures.csv}]"
EVERY_100 = "phases.train.checkpoint.policy={impl: every_n, iterations: 100}"


def train(*sets):
    return phase_metrics(SCENARIO, "train", *sets)


def train_run(*sets):
    """Runs the scenario; returns its output directory."""
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    run(*args)
    return out


def service_bytes(out, service):
    """Bytes per server of a service over the run, from service_<name>.csv."""
    per_server = {}
    with open(os.path.join(out, f"service_{service}.csv")) as f:
        for row in csv.DictReader(f):
            per_server[row["server"]] = per_server.get(row["server"], 0) + float(row["bytes"])
    return per_server


# Balanced layout on the symmetric machine: the OSTs (8 GB/s writing, 9.6 GB/s reading) bound it.
m = train()
check(m["checkpoint_write_s"] >= TOTAL_B / 8e9, f"write faster than the OSTs allow: {m['checkpoint_write_s']}")
check_close(m["checkpoint_write_s"], TOTAL_B / 8e9, 0.05, "balanced write vs OST bound")
# A read request holds a forwarding thread while its OST reads it, and OSTs serve requests one
# at a time in arrival order: about 7% over the bound here.
check(m["checkpoint_read_s"] >= TOTAL_B / 9.6e9, "read faster than the OSTs allow")
check_close(m["checkpoint_read_s"], TOTAL_B / 9.6e9, 0.10, "balanced read vs OST bound")
# The phase lasts its makespan: the read, two iterations of 10 s and the checkpoint between them.
s = summary(train_run())["phases"]["train"]
check_close(s["end_s"] - s["start_s"], s["makespan_s"], 1e-12, "end_s - start_s is the makespan")
check_close(s["makespan_s"], s["checkpoint_read_s"] + 20 + s["checkpoint_write_s"], 1e-9, "makespan is read + compute + write")

# Narrow the forwarding tier (8 x 0.5 GB/s = 4 GB/s): it bounds the write and the read now. A
# forwarding thread is free as soon as its bytes reach the storage server: within 10% of it.
NARROW = "platform.groups.fwd.nic.bandwidth=500MBps"
m = train(NARROW)
check(m["checkpoint_write_s"] >= TOTAL_B / 4e9, "write faster than the forwarding tier allows")
check_close(m["checkpoint_write_s"], TOTAL_B / 4e9, 0.10, "balanced write vs forwarding bound")
check_close(m["checkpoint_read_s"], TOTAL_B / 4e9, 0.10, "balanced read vs forwarding bound")
# threads: a forwarding node relays `threads` requests at once. One relay saturates a
# forwarding node's NIC, but not when the clients are slow: at 50 MB/s per I/O process (8 per
# writer, 400 MB/s), one thread per forwarding node moves 8 x 400 MB/s = 3.2 GB/s, 16 threads
# reach the OSTs' 8 GB/s.
one_thread = train(NARROW, "services.fwd.threads=1")
check_close(one_thread["checkpoint_write_s"], m["checkpoint_write_s"], 0.02, "one relay saturates a forwarding node")
SLOW_CLIENTS = "phases.train.io.process_bandwidth=50MBps"
check_close(train(SLOW_CLIENTS, "services.fwd.threads=1")["checkpoint_write_s"], TOTAL_B / 3.2e9, 0.05,
            "one thread per forwarding node, slow clients")
check_close(train(SLOW_CLIENTS)["checkpoint_write_s"], TOTAL_B / 8e9, 0.05, "16 threads per forwarding node, slow clients")

# Naive layout: replica 0 of each of the 32 shards writes 8.75 GB in one file on one OST (2 per
# OST): bounded by the busiest OST (2 x 8.75 GB at 500 MB/s).
NAIVE = "phases.train.checkpoint.layout={impl: naive}"
shard = TOTAL_B / 32
busiest_ost = 2 * shard / 500e6
m = train(NAIVE)
check(m["checkpoint_write_s"] >= busiest_ost, f"naive faster than its busiest OST: {m['checkpoint_write_s']}")
check_close(m["checkpoint_write_s"], busiest_ost, 0.05, "naive write vs busiest OST")

# process_bandwidth bounds what one I/O process moves: at 1 MB/s a naive writer (one process)
# needs at least 8.75 GB / 1 MB/s.
m = train(NAIVE, "phases.train.io.process_bandwidth=1MBps", "phases.train.resume=false")
check(m["checkpoint_write_s"] >= shard / 1e6, f"a process moved more than 1 MB/s: {m['checkpoint_write_s']}")
check_close(m["checkpoint_write_s"], shard / 1e6, 0.01, "naive write at 1 MB/s per process")
# io_procs: 8 processes per writer at 1 MB/s each move 8 MB/s.
m = train("phases.train.checkpoint.layout={impl: balanced, even_data: false, io_procs: 8, split: false}",
          "phases.train.io.process_bandwidth=1MBps", "phases.train.resume=false")
check_close(m["checkpoint_write_s"], shard / 8e6, 0.01, "8 I/O processes at 1 MB/s each")

# split stripes files over OSTs but never moves a writer off its forwarding node (static
# mapping, 32 nodes per forwarding node): the naive writers are nodes 0-7, 64-71, 128-135 and
# 192-199, on forwarding nodes 0, 2, 4 and 6 only. The balanced mapping deals them over all 8.
SPLIT = "phases.train.checkpoint.layout={impl: balanced, even_data: false, io_procs: 1, split: true}"
static = service_bytes(train_run(SPLIT), "fwd")
check(sorted(k for k, v in static.items() if v > 0) == ["fwd-0", "fwd-2", "fwd-4", "fwd-6"],
      f"split moved writers off their forwarding nodes: {static}")
balanced = service_bytes(train_run(SPLIT, "services.fwd.mapping=balanced"), "fwd")
check(len([v for v in balanced.values() if v > 0]) == 8, f"balanced mapping uses {balanced}")
# With the forwarding tier narrow, spreading the writers over all forwarding nodes is faster.
check(train(SPLIT, NARROW, "services.fwd.mapping=balanced")["checkpoint_write_s"] <
      0.7 * train(SPLIT, NARROW)["checkpoint_write_s"], "the balanced mapping does not relieve the forwarding tier")

# stripe_count: with one writer (pure data parallelism, replica 0 writes the whole 280 GB in
# one file), striping decides how many OSTs share it: 1, 2, 4 or all 16 OSTs at 500 MB/s.
ONE_WRITER = ["phases.train.parallelism={data: 256}", "phases.train.io.process_bandwidth=100GBps",
              "phases.train.resume=false"]
for stripes, osts in [(1, 1), (2, 2), (4, 4), (0, 16)]:
    w = train(*ONE_WRITER, f"phases.train.checkpoint.layout={{impl: balanced, even_data: false, io_procs: 1, "
                           f"split: true, stripe_count: {stripes}}}")["checkpoint_write_s"]
    check_close(w, TOTAL_B / (osts * 500e6), 0.05, f"one file striped over {osts} OST(s)")

# request: the size of the simulated requests sets the pipelining; 4 GiB requests of the naive
# layout's 8.75 GB files leave the forwarding and disk stages of a file one after the other.
big = train(NAIVE, "phases.train.io.request=4GiB")["checkpoint_write_s"]
small = train(NAIVE, "phases.train.io.request=64MiB")["checkpoint_write_s"]
check(big > 1.01 * small, f"request size changes nothing: {big} vs {small}")

# read_ahead: reads in flight per stream.
check(train("phases.train.io.read_ahead=1")["checkpoint_read_s"] !=
      train("phases.train.io.read_ahead=8")["checkpoint_read_s"], "read_ahead changes nothing")

# Metadata: creates are RPCs to the metadata service, whose rates are per server whatever the
# host's cores. 2048 files at 100 creates/s on one server take at least 20.48 s.
slow = train("services.mds.ops.create=100/s", "phases.train.resume=false")
check(slow["checkpoint_write_s"] >= 2048 / 100, f"creates faster than the metadata server: {slow['checkpoint_write_s']}")
check(train("services.mds.ops.create=100/s", "phases.train.resume=false",
            "platform.groups.mds.cores=8")["checkpoint_write_s"] == slow["checkpoint_write_s"],
      "the metadata server's cores change its rate")

# io_replay: alone, `auto` measures each kind of I/O once and charges it afterwards; `always`
# runs every one through the services.
LONG = ["phases.train.iterations=300", "phases.train.checkpoint.policy={impl: every_n, iterations: 100}"]
auto = train(*LONG)
always = train(*LONG, "phases.train.checkpoint.io_replay=always")
check(auto["io_replays"] == 2 and auto["checkpoints"] == 2, f"auto replays: {auto['io_replays']}")
check(always["io_replays"] == 3, f"always replays: {always['io_replays']}")
check_close(auto["makespan_s"], always["makespan_s"], 0.01, "a charged checkpoint costs what it measured")

# keep: checkpoints kept on the file system take its capacity (16 OSTs of 40 GB: 640 GB); three
# 280 GB checkpoints do not fit when all are kept; keeping one, the previous one is removed once
# the next is written, so two fit at once.
SMALL_OSTS = "platform.groups.oss.disks.capacity=40GB"
THREE = ["phases.train.iterations=4", "phases.train.checkpoint.policy={impl: every_n, iterations: 1}",
         "phases.train.resume=false", SMALL_OSTS]
out = os.path.join(scratch_dir(), "out")
args = ["run", SCENARIO, "--quiet", "--out", out]
for s in THREE + ["phases.train.checkpoint.keep=3"]:
    args += ["--set", s]
_, _, err = run(*args, expect=1)
check("is full" in err and "oss-" in err and " do not fit (" in err and " used of " in err, f"full OSTs: {err}")
check(not os.path.exists(out), "a failed run left outputs behind")
check(train(*THREE, "phases.train.checkpoint.keep=1")["checkpoints"] == 3, "keep=1 does not free the older checkpoints")

# Daly's interval from the measured mean blocking cost and the job MTBF (1 y / 256 nodes).
FAULTS = "faults=[{group: compute, impl: exponential, mtbf: 1y, downtime: 10min}]"
m = train(FAULTS, "phases.train.checkpoint.policy={impl: daly}", "phases.train.iterations=50000")
mtbf = 365 * 86400 / 256
cost = m["checkpoint_blocking_s"]
ratio = cost / (2 * mtbf)
daly = math.sqrt(2 * cost * mtbf) * (1 + math.sqrt(ratio) / 3 + ratio / 9) - cost
check_close(m["job_mtbf_s"], mtbf, 1e-9, "job MTBF")
check_close(m["interval_s"], daly, 1e-9, "daly interval")
check_close(m["checkpoint_blocking_s"], m["blocking_s"] / m["checkpoints"], 1e-9, "C is the mean blocking time")
check(m["failures"] > 0 and m["restarts"] <= m["failures"], f"failures {m['failures']}, restarts {m['restarts']}")
check(0 < m["goodput"] < 1, f"goodput {m['goodput']}")

# Failures come from the hosts: exactly at their time (no off-by-one), never before the phase
# starts, and from streams of their own, so the iteration times do not move them.
out_a = train_run(FAULTS, "phases.train.iterations=5000", "phases.train.start=1h")
out_b = train_run(FAULTS, "phases.train.iterations=5000", "phases.train.start=1h",
                  "phases.train.iteration={dist: lognormal, mean: 10s, sigma: 0.3}")
with open(os.path.join(out_a, "train_failures.csv")) as f:
    fail_a = list(csv.DictReader(f))
with open(os.path.join(out_b, "train_failures.csv")) as f:
    fail_b = list(csv.DictReader(f))
check(len(fail_a) > 0 and all(float(r["time_s"]) >= 3600 for r in fail_a), f"failures before the phase: {fail_a[:3]}")
n = min(len(fail_a), len(fail_b))
check(n > 0 and fail_a[:n] == fail_b[:n], "iteration times moved the failures")

# Failure accounting with a trace: the job resumes (reads R), then 2000 iterations of 10 s, a
# checkpoint every 100 (blocking C each), failures at 5000 s and 12000 s (exactly), restart =
# 10 min + R.
m = train(TRACE, "phases.train.iterations=2000", EVERY_100)
C, R, delay = m["checkpoint_blocking_s"], m["checkpoint_read_s"], 600
wasted, t, done, last = 0.0, R, 0, 0  # hand replay
for failure in [5000, 12000, math.inf]:
    while done < 2000:
        nxt = min(2000, last + 100)
        finish_at = t + (nxt - done) * 10
        if finish_at > failure:
            wasted += (done - last) * 10 + failure - t
            done, t = last, failure + delay + R
            break
        t, done = finish_at, nxt
        if done < 2000:
            if t + C > failure:  # failure during the checkpoint
                wasted += (done - last) * 10
                done, t = last, failure + delay + R
                break
            t += C
            last = done
check(m["failures"] == 2 and m["restarts"] == 2, f"trace: {m['failures']} failures")
check_close(m["wasted_s"], wasted, 1e-6, "trace: wasted compute")
check_close(m["makespan_s"], t, 1e-6, "trace: makespan")

# File state: with files written between checkpoints, `none` leaves every rollback inconsistent;
# `full_copy` saves every file at every checkpoint; `block_log` saves appended bytes as they
# are and overwritten bytes as whole blocks, so the append share changes what it saves.
FILES = "phases.train.files={count: 10, size: 1GB, write_rate: 1MBps, append: 0.5}"
m = train(FILES, TRACE, EVERY_100, "phases.train.iterations=2000")
check(m["inconsistent_rollbacks"] == 2 and m["file_state_bytes"] == 0, f"file state none: {m['inconsistent_rollbacks']}")
m = train(FILES, TRACE, EVERY_100, "phases.train.iterations=2000", "phases.train.checkpoint.file_state={impl: full_copy}")
check(m["inconsistent_rollbacks"] == 0, "full_copy rollbacks are consistent")
check_close(m["file_state_bytes"], m["checkpoints"] * 10e9, 1e-9, "full_copy saves every file at every checkpoint")
LOG = ["phases.train.checkpoint.file_state={impl: block_log}", EVERY_100, "phases.train.iterations=300",
       "phases.train.files.block=16MiB"]
appended = train(FILES, *LOG, "phases.train.files.append=1")["file_state_bytes"]
overwritten = train(FILES, *LOG, "phases.train.files.append=0")["file_state_bytes"]
check_close(appended, 2 * 1000e6, 1e-9, "block_log saves appended bytes as they are (2 x 1000 s x 1 MB/s)")
check_close(overwritten, 2 * math.ceil(1000e6 / 2**24) * 2**24, 1e-9, "block_log saves overwritten bytes as whole blocks")

# Multilevel checkpoints on the nodes' own disks (io.local), a partner copy each, every third
# flushed to the file system. A failure's node decides what is lost: writer 10's part lives on
# nodes 10 and 11. Nodes 10 and 12 failing (the second during the first restart) leave every
# part on some node: the job restarts from the newest node-local checkpoint (iteration 400).
# Nodes 10 and 11 failing lose part 10: it restarts from the newest flushed one (iteration 300),
# 1000 s of compute further back.
ML = ["phases.train.checkpoint.mode={impl: multilevel, level: partner, flush_every: 3}", EVERY_100,
      "phases.train.iterations=1000"]
apart = train(*ML, "faults=[{group: compute, impl: trace, file: train_apart_fail.csv}]")
partners = train(*ML, "faults=[{group: compute, impl: trace, file: train_partners_fail.csv}]")
check(apart["failures"] == 2 and partners["failures"] == 2, f"failures: {apart['failures']}, {partners['failures']}")
check_close(partners["wasted_s"] - apart["wasted_s"], 1000, 0.01, "partners both lost: back to the flushed checkpoint")
single = train(*ML[1:], "phases.train.checkpoint.mode={impl: multilevel, level: single, flush_every: 3}",
               "faults=[{group: compute, impl: trace, file: train_apart_fail.csv}]")
check_close(single["wasted_s"], partners["wasted_s"], 0.01, "single level: any lost node sends the job to the flush")
# A flush still in progress makes the next checkpoint wait, and that wait is blocking time: a
# checkpoint every iteration (10 s) and a 35 s flush every second one.
busy = train("phases.train.checkpoint.mode={impl: multilevel, level: partner, flush_every: 2}",
             "phases.train.checkpoint.policy={impl: every_n, iterations: 1}", "phases.train.iterations=9",
             "phases.train.resume=false")
check_close(busy["checkpoint_blocking_s"], busy["blocking_s"] / busy["checkpoints"], 1e-9, "C is the mean blocking time")
check(busy["checkpoint_blocking_s"] > 2 * busy["local_write_s"],
      f"the flush waits are not in the blocking time: {busy['checkpoint_blocking_s']} vs {busy['local_write_s']}")

# A run that cannot progress: nodes failing every 2 h on 256 nodes is a job failure every 28 s,
# shorter than the 10 min restart. It stops within seconds, exit 1, naming why.
started = time.monotonic()
proc = subprocess.run([LLSIM, "run", SCENARIO, "--quiet", "--out", os.path.join(scratch_dir(), "out"),
                       "--set", "faults=[{group: compute, impl: exponential, mtbf: 2h}]",
                       "--set", "phases.train.iterations=1000"],
                      capture_output=True, text=True, cwd=ROOT, timeout=120)
check(proc.returncode == 1, f"hopeless run: exit {proc.returncode}")
for text in ["cannot progress", "job MTBF 28.12 s", "mean restart delay 10 min", "checkpoint read 30."]:
    check(text in proc.stderr, f"hopeless run: message lacks {text!r}: {proc.stderr}")
check(time.monotonic() - started < 60, "the hopeless run took over a minute to stop")
# give_up_after sets how many failures in a row end it.
few = subprocess.run([LLSIM, "run", SCENARIO, "--quiet", "--out", os.path.join(scratch_dir(), "out"),
                      "--set", "faults=[{group: compute, impl: exponential, mtbf: 2h}]",
                      "--set", "phases.train.iterations=1000", "--set", "phases.train.restart.give_up_after=10"],
                     capture_output=True, text=True, cwd=ROOT, timeout=120)
check("10 failures, the last 10 in a row" in few.stderr, f"give_up_after: {few.stderr}")

# Forwarding nodes failing while checkpoints are read back and written: every request starts
# over once its node is back, and the run ends (seeds 4 and 6 once spun forever at a relay whose
# deadline had come; a 10 s MTBF had the same effect).
for seed, mtbf, down in [(4, "5min", "1min"), (6, "5min", "1min"), (1, "10s", "1s")]:
    out = os.path.join(scratch_dir(), "out")
    try:
        proc = subprocess.run([LLSIM, "run", SCENARIO, "--quiet", "--out", out, "--seed", str(seed),
                               "--set", f"faults=[{{group: fwd, impl: exponential, mtbf: {mtbf}, downtime: {down}}}]",
                               "--set", "phases.train.iterations=200",
                               "--set", "phases.train.checkpoint.policy={impl: every_n, iterations: 50}",
                               "--set", "phases.train.checkpoint.io_replay=always"],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        check(proc.returncode == 0, f"forwarding faults, seed {seed}: exit {proc.returncode}: {proc.stderr[-500:]}")
        if proc.returncode == 0:
            m = summary(out)["phases"]["train"]
            check(m["checkpoints"] == 3 and m["failures"] == 0,
                  f"forwarding faults, seed {seed}: {m['checkpoints']} checkpoints, {m['failures']} job failures")
    except subprocess.TimeoutExpired:
        check(False, f"forwarding faults, seed {seed}: still running after 60 s")

finish()
