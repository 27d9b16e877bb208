"""Host faults on serving instances (sim/serve/engine/serve_instance.hpp): an instance whose host fails
loses the requests it holds (counted as failed), takes none while it is down and serves again once
it is back; with every instance down, arrivals are rejected. Checked for vllm's two routers,
Mooncake's prefill and decode instances (a failed host's prefix cache and unsent blocks are not
reused), and FastDecode's R-workers."""
import csv
import os

from harness import check, finish, run_out, summary

SCENARIO = "tests/inputs/serve_faults.yaml"  # gpu-0 down from 30 s to 60 s


def serve(scenario, *sets):
    out = run_out(scenario, *sets)
    phase = next(iter(summary(out)["phases"]))
    with open(os.path.join(out, f"{phase}_requests.csv")) as f:
        requests = list(csv.DictReader(f))
    return summary(out), requests, out


def arrival(r):
    return float(r["arrival_s"])


def accounted(m, label):
    check(m["completed"] + m["rejected"] + m["failed"] == m["requests"],
          f"{label}: every request ends once: {m['completed']} + {m['rejected']} + {m['failed']} of {m['requests']}")


# The parameter matters: without the outage nothing fails.
s, _, _ = serve(SCENARIO, "faults=[]")
m = s["phases"]["chat"]
check(m["failed"] == 0 and m["completed"] == 400, f"no faults: {m['completed']} completed, {m['failed']} failed")

for router in ["least_loaded", "round_robin"]:
    s, requests, out = serve(SCENARIO, f"phases.chat.system.router={router}")
    m = s["phases"]["chat"]
    accounted(m, router)
    failed = [r for r in requests if r["failed"] == "1"]
    # gpu-0 holds about a dozen sequences of 800 tokens (10 s each) when it fails.
    check(len(failed) == m["failed"] >= 5 and {r["instance"] for r in failed} == {"0"},
          f"{router}: the requests gpu-0 held are lost: {len(failed)} on {sorted({r['instance'] for r in failed})}")
    check(all(arrival(r) < 30 and float(r["finish_s"]) < 0 for r in failed),
          f"{router}: the lost requests arrived before the failure and never finished")
    during = [r for r in requests if 30 <= arrival(r) < 60]
    check(during and all(r["instance"] == "1" for r in during),
          f"{router}: {len(during)} arrivals during the outage, none sent to gpu-0")
    later = [r for r in requests if arrival(r) >= 60 and r["instance"] == "0"]
    check(len(later) >= 20 and all(r["failed"] == "0" for r in later), f"{router}: gpu-0 serves again: {len(later)}")
    with open(os.path.join(out, "chat_instances.csv")) as f:
        samples = [float(r["time_s"]) for r in csv.DictReader(f) if r["instance"] == "0"]
    check(not any(30 < t < 60 for t in samples), f"{router}: gpu-0 runs no iteration while down")

# Both instances down from 30 s to 60 s: what arrives then is rejected, what they held is lost.
s, requests, _ = serve(SCENARIO, "faults=[{group: gpu, impl: trace, file: serve_faults_all_down.csv}]")
m = s["phases"]["chat"]
accounted(m, "all down")
rejected = [r for r in requests if float(r["finish_s"]) < 0 and r["failed"] == "0"]
check(len(rejected) == m["rejected"] == sum(1 for r in requests if 30 <= arrival(r) < 60),
      f"all down: the {m['rejected']} rejected requests are those arriving during the outage")
check(m["failed"] >= 10 and {r["instance"] for r in requests if r["failed"] == "1"} == {"0", "1"},
      f"all down: both instances lose what they held: {m['failed']}")

# Mooncake: a decode instance that fails loses its sequences; a prefill instance that fails gets
# no request while down, and its pool server (the same host) loses its blocks.
MOONCAKE = "tests/inputs/serve_mooncake.yaml"
s, requests, _ = serve(MOONCAKE, "faults=[{group: decode, impl: trace, file: serve_faults_decode_down.csv}]")
m = s["phases"]["chat"]
accounted(m, "mooncake, decode-0 down")
check(m["failed"] >= 1 and all(arrival(r) < 120 for r in requests if r["failed"] == "1"),
      f"mooncake: decode-0's sequences are lost: {m['failed']}")
s, requests, _ = serve(MOONCAKE, "faults=[{group: prefill, impl: trace, file: serve_faults_prefill_down.csv}]")
m = s["phases"]["chat"]
accounted(m, "mooncake, prefill-1 down")
during = [r for r in requests if 60 <= arrival(r) < 120]
check(during and all(r["instance"] == "0" for r in during),
      f"mooncake: {len(during)} arrivals while prefill-1 is down all go to prefill-0")
check(m["failed"] >= 1 and s["services"]["kvpool"]["lost_blocks"] > 0,
      f"mooncake: prefill-1 loses its prompts ({m['failed']}) and its pool blocks "
      f"({s['services']['kvpool']['lost_blocks']})")

# What a failed prefill host held is not reused: one prompt of 16 blocks at 0 s and again at 100 s.
PROMPT = "tests/inputs/serve_faults_prompt.yaml"


def prompt_run(fault_file, *sets):
    """A run with the outages of tests/inputs/serve_faults_<group>_<when>.csv (None: none)."""
    group = fault_file.split("_")[2] if fault_file else None
    faults = f"faults=[{{group: {group}, impl: trace, file: {fault_file}}}]" if fault_file else "faults=[]"
    s, requests, _ = serve(PROMPT, faults, *sets)
    return s, s["phases"]["chat"], requests


