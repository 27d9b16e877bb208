"""The training data path (train phase `data`) through llsim on tests/inputs/train_data.yaml:
iteration time against the closed form when the file system is slower than the iterations need
(batch / B) and no stall when it is faster and batches are prefetched; every key of `data`
changing what it should; batches dropped by a failure read again; the makespan identity; a
missing dataset located."""
import json
import os

from harness import check, check_close, finish, run_fails, run_out, summary

SCENARIO = "tests/inputs/train_data.yaml"
N = 20            # iterations
DISKS_BPS = 10e9  # 4 disks of 2.5 GB/s
NIC_BPS = 5e9     # one node's NIC
SMALL = "phases.0.data.tokens_per_iteration=1.25e10"  # 50 GB batches


def train(*sets):
    return summary(run_out(SCENARIO, *sets))["phases"]["train"]


def identity(m):
    return (m["goodput"] * m["makespan_s"] + m["blocking_s"] + m["wasted_s"] + m["restarting_s"] + m["maintenance_s"] +
            m["data_stall_s"] + m["data_warmup_s"])


# B < R: 200 GB batches at 10 GB/s take 20 s against 10 s of compute: the reads set the pace.
slow = train()
check(slow["data_bytes"] == N * 200e9, f"every batch read once: {slow['data_bytes']}")
check_close((slow["data_stall_s"] + (N - 1) * 10) / (N - 1), 200e9 / DISKS_BPS, 0.03,
            "iteration time = batch bytes / B when B is below the rate the iterations need")
check_close(slow["data_read_Bps"], DISKS_BPS, 0.03, "achieved read bandwidth: the disks'")
check_close(slow["data_warmup_s"], 200e9 / DISKS_BPS, 0.03, "the first batch: a read with nothing to overlap")
check_close(identity(slow), slow["makespan_s"], 1e-9, "makespan = useful + blocking + ... + stalls + warm-up")

# B >= R with prefetch: 50 GB in 5 s under 10 s of compute: no stall at all.
fast = train(SMALL)
check(fast["data_stall_s"] == 0, f"no data stall with prefetch and B >= R: {fast['data_stall_s']}")
check_close(fast["data_warmup_s"], 50e9 / DISKS_BPS, 0.03, "warm-up: one batch at the disks' rate")
check_close(fast["makespan_s"], fast["data_warmup_s"] + N * 10, 1e-9, "makespan = warm-up + compute")

# prefetch 0: every batch is read when its iteration asks for it.
on_demand = train(SMALL, "phases.0.data.prefetch=0")
check_close(on_demand["data_stall_s"], (N - 1) * 50e9 / DISKS_BPS, 0.03, "prefetch 0: a full read before each iteration")
# readers: one node's NIC (5 GB/s) bounds a single reader.
one = train(SMALL, "phases.0.data.readers=1")
check_close(one["data_read_Bps"], NIC_BPS, 0.03, "readers 1: its NIC bounds the reads")
check(one["data_stall_s"] < 1, f"readers 1: 10 s per batch about keeps up with 10-s iterations: {one['data_stall_s']}")
# sample and in_flight: one reader's small requests pay their round trips (a read's slot frees
# when the server takes it into service, so in_flight tells only where latency dominates).
FEW = ("phases.0.iterations=3", "phases.0.data.readers=1")
big = train(SMALL, *FEW, "phases.0.data.sample=16MiB")
small = train(SMALL, *FEW, "phases.0.data.sample=1MiB")
serial = train(SMALL, *FEW, "phases.0.data.sample=1MiB", "phases.0.data.in_flight=1")
check_close(big["data_read_Bps"], NIC_BPS, 0.03, "16 MiB requests: the NIC bounds them")
check(small["data_read_Bps"] < 0.9 * big["data_read_Bps"], f"sample 1MiB is slower: {small['data_read_Bps']:.3g}")
check(serial["data_read_Bps"] < 0.9 * small["data_read_Bps"], f"in_flight 1 is slower: {serial['data_read_Bps']:.3g}")
wide = train(SMALL, "phases.0.data.bytes_per_token=8B")
check(wide["data_bytes"] == 2 * fast["data_bytes"], "bytes_per_token 8B doubles the bytes")

# A failure drops the batches on their way; the restarted job reads from its checkpoint again.
trace = "faults=[{group: gpu, impl: trace, file: train_data_failure.csv}]"
failed = train(SMALL, trace, "phases.0.checkpoint.policy={impl: fixed, interval: 50s}")
check(failed["failures"] == 1 and failed["data_bytes"] > N * 50e9, f"batches read again: {failed['data_bytes']}")
check(failed["data_warmup_s"] > fast["data_warmup_s"], "the restart waits for its first batch again")
check_close(identity(failed), failed["makespan_s"], 1e-9, "the identity holds with a failure")

# A maintenance stop ends the job's processes: the batches read ahead are lost, and the first
# iteration after it waits for a whole batch again.
stopped = train(SMALL, "phases.0.checkpoint.policy={impl: fixed, interval: 50s}",
                "phases.0.maintenance={every: 60s, duration: 10s}")
stops = stopped["interruptions_maintenance"]
check(stops >= 2, f"planned stops: {stops}")
check_close(stopped["data_warmup_s"], (1 + stops) * 50e9 / DISKS_BPS, 0.03, "a warm-up after each stop")
check_close(identity(stopped), stopped["makespan_s"], 1e-9, "the identity holds with maintenance")

# Same scenario, same seed: the same summary.
a, b = run_out(SCENARIO, SMALL, trace), run_out(SCENARIO, SMALL, trace)
strip = lambda d: {k: v for k, v in summary(d).items() if "wall" not in k}
check(strip(a) == strip(b), "same seed, same summary")

run_fails(SCENARIO, "no file set 'corpus2' on 'pfs'", "phases.0.data.dataset=corpus2")
run_fails(SCENARIO, "9 readers, but the job has 8 nodes", "phases.0.data.readers=9")
run_fails(SCENARIO, "one batch is 4 TB but the dataset 'corpus' declared on 'pfs' holds 1 TB",
          "phases.0.data.tokens_per_iteration=1e12")

finish()
