"""Routers of the vllm system through llsim: kv_aware sends requests where their prefix is cached,
weighed against the prefill queued there, and reuses more of the Mooncake trace's prefix blocks
than least_loaded and round_robin; load_imbalance is the busiest instance's requests over the
mean, as the requests' CSV says."""
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
run_fails(SCENARIO, "unknown router 'random' (expected round_robin, least_loaded or kv_aware)",
          "phases.chat.system={impl: vllm, instances: colocated, router: random}")
finish()
