"""Routers (models/router/) through llsim: kv_aware sends requests where their prefix is cached,
weighed against the prefill queued there, and reuses more of the Mooncake trace's prefix blocks
than least_loaded and round_robin; load_imbalance is the busiest instance's requests over the
mean, as the requests' CSV says. On an even Poisson load that nothing queues for, round robin
gives a lower p99 TTFT than least_loaded, which sends arrivals back to back to the instance
whose decodes just ended; where requests queue for batch slots, least_loaded's is the lower
(models/router/least_loaded.cpp). Mooncake's and FastDecode's routers are chosen the same way."""
import collections
import csv
import os

from harness import check, finish, run_fails, run_out, summary

SCENARIO = "scenarios/paper/mooncake_vs_vllm.yaml"
SETS = ["phases.chat.workload.duration=5min"]


def routed(router):
    out = run_out(SCENARIO, *SETS, f"phases.chat.system={{impl: vllm, instances: colocated, router: {router}, "
                                    "prefix_caching: true}")
    with open(os.path.join(out, "chat_requests.csv")) as f:
        sent = collections.Counter(r["instance"] for r in csv.DictReader(f) if r["rejected"] == "0")
    return summary(out)["phases"]["chat"], sent


results = {r: routed(r) for r in ["round_robin", "least_loaded", "kv_aware"]}
for router, (m, sent) in results.items():
    counts = [sent.get(str(i), 0) for i in range(20)]
    expected = max(counts) / (sum(counts) / 20)
    check(abs(m["load_imbalance"] - expected) < 1e-9, f"{router}: load_imbalance {m['load_imbalance']} is the "
          f"busiest instance's share over the mean, {expected}")
hits = {r: m["prefix_hit_ratio"] for r, (m, _) in results.items()}
check(hits["kv_aware"] > 2 * max(hits["least_loaded"], hits["round_robin"]),
      f"kv_aware reuses more prefix blocks: {hits}")
check(results["round_robin"][0]["load_imbalance"] < results["kv_aware"][0]["load_imbalance"],
      "kv_aware trades balance for reuse")

run_fails(SCENARIO, "router: kv_aware routes by the instances' prefix caches: set prefix_caching: true",
          "phases.chat.system={impl: vllm, instances: colocated, router: kv_aware}")
run_fails(SCENARIO, "router: unknown router 'random' (expected conductor, kv_aware, least_loaded or round_robin)",
          "phases.chat.system={impl: vllm, instances: colocated, router: random}")

# The expected order of round robin and least_loaded, with nothing queued and with queues.
EVEN = "tests/inputs/serve_even_poisson.yaml"
QUEUED = ["phases.chat.batching={max_batch_size: 8}", "phases.chat.workload.output_tokens={dist: exponential, mean: 128}",
          "phases.chat.workload.arrival={dist: exponential, mean: 30ms}"]


def p99_ttft(scenario, router, *sets):
    out = run_out(scenario, f"phases.chat.system.router={router}", *sets)
    return summary(out)["phases"]["chat"]["p99_ttft_s"]


even = {r: p99_ttft(EVEN, r) for r in ["round_robin", "least_loaded"]}
check(even["round_robin"] < 0.5 * even["least_loaded"],
      f"nothing queued: round robin's p99 TTFT is below half of least_loaded's: {even}")
queued = {r: p99_ttft(EVEN, r, *QUEUED) for r in ["round_robin", "least_loaded"]}
check(queued["least_loaded"] < 0.6 * queued["round_robin"],
      f"requests queue for 8 batch slots: least_loaded's p99 TTFT is below 0.6 of round robin's: {queued}")

# Mooncake routes with the Conductor unless told otherwise; round robin ignores the prefixes
# the prefill instances hold, and reuses fewer of them.
MOONCAKE = "tests/inputs/serve_mooncake.yaml"
mooncake = {}
for router in ["conductor", "round_robin"]:
    out = run_out(MOONCAKE, "phases.chat.workload.duration=60s", f"phases.chat.system.router={router}")
    mooncake[router] = summary(out)["phases"]["chat"]
out = run_out(MOONCAKE, "phases.chat.workload.duration=60s")
check(summary(out)["phases"]["chat"] == mooncake["conductor"], "Mooncake's default router is the conductor")
check(mooncake["round_robin"]["mean_ttft_s"] != mooncake["conductor"]["mean_ttft_s"],
      f"Mooncake's router changes its TTFT: {mooncake['round_robin']['mean_ttft_s']} against the "
      f"conductor's {mooncake['conductor']['mean_ttft_s']}")

# FastDecode routes to its GPU instances the same way (two instances, a Poisson load).
FASTDECODE = ["platform.groups.a10_fd.count=2", "phases.fastdecode.workload={requests: 300, arrival: {dist: "
              "exponential, mean: 20ms}, input_tokens: 512, output_tokens: {dist: exponential, mean: 256}}"]
fastdecode = {}
for router in ["least_loaded", "round_robin", "kv_aware"]:
    out = run_out("scenarios/paper/fastdecode.yaml", *FASTDECODE, f"phases.fastdecode.system.router={router}")
    fastdecode[router] = summary(out)["phases"]["fastdecode"]["mean_ttft_s"]
check(len(set(fastdecode.values())) == 3, f"fastdecode's router changes its TTFT: {fastdecode}")
finish()
