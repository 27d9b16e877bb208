"""transfer into a storage service against its closed form: makespan = total bytes / the
tightest of (sum of sender NICs, backbone, sum of server NICs, sum of server disk write
bandwidth), within 2% when latency is negligible and requests are pipelined. One platform per
bottleneck; the figures below are the test's inputs."""
import os
import subprocess
import time

from harness import LLSIM, ROOT, check, check_close, finish, run, scratch_dir, summary

SCENARIO = "tests/inputs/transfer_bounds.yaml"

# Each case: --set overrides and the four aggregate bandwidths (bytes/s) they produce.
# Base platform: 8 senders, 4 receivers, each sender sends 20 GB in 2 streams.
CASES = {
    "sender NICs": dict(sets=["platform.groups.senders.nic.bandwidth=1GBps"],
                        senders=8 * 1e9, backbone=100e9, receivers=4 * 10e9, disks=4 * 4 * 2e9),
    "backbone": dict(sets=["platform.backbone.bandwidth=5GBps"],
                     senders=8 * 10e9, backbone=5e9, receivers=4 * 10e9, disks=4 * 4 * 2e9),
    "receiver NICs": dict(sets=["platform.groups.receivers.nic.bandwidth=2GBps"],
                          senders=8 * 10e9, backbone=100e9, receivers=4 * 2e9, disks=4 * 4 * 2e9),
    "receiver disks": dict(sets=["platform.groups.receivers.disks.write=500MBps"],
                           senders=8 * 10e9, backbone=100e9, receivers=4 * 10e9, disks=4 * 4 * 0.5e9),
    "bits-per-second NICs": dict(sets=["platform.groups.senders.nic.bandwidth=8Gbps"],
                                 senders=8 * 1e9, backbone=100e9, receivers=4 * 10e9, disks=4 * 4 * 2e9),
    # Many disks per server: the network must keep 12 disks fed. Each of the 128 files is 48
    # chunks, one per disk, so the layout is balanced (files of other sizes leave some disks a
    # few percent more chunks than others, which the closed form does not count).
    "many disks": dict(sets=["platform.groups.receivers.disks.count=12", "platform.groups.receivers.disks.write=500MBps",
                             "phases.copy.bytes=49152MB", "phases.copy.streams=16"],
                       senders=8 * 10e9, backbone=100e9, receivers=4 * 10e9, disks=4 * 12 * 0.5e9, total=8 * 49.152e9),
}
TOTAL_BYTES = 8 * 20e9

for name, case in CASES.items():
    case.setdefault("total", TOTAL_BYTES)
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out]
    for s in case["sets"]:
        args += ["--set", s]
    code, _, _ = run(*args)
    if code != 0:
        continue
    bound = min(case["senders"], case["backbone"], case["receivers"], case["disks"])
    total = case["total"]
    metrics = summary(out)["phases"]["copy"]
    check_close(metrics["makespan_s"], total / bound, 0.02, f"{name}: makespan")
    check(metrics["bytes"] == total, f"{name}: bytes {metrics['bytes']} != {total}")
    check_close(metrics["throughput_Bps"], bound, 0.02, f"{name}: throughput")
    # Physics: never faster than the bound.
    check(metrics["makespan_s"] >= total / bound * (1 - 1e-9), f"{name}: faster than the bound")

# Requests in flight hide latency: over a 5 ms backbone, TCP's window (SimGrid's 4 MiB
# TCP-gamma) caps one flow at 4194304 B / (2 x 5.002 ms) = 419 MB/s, and each request first
# waits its 5.002 ms of latency. 16 streams with k requests in flight are 16k such flows, far
# below the 32 GB/s of the disks: 2500 chunks of 64 MB, each taking 5.002 ms + 64 MB / 419 MB/s
# on one of 16k flows.
LATENCY = ["--set", "platform.backbone.latency=5ms"]
route_latency = 5e-3 + 2e-6
window_bound = 4194304 / (2 * route_latency)
for k in [1, 4]:
    out = scratch_dir()
    run("run", SCENARIO, "--quiet", "--out", out, "--set", f"phases.copy.in_flight={k}", *LATENCY)
    makespan = summary(out)["phases"]["copy"]["makespan_s"]
    expected = 2500 / (16 * k) * (route_latency + 64e6 / window_bound)
    check_close(makespan, expected, 0.03, f"{k} request(s) in flight: latency and TCP window bound")

# network.model: lv08 gives a flow 97% of a link's bandwidth (Velho and Legrand's TCP
# correction); cm02, the default, all of it (the "sender NICs" case above).
out = scratch_dir()
run("run", SCENARIO, "--quiet", "--out", out, "--set", "platform.network.model=lv08",
    "--set", "platform.groups.senders.nic.bandwidth=1GBps")
check_close(summary(out)["phases"]["copy"]["makespan_s"], TOTAL_BYTES / (0.97 * 8e9), 0.02, "lv08: 97% of the sender NICs")

# A small write cache (one chunk per disk) holds the network back in the same way.
out = scratch_dir()
run("run", SCENARIO, "--quiet", "--out", out, "--set", "services.fs.write_cache=256MB")
small_cache = summary(out)["phases"]["copy"]["makespan_s"]
check(small_cache > TOTAL_BYTES / (16 * 2e9) * 1.1, f"a one-chunk write cache still pipelines: {small_cache}")
# (the default 32 GiB cache meets the disk bound: the "receiver disks" case above)

# An explicit topology whose narrowest link is the bottleneck.
out = scratch_dir()
run("run", "tests/inputs/transfer_topology.yaml", "--quiet", "--out", out)
metrics = summary(out)["phases"]["copy"]
check_close(metrics["makespan_s"], 4 * 10e9 / 3e9, 0.02, "topology: makespan")

# Servers that fail faster than a chunk moves (exponential up times of 1 ms against ~50 ms per
# chunk): the run stops with exit 1 and says why, rather than retrying for ever; give_up_after
# sets the count, and occasional failures are survived.
FAST_FAULTS = "faults=[{group: receivers, impl: exponential, mtbf: 1ms, downtime: 1ms}]"
for limit in [100, 300]:
    out = os.path.join(scratch_dir(), "out")
    started = time.monotonic()
    proc = subprocess.run([LLSIM, "run", SCENARIO, "--quiet", "--out", out, "--set", FAST_FAULTS,
                           "--set", f"phases.copy.give_up_after={limit}"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    check(proc.returncode == 1, f"hopeless transfer: exit {proc.returncode}")
    check(f"interrupted {limit} times in a row" in proc.stderr and "cannot progress" in proc.stderr,
          f"hopeless transfer: {proc.stderr}")
    check(not os.path.exists(out), "hopeless transfer: no output")
    check(time.monotonic() - started < 60, "the hopeless transfer took over a minute to stop")
out = scratch_dir()
run("run", SCENARIO, "--quiet", "--out", out, "--set", "faults=[{group: receivers, impl: exponential, mtbf: 20s, downtime: 1s}]")
survived = summary(out)["phases"]["copy"]
check(survived["bytes"] == TOTAL_BYTES, f"failures every 20 s: {survived['bytes']} B written")

finish()