NO_POOL = "services.kvpool.capacity=1MB"  # too small for a block: only the instance's own cache
_, m, requests = prompt_run(None, NO_POOL)
check(requests[1]["hit_blocks"] == "16", f"no fault: the second prompt hits the local cache: {requests[1]}")
_, m, requests = prompt_run("serve_faults_prefill_idle.csv", NO_POOL)  # prefill-0 down from 50 s to 60 s
check(requests[1]["hit_blocks"] == "0" and abs(float(requests[1]["ttft_s"]) - float(requests[0]["ttft_s"])) < 1e-9,
      f"a failure while idle empties the local prefix cache: {requests[1]}")
_, m, requests = prompt_run(None)
check(requests[1]["hit_blocks"] == "16", f"no fault: the second prompt hits the pool: {requests[1]}")
# KV that survives a restart: prefill-0 down from 50 s to 60 s loses its own cache, but the blocks
# in the pool on another host outlive it, and the restarted instance reuses all 16 (hit ratio 0.5).
_, m, requests = prompt_run("serve_faults_prefill_idle.csv")
check(requests[1]["instance"] == "0" and requests[1]["hit_blocks"] == "16" and m["prefix_hit_ratio"] == 0.5,
      f"the restarted prefill instance reuses the pool's blocks: {requests[1]}, hit ratio {m['prefix_hit_ratio']}")
s, m, requests = prompt_run("serve_faults_prefill_handoff.csv")  # prefill-0 fails at 1 s, sending the KV
check(requests[0]["failed"] == "1" and requests[1]["hit_blocks"] == "0",
      f"blocks of a prompt lost with its host are not stored in the pool: {requests}")
# Its 16 puts only: the first prompt's blocks would have been 16 more puts, then 16 gets (hits).
check(s["services"]["kvpool"]["operations"] == 16 and s["services"]["kvpool"]["hits"] == 0,
      f"the pool served the second prompt's puts only: {s['services']['kvpool']}")
check(abs(m["tokens_per_s"] - 5 / float(requests[1]["finish_s"])) < 1e-9,
      f"tokens_per_s counts the tokens of the request that did not fail: {m['tokens_per_s']}")
_, m, requests = prompt_run("serve_faults_decode_gone.csv")  # decode-0 down from 50 s on
check(m["rejected"] == 1 and m["failed"] == 0 and requests[1]["instance"] == "-1",
      f"mooncake rejects a request when no decode instance is up: {m['rejected']} rejected, {m['failed']} failed")
# A prefill iteration cut at 0.5 s: its GPU time counts in gpu_busy_share (0.5 s of 2 x 0.5 s),
# and in gpu_utilization (MFU) at the roofline's mfu (0.5: a prefill is compute-bound), 0.25.
_, m, _ = prompt_run("serve_faults_prefill_early.csv", "phases.chat.workload.max_requests=1")
check(m["failed"] == 1 and abs(m["gpu_busy_share"] - 0.5) < 1e-9 and abs(m["gpu_utilization"] - 0.25) < 1e-9,
      f"a cut iteration is busy time up to the failure: busy share {m['gpu_busy_share']}, "
      f"utilisation {m['gpu_utilization']}")

# A pool server that is down does not stop the other blocks: those on the other pool server and the
# SSD tier are still written and reused (poolhost-1 down for good, an SSD tier added).
SSD_TIER = ["platform.groups.poolhost.count=2", "phases.chat.system.local_cache=false",
            "platform.groups.ssd={count: 1, nic: {bandwidth: 25GBps}, disks: {count: 4, read: 6GBps, write: 4GBps, "
            "capacity: 8TB}}", "services.flash={kind: storage, servers: ssd}",
            "phases.chat.system.ssd={storage: flash, capacity: 1TB}"]
s, m, requests = prompt_run("serve_faults_poolhost_gone.csv", *SSD_TIER)
check(requests[1]["hit_blocks"] == "16" and s["services"]["flash"]["bytes_written"] == 16 * 167772160,
      f"a pool server down: the blocks go to the other one and the SSD, and are reused: {requests[1]}, "
      f"{s['services']['flash']['bytes_written']} B on SSD")
# An SSD server that is down is not waited for (it stays down until 1e5 s): the phase ends with the
# requests, and the blocks striped onto it are not written.
s, _, _ = serve(MOONCAKE, "phases.chat.system.ssd={storage: flash, capacity: 1TB}", "phases.chat.workload.duration=10s",
                "faults=[{group: ssd, impl: trace, file: serve_faults_ssd_down.csv}]")
m = s["phases"]["chat"]
accounted(m, "mooncake, ssd-0 down")
check(m["end_s"] < 100 and m["failed"] == 0, f"a down SSD server is not waited for: the phase ends at {m['end_s']} s")

# FastDecode: the KV lives on the R-workers, so the instance fails with any of them.
s, requests, _ = serve("scenarios/paper/fastdecode.yaml", "phases.vllm.enabled=false", "phases.fastdecode.after=[]",
                       "phases.fastdecode.workload.requests=64", "phases.fastdecode.workload.output_tokens=2000",
                       "faults=[{group: epyc, impl: trace, file: ../../tests/inputs/serve_faults_epyc_down.csv}]")
m = s["phases"]["fastdecode"]
accounted(m, "fastdecode")
check(m["failed"] == 64, f"fastdecode: an R-worker failing at 20 s loses the 64 requests in flight: {m['failed']}")

finish()
