"""Preemption by swap through a memory_pool service (batching.swap_to), through llsim: each swapped
sequence's KV goes out and comes back byte for byte, the pool moves exactly those bytes, and swap
against recompute comes out the way the closed form says; a pool that rejects or loses the KV
leaves the sequence to be recomputed, a full pool rejects rather than evict swapped KV, a failure
of the instance's host leaves nothing in the pool, and a pool server on the instance's own host
costs the PCIe time. The CPU swap over PCIe writes the same record."""
import csv
import os
from collections import defaultdict

from harness import check, check_close, finish, phase_metrics, run_fails, run_out, summary

SCENARIO = "tests/inputs/serve_operators.yaml"  # Llama-3-70B on 8 x A100, operators model
BLOCK = 16 * 327680  # a KV block: 16 tokens x 320 KiB of KV per token
KV_PER_TOKEN = 327680
POOL = ["platform.groups.mem={count: 1, nic: {bandwidth: 25GBps}}",
        "services={swapmem: {kind: memory_pool, servers: mem, capacity: 100GB, threads: 4}}"]
SWAP = ["phases.chat.batching.preemption=swap"]
TO_POOL = [*SWAP, *POOL, "phases.chat.batching.swap_to=swapmem"]


def swaps(out):
    with open(os.path.join(out, "chat_swaps.csv")) as f:
        return list(csv.DictReader(f))


def round_trips(rows, where, outcomes=("moved",)):
    """Per request, the bytes of each out that went and of the in that followed it match."""
    balance = defaultdict(float)
    for r in rows:
        check(r["to"] == where and r["outcome"] in outcomes, f"request {r['request']} to {where}: {r}")
        check(int(r["bytes"]) % BLOCK == 0, f"whole KV blocks: {r['bytes']}")
        if r["direction"] == "out" and r["outcome"] != "moved":
            continue  # it never went: the sequence was recomputed
        balance[r["request"]] += int(r["bytes"]) * (1 if r["direction"] == "out" else -1)
        check(balance[r["request"]] >= 0, f"request {r['request']}: nothing comes back before it went out")
    check(balance and all(b == 0 for b in balance.values()),
          f"every swapped sequence had an in of the bytes it put ({len(balance)} sequences): {dict(balance)}")


# 20 prompts of 4,000 tokens, 2,000 out each, in 1,000 KV blocks: decodes preempt.
BURST = ["phases.chat.workload.requests=20", "phases.chat.workload.arrival=0s",
         "phases.chat.workload.output_tokens=2000", "phases.chat.batching.scheduler=v1",
         "phases.chat.batching.kv_blocks=1000"]
out = run_out(SCENARIO, *BURST, *TO_POOL)
s = summary(out)
chat, pool = s["phases"]["chat"], s["services"]["swapmem"]
rows = swaps(out)
check(chat["completed"] == 20 and len(rows) >= 10, f"20 complete; {len(rows)} swaps")
round_trips(rows, "swapmem")
moved = sum(int(r["bytes"]) for r in rows)
check(chat["kv_swapped_bytes"] == moved == pool["bytes"],
      f"the pool moved exactly the swapped KV: {pool['bytes']} vs {chat['kv_swapped_bytes']} vs rows {moved}")
check(pool["operations"] == len(rows) and pool["hits"] == len(rows) / 2 and pool["stored_bytes"] == 0,
      f"one put and one get per swap, nothing left in the pool: {pool}")
check(chat["kv_swap_failures"] == 0, "an ample pool loses nothing")

# Over PCIe to the host's CPU memory: the same record, to cpu, and no service traffic.
cpu = run_out(SCENARIO, *BURST, *SWAP)
round_trips(swaps(cpu), "cpu")
check(summary(cpu)["phases"]["chat"]["kv_swapped_bytes"] == sum(int(r["bytes"]) for r in swaps(cpu)),
      "kv_swapped_bytes is the CPU swap's rows too")
check(not os.path.exists(os.path.join(run_out(SCENARIO, *BURST), "chat_swaps.csv")),
      "preemption by recompute writes no swaps")

# Closed form, one victim. Two prompts of 4,000 tokens in 520 blocks grow in step until each holds
# 260 blocks (4,160 tokens); the later one is then preempted and resumes when the other ends (at
# 400 tokens out). By recompute it prefills its 4,161 tokens (prompt and output so far) again. By
# swap its 260 blocks go out and back over the pool's NIC and it decodes at once at context
# 4,160. So the end moves by put + get + decode(4,160) - prefill(4,161), a lone request's figures.
# Steps in series: a lone request's prefill follows no step, the recomputed one does.
SERIAL = "phases.chat.iteration.scheduling=serial"
TWO = ["phases.chat.workload.requests=2", "phases.chat.workload.arrival=0s",
       "phases.chat.workload.output_tokens=400", "phases.chat.batching.kv_blocks=520", SERIAL]
