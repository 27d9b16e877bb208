"""transfer against its closed form: makespan = total bytes / the tightest of (sum of sender
NICs, backbone, sum of receiver NICs, sum of receiver disk write bandwidth), within 2% when
latency is negligible. One platform per bottleneck; the figures below are the test's inputs."""
from harness import check, check_close, finish, run, scratch_dir, summary

SCENARIO = "tests/scenarios/transfer_bounds.yaml"

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
    # Many disks per server and the default 16-chunk buffer: the network must keep 12 disks fed.
    "many disks": dict(sets=["platform.groups.receivers.disks.count=12", "platform.groups.receivers.disks.write=500MBps",
                             "phases.copy.bytes=40GB", "phases.copy.streams=16"],
                       senders=8 * 10e9, backbone=100e9, receivers=4 * 10e9, disks=4 * 12 * 0.5e9, total=8 * 40e9),
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

# Without disks the receivers only receive: the NICs bound it.
out = scratch_dir()
run("run", "tests/scenarios/transfer_no_disks.yaml", "--quiet", "--out", out)
metrics = summary(out)["phases"]["fetch"]
check_close(metrics["makespan_s"], 4 * 16e9 / (2 * 4e9), 0.02, "no disks: makespan")

# An explicit topology whose narrowest link is the bottleneck.
out = scratch_dir()
run("run", "tests/scenarios/transfer_topology.yaml", "--quiet", "--out", out)
metrics = summary(out)["phases"]["copy"]
check_close(metrics["makespan_s"], 4 * 10e9 / 3e9, 0.02, "topology: makespan")

finish()
