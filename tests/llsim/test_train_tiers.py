"""Checkpoint tiers (multilevel with `memory: partner`): a snapshot into host memory at every
checkpoint, copied to the partner's memory in the background; the node-local level every
`local_every`-th; the file system every `flush_every`-th. Restarts restore from the nearest tier
that survived. Each parameter of the tier changes a result, in its closed form.

The job: tests/inputs/train_partner_copy.yaml (64 nodes; a node holds one pipeline stage of a
12G-parameter model at 14 B/param over 16 stages: 10.5 GB)."""
import csv
import os

from harness import check, check_close, finish, phase_metrics, run_fails, run_out, summary

SCENARIO = "tests/inputs/train_partner_copy.yaml"
NODE_STATE_B = 12e9 * 14 / 16
CHECKPOINT_B = 12e9 * 14


def mode(**keys):
    fields = {"level": "partner", "memory": "partner", "local_every": 5, "flush_every": 10, **keys}
    return "phases.train.checkpoint.mode={impl: multilevel, " + ", ".join(f"{k}: {v}" for k, v in fields.items()) + "}"


def checkpoints(out):
    with open(os.path.join(out, "train_checkpoints.csv")) as f:
        return list(csv.DictReader(f))


# Every checkpoint that writes no node-local copy blocks for the snapshot alone: state / snapshot_bandwidth.
for bandwidth, gbps in [("10GBps", 10e9), ("5GBps", 5e9)]:
    out = run_out(SCENARIO, mode(snapshot_bandwidth=bandwidth))
    rows = checkpoints(out)
    memory_only = [r for r in rows if int(r["checkpoint"]) % 5 != 0]
    check(len(memory_only) > 50, f"{len(memory_only)} checkpoints in memory only")
    check(all(abs(float(r["blocking_s"]) - NODE_STATE_B / gbps) < 1e-6 for r in memory_only),
          f"snapshot {bandwidth}: blocking {sorted({r['blocking_s'] for r in memory_only})} vs {NODE_STATE_B / gbps} s")
    check(all(float(r["bytes"]) == 0 for r in memory_only), "host memory counts in no checkpoint's bytes")

# Every restart here restores from memory (every lost node's partner survives): the replaced node
# gets its part back from its partner and the copy it held for its neighbour, 2 x state at
# partner_bandwidth, so restarting time moves by exactly that.
fast = phase_metrics(SCENARIO, "train", mode(partner_bandwidth="25GBps"))
slow = phase_metrics(SCENARIO, "train", mode(partner_bandwidth="1GBps"))
check(fast["restarts"] >= 10 and fast["restores_memory"] == fast["restarts"],
      f"restores from memory {fast['restores_memory']} of {fast['restarts']} restarts")
check(fast["restores_local"] == 0 and fast["restores_pfs"] == 0, "no restart reads a farther tier")
check(slow["restores_memory"] == fast["restores_memory"], "the same restarts at either partner bandwidth")
check_close(slow["restarting_s"] - fast["restarting_s"],
            fast["restores_memory"] * 2 * NODE_STATE_B * (1 / 1e9 - 1 / 25e9), 1e-6,
            "restarting time moves by restores x 2 x state x (1/1 GB/s - 1/25 GB/s)")

# local_every sets which checkpoints write the node-local level (2 x the checkpoint with partner
# copies); flush_every which reach the file system.
for every in [5, 2]:
    m = phase_metrics(SCENARIO, "train", mode(local_every=every))
    n = m["checkpoints"]
    expected = (n // every) * 2 * CHECKPOINT_B + (n // 10) * CHECKPOINT_B
    check_close(m["checkpoint_bytes"], expected, 1e-9, f"local_every {every}: checkpoint bytes of {n} checkpoints")

# Without the memory tier, restarts read the node-local level, which holds the same checkpoint.
plain = phase_metrics(SCENARIO, "train")
check(plain["restores_memory"] == 0 and plain["restores_local"] == plain["restarts"],
      f"plain multilevel: {plain['restores_local']} local restores of {plain['restarts']}")

# partner_offset: leaf switches over 4 consecutive hosts take a node and its next neighbour
# together, so partners 1 apart lose both copies and every restart reads the file system; 4
# apart, the partner is under another switch and every restart reads memory (or the NVMe
# level without the memory tier).
SWITCHES = "faults=[{group: compute, impl: components, components: [{class: switch, shared_by: 4, mtbf: 100h, " \
           "repair: 1h}]}]"
for memory in ["partner", "none"]:
    near = phase_metrics(SCENARIO, "train", SWITCHES, mode(memory=memory, local_every=1 if memory == "none" else 5))
    far = phase_metrics(SCENARIO, "train", SWITCHES,
                        mode(memory=memory, local_every=1 if memory == "none" else 5, partner_offset=4))
    nearest = "restores_memory" if memory == "partner" else "restores_local"
    check(near["restarts"] >= 5 and near["restores_pfs"] == near["restarts"],
          f"memory {memory}, partners 1 apart: {near['restores_pfs']} of {near['restarts']} from the file system")
    check(far["restarts"] >= 5 and far[nearest] == far["restarts"],
          f"memory {memory}, partners 4 apart: {far[nearest]} of {far['restarts']} from the nearest tier")
    check(far["goodput"] > near["goodput"] + 0.2, f"partner_offset 4: goodput {far['goodput']} vs {near['goodput']}")
run_fails(SCENARIO, "partner_offset 64 needs more writers than the 64 of this job's checkpoint", mode(partner_offset=64))
run_fails(SCENARIO, "partner_offset 1 needs more writers than the 1 of this job's checkpoint",
          "phases.train.checkpoint.mode={impl: multilevel, memory: partner}", "phases.train.checkpoint.layout={impl: naive}",
          "phases.train.parallelism={data: 64, pipeline: 1, tensor: 1}")

# The tier must fit: 4 x 10.5 GB in memory_share of 2 TiB.
run_fails(SCENARIO, "needs 42 GB of host memory", mode(memory_share=0.019))
check(run_out(SCENARIO, mode(memory_share=0.02)) is not None, "42 GB fit in 2% of 2 TiB")
run_fails(SCENARIO, "applies to the memory tier only", mode(memory="none", local_every=1, snapshot_bandwidth="1GBps"))
run_fails(SCENARIO, "add memory: partner", mode(memory="none", local_every=3))
run_fails(SCENARIO, "unknown memory 'host' (expected none or partner)", mode(memory="host"))

# Same scenario, same seed: the same summary.
a, b = run_out(SCENARIO, mode()), run_out(SCENARIO, mode())
check(summary(a)["phases"] == summary(b)["phases"], "deterministic")
finish()