recomputed = summary(run_out(SCENARIO, *TWO))["phases"]["chat"]
prefill = phase_metrics(SCENARIO, "chat", "phases.chat.workload.input_tokens=4161",
                        "phases.chat.workload.output_tokens=2", SERIAL)["mean_ttft_s"]
decode = phase_metrics(SCENARIO, "chat", "phases.chat.workload.input_tokens=4160",
                       "phases.chat.workload.output_tokens=2", SERIAL)["mean_slo_tbt_s"]
victim_B = 260 * BLOCK
for nic, faster in [("25GBps", "swap"), ("1GBps", "recompute")]:
    swapped_out = run_out(SCENARIO, *TWO, *TO_POOL, f"platform.groups.mem.nic.bandwidth={nic}")
    swapped = summary(swapped_out)["phases"]["chat"]
    check([int(r["bytes"]) for r in swaps(swapped_out)] == [victim_B, victim_B], "one victim of 260 blocks")
    link = float(nic[:-4]) * 1e9
    predicted = 2 * victim_B / link + decode - prefill
    measured = swapped["end_s"] - recomputed["end_s"]
    check((predicted < 0) == (faster == "swap") and (measured < 0) == (predicted < 0),
          f"{nic}: {faster} is faster, as the closed form says: {measured:+.4f} s vs {predicted:+.4f} s")
    check_close(measured, predicted, 0.001, f"{nic}: swap - recompute = put + get + decode - prefill")
    print(f"{nic}: measured {measured:+.5f} s, closed form {predicted:+.5f} s")

# A pool that cannot hold the victim rejects the put: the sequence is recomputed, and the run is
# the recompute run (a rejection takes no time).
small = run_out(SCENARIO, *TWO, *TO_POOL, "services.swapmem.capacity=1GB")
rejected = summary(small)["phases"]["chat"]
check([r["outcome"] for r in swaps(small)] == ["rejected"] and rejected["kv_swap_failures"] == 1 and
      rejected["kv_swapped_bytes"] == 0, f"a 1 GB pool rejects 1.36 GB: {swaps(small)}")
check_close(rejected["end_s"], recomputed["end_s"], 1e-9, "a rejected swap recomputes")
# The pool's host fails while it holds the KV (down 8-9 s; out at 5 s, back at 11 s): the get
# misses, the sequence is recomputed, later by the put's time alone.
lost = run_out(SCENARIO, *TWO, *TO_POOL, "faults=[{group: mem, impl: trace, file: swap_pool_down.csv}]")
lost_chat = summary(lost)["phases"]["chat"]
check([r["outcome"] for r in swaps(lost)] == ["moved", "missed"] and lost_chat["kv_swap_failures"] == 1,
      f"the KV was lost with the pool's host: {swaps(lost)}")
check(summary(lost)["services"]["swapmem"]["lost_blocks"] == 1, "the pool counts the block lost")
check_close(lost_chat["end_s"] - recomputed["end_s"], victim_B / 25e9, 0.01, "recomputed after the put's time")

# The pool on the GPU host itself: its CPU memory, over PCIe (Gen4 x16, 31.5 GB/s per GPU), the
# same time as the CPU swap space.
local = run_out(SCENARIO, *TWO, *TO_POOL, "services.swapmem.servers=gpu")
cpu_two = summary(run_out(SCENARIO, *TWO, *SWAP))["phases"]["chat"]
check_close(summary(local)["phases"]["chat"]["end_s"], cpu_two["end_s"], 1e-9,
            "a pool server on the instance's host moves KV over PCIe, as the CPU swap does")
check_close(float(swaps(local)[0]["end_s"]) - float(swaps(local)[0]["start_s"]), victim_B / 8 / 31.5e9, 0.001,
            "one GPU's share of the victim over its PCIe link")

# Many victims at once: 40 short prompts growing in step in 200 blocks.
LOCK = ["phases.chat.workload.requests=40", "phases.chat.workload.arrival=0s",
        "phases.chat.workload.input_tokens=16", "phases.chat.workload.output_tokens=200",
        "phases.chat.batching.kv_blocks=200"]
# A pool too small for them all rejects the puts it has no room for: swapped KV is pinned, never
# evicted for another sequence's (as vLLM's swap space keeps what it holds).
full = run_out(SCENARIO, *LOCK, *TO_POOL, "services.swapmem.capacity=100MB")
full_s = summary(full)
outcomes = [r["outcome"] for r in swaps(full)]
check(full_s["phases"]["chat"]["completed"] == 40 and "rejected" in outcomes and "missed" not in outcomes and
      full_s["services"]["swapmem"]["evictions"] == 0 and full_s["services"]["swapmem"]["stored_bytes"] == 0,
      f"a full pool rejects, evicts no swapped KV: {full_s['services']['swapmem']}")
round_trips(swaps(full), "swapmem", ("moved", "rejected"))
# Sequences rejected in one iteration go back to the queue earliest arrival first, as preemption by
# recompute leaves them: they finish in arrival order.
with open(os.path.join(full, "chat_requests.csv")) as f:
    finish_s = {r["request"]: float(r["finish_s"]) for r in csv.DictReader(f)}
rejected_at = defaultdict(list)
for r in swaps(full):
    if r["outcome"] == "rejected":
        rejected_at[r["start_s"]].append(int(r["request"]))
in_order = [[finish_s[str(i)] for i in sorted(ids)] for ids in rejected_at.values()]
check(any(len(f) > 2 for f in in_order) and all(f == sorted(f) for f in in_order),
      f"rejected sequences finish in arrival order: {in_order}")
check(full_s["phases"]["chat"]["kv_swap_failures"] == outcomes.count("rejected"), "each rejection is a failure")
# The GPU host fails (5.6-5.7 s) while 26 sequences come back in one iteration: the moves not
# made are lost with the instance, and nothing stays in the pool.
gone = run_out(SCENARIO, *LOCK, *TO_POOL, "faults=[{group: gpu, impl: trace, file: swap_gpu_down.csv}]")
gone_s = summary(gone)
check(gone_s["phases"]["chat"]["failed"] > 0 and gone_s["services"]["swapmem"]["stored_bytes"] == 0,
      f"no swapped KV left in the pool after the instance's failure: {gone_s['services']['swapmem']}")
round_trips(swaps(gone), "swapmem", ("moved", "failed"))
with open(os.path.join(gone, "chat_requests.csv")) as f:
    failed_requests = {r["request"] for r in csv.DictReader(f) if r["failed"] == "1"}
failed_moves = {r["request"] for r in swaps(gone) if r["outcome"] == "failed"}
check(failed_moves and failed_moves <= failed_requests,
      f"the failed moves are those of requests lost with the instance: {sorted(failed_moves - failed_requests)}")
# It fails while sequences go out (1.93-2.0 s, a 100 MB pool rejecting some): each sequence's
# failure is recorded once, an out that never went has no in, and the pool ends empty.
outs = run_out(SCENARIO, *LOCK, *TO_POOL, "services.swapmem.capacity=100MB",
               "faults=[{group: gpu, impl: trace, file: swap_gpu_down_out.csv}]")
round_trips(swaps(outs), "swapmem", ("moved", "rejected", "failed"))
per_request = defaultdict(int)
for r in swaps(outs):
    per_request[r["request"]] += r["outcome"] != "moved"
check(per_request and max(per_request.values()) == 1 and
      summary(outs)["phases"]["chat"]["kv_swap_failures"] == sum(per_request.values()) and
      summary(outs)["services"]["swapmem"]["stored_bytes"] == 0,
      f"one failure per sequence at most: {dict(per_request)}")

# Mooncake's instances swap into its own KV pool (decode instances over the network), of room for
# the largest sequence swapped (7.95 GB: a pool smaller than that rejects its put, rightly).
MOONCAKE = "tests/inputs/serve_mooncake.yaml"
PCIE = [f"platform.groups.{g}.gpu.{k}" for g in ("prefill", "decode") for k in ("pcie_gen=4", "pcie_lanes=16")]
mc = run_out(MOONCAKE, "phases.chat.batching.kv_blocks=3000", *SWAP, "phases.chat.batching.swap_to=kvpool",
             "services.kvpool.capacity=10GB", *PCIE)
mc_rows = swaps(mc)
round_trips(mc_rows, "kvpool")
check(summary(mc)["phases"]["chat"]["kv_swapped_bytes"] == sum(int(r["bytes"]) for r in mc_rows),
      "mooncake: kv_swapped_bytes is the rows' bytes")

# Bad input, each with its place in the scenario.
run_fails(SCENARIO, "swap_to: applies to preemption: swap", *POOL, "phases.chat.batching.swap_to=swapmem")
run_fails(SCENARIO, "give swap_space or swap_to, not both", *TO_POOL, "phases.chat.batching.swap_space=8GiB")
run_fails(SCENARIO, "batching.swap_to: no service named 'nowhere'", *SWAP, "phases.chat.batching.swap_to=nowhere")
run_fails(SCENARIO, "needs the PCIe link of the GPUs of group 'gpu'", *TO_POOL,
          "platform.groups.gpu.gpu={flops: 312TFlops, hbm_bandwidth: 2TBps, hbm: 80GB, count: 8}")
finish()
