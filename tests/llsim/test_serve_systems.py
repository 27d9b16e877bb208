"""The three serving systems and the serve phase's options through llsim, on the first two
minutes of the Mooncake trace (tests/inputs/serve_mooncake.yaml): every declared parameter
of the systems, the pool and its tiers, the batching, the workload and the SLO changes a result,
malformed trace lines are skipped and counted on request, and the same seed gives the same
bytes."""
import csv
import filecmp
import json
import os

from harness import check, check_close, finish, phase_metrics, run, scratch_dir

MC = "tests/inputs/serve_mooncake.yaml"
LIGHT = "phases.chat.workload.rate_scale=0.4"
VLLM = "phases.chat.system={impl: vllm, instances: colocated}"


def mc(*sets):
    return phase_metrics(MC, "chat", *sets)


def differs(a, b, keys=("slo_attainment", "mean_ttft_s", "mean_slo_tbt_s", "tokens_per_s", "prefix_hit_ratio",
                        "kv_bytes_transferred", "evicted_blocks", "rejected", "preemptions", "requests",
                        "gpu_utilization")):
    return any(a[k] != b[k] for k in keys)


base = mc(LIGHT)
check(base["completed"] == base["requests"] > 300, f"{base['completed']} of {base['requests']} requests complete")
check(base["prefix_hit_ratio"] > 0.05, f"the pool gives prefix hits: {base['prefix_hit_ratio']:.3f}")
check(base["kv_bytes_transferred"] > 0 and base["pool_peak_bytes"] > 0, "KV moves and the pool fills")

# The pool is where hits come from: without it (1 GB) and without the local HBM cache, hits vanish.
no_pool = mc(LIGHT, "phases.chat.system.local_cache=false", "services.kvpool.capacity=1GB")
check(no_pool["prefix_hit_ratio"] < 0.01, f"no pool, no local cache: hit ratio {no_pool['prefix_hit_ratio']:.3f}")
check(no_pool["evicted_blocks"] > 1000, f"a 1 GB pool evicts: {no_pool['evicted_blocks']}")
check(no_pool["mean_ttft_s"] > base["mean_ttft_s"], "losing the prefix hits costs TTFT")
# The SSD tier brings the hits back when the pool is too small.
ssd = mc(LIGHT, "phases.chat.system.local_cache=false", "services.kvpool.capacity=1GB",
         "phases.chat.system.ssd={storage: flash, capacity: 10TB}")
check(ssd["prefix_hit_ratio"] > 0.05, f"SSD tier: hit ratio {ssd['prefix_hit_ratio']:.3f}")
check(differs(ssd, mc(LIGHT, "phases.chat.system.local_cache=false", "services.kvpool.capacity=1GB",
                      "phases.chat.system.ssd={storage: flash, capacity: 100GB}")), "ssd.capacity changes results")
check(differs(base, mc(LIGHT, "phases.chat.system.local_cache=false")), "local_cache changes results")
# The tier cannot count on more than its storage holds: refused at load, or (striping fills one
# disk first) an error when a block finds no room, never a block silently lost.
tiny_disks = ["platform.groups.ssd.disks.capacity=10GB", "phases.chat.workload.duration=60s"]
for capacity, code, text in [("1PB", 2, "1 PB is more than storage 'flash' holds (80 GB on all its disks)"),
                             ("80GB", 1, "is full")]:
    out = os.path.join(scratch_dir(), "o")
    _, _, err = run("run", MC, "--out", out, "--set", f"phases.chat.system.ssd={{storage: flash, capacity: {capacity}}}",
                    *[a for s in tiny_disks for a in ("--set", s)], expect=code)
    check(text in err and not os.path.exists(out), f"ssd.capacity {capacity} on 80 GB of disks: {err.strip()}")

# Eviction policies under a pool that holds a fraction of the blocks.
small = [LIGHT, "phases.chat.system.local_cache=false", "services.kvpool.capacity=100GB"]
policies = {p: mc(*small, f"services.kvpool.eviction.impl={p}") for p in ["lru", "lfu", "length_aware"]}
check(policies["lru"]["evicted_blocks"] > 0, "the small pool evicts")
check(differs(policies["lru"], policies["lfu"]) and differs(policies["lru"], policies["length_aware"]),
      "lfu and length_aware differ from lru: " +
      ", ".join(f"{p} {m['prefix_hit_ratio']:.4f}" for p, m in policies.items()))

# The Conductor counts requests still loading their prefix from the pool: 40 requests sharing a
# prefix at once spread over both prefill instances (not all to the first).
d = scratch_dir()
shared = os.path.join(d, "shared.jsonl")
with open(shared, "w") as f:
    f.write(json.dumps({"timestamp": 0, "input_length": 10240, "output_length": 2, "hash_ids": list(range(20))}) + "\n")
    for i in range(40):
        f.write(json.dumps({"timestamp": 60000, "input_length": 10240 + 512, "output_length": 2,
                            "hash_ids": list(range(20)) + [100 + i]}) + "\n")
route = scratch_dir()
run("run", MC, "--quiet", "--out", route, "--set", f"phases.chat.workload.trace={shared}",
    "--set", "phases.chat.workload.duration=1h", "--set", "phases.chat.system.local_cache=false")
with open(os.path.join(route, "chat_requests.csv")) as f:
    late = [r["instance"] for r in csv.DictReader(f)][1:]
check(min(late.count("0"), late.count("1")) >= 15, f"shared prefix: {late.count('0')} and {late.count('1')} requests")
# A request of one output token still writes its prompt's blocks to the pool.
once = os.path.join(d, "once.jsonl")
with open(once, "w") as f:
    for t, out in [(0, 1), (30000, 2)]:
        f.write(json.dumps({"timestamp": t, "input_length": 5120, "output_length": out, "hash_ids": list(range(10))}) + "\n")
m1 = mc(f"phases.chat.workload.trace={once}", "phases.chat.system.local_cache=false")
check(m1["prefix_hit_ratio"] == 0.5, f"the second request reuses the first's 10 blocks: {m1['prefix_hit_ratio']}")

# Early rejection rejects nothing that would have met the SLO: 12 prompts of 8,000 tokens at once
# on one prefill instance all make a 12 s TTFT (the last at about 11.7 s).
burst = ["phases.chat.workload={requests: 12, arrival: 0s, input_tokens: 8000, output_tokens: 2}",
         "platform.groups.prefill.count=1", "phases.chat.slo.ttft=12s", "phases.chat.slo.tbt=1s",
         "phases.chat.batching.scheduler=v0"]
check(mc(*burst)["slo_attainment"] == 1, "without early rejection all 12 meet the SLO")
check(mc(*burst, "phases.chat.system.early_rejection=true")["rejected"] == 0, "and early rejection rejects none")
check(mc(*burst, "phases.chat.slo.ttft=6s", "phases.chat.system.early_rejection=true")["rejected"] >= 5,
      "with a 6 s TTFT it rejects those that cannot make it")

# Early rejection: under overload it rejects, and fewer of those it admits miss the TTFT.
over = mc("phases.chat.workload.rate_scale=2")
early = mc("phases.chat.workload.rate_scale=2", "phases.chat.system.early_rejection=true")
check(over["rejected"] == 0 and early["rejected"] > 0, f"early rejection rejects {early['rejected']}")
check(early["mean_ttft_s"] < over["mean_ttft_s"], "and the admitted requests wait less")
# The hit ratio is over the admitted requests: a rejected prompt's blocks were never looked up.
d = scratch_dir()
run("run", MC, "--quiet", "--out", d, "--set", "phases.chat.workload.rate_scale=2",
    "--set", "phases.chat.system.early_rejection=true")
with open(os.path.join(d, "chat_requests.csv")) as f:
    rows = list(csv.DictReader(f))
admitted = [r for r in rows if r["rejected"] == "0"]
check(sum(r["rejected"] == "1" for r in rows) == early["rejected"] > 0, "the CSV marks the rejected requests")
check_close(json.load(open(os.path.join(d, "summary.json")))["phases"]["chat"]["prefix_hit_ratio"],
            sum(int(r["hit_blocks"]) for r in admitted) / sum(int(r["blocks"]) for r in admitted), 1e-9,
            "prefix_hit_ratio: hit blocks / blocks of the admitted requests")
with open(os.path.join(d, "chat_instances.csv")) as f:
    samples = [(float(r["time_s"]), float(r["busy_share"])) for r in csv.DictReader(f)]
check([t for t, _ in samples] == sorted(t for t, _ in samples) and all(0 <= b <= 1 + 1e-9 for _, b in samples),
      "instances.csv: rows in time order, busy shares in [0, 1]")
check(differs(base, mc(LIGHT, "platform.groups.decode.count=1")), "the decode group's size changes results")
check(differs(base, mc(LIGHT, "platform.groups.prefill.count=1")), "the prefill group's size changes results")

# vllm on the colocated group: the router and prefix caching.
v = mc(LIGHT, VLLM)
check(v["completed"] == v["requests"] and v["kv_bytes_transferred"] == 0, "vllm completes and moves no KV")
check(v["prefix_hit_ratio"] == 0, "no prefix caching by default")
apc = mc(LIGHT, VLLM, "phases.chat.system.prefix_caching=true")
check(apc["prefix_hit_ratio"] > 0.01, f"prefix caching hits {apc['prefix_hit_ratio']:.3f}")
check(apc["mean_ttft_s"] < v["mean_ttft_s"], "and shortens the prefill")
check(differs(v, mc(LIGHT, VLLM, "phases.chat.system.router=round_robin")), "the router changes results")

# Batching parameters.
for key, value in [("max_batch_tokens", 2048), ("max_batch_size", 4), ("prefill_chunk", 128), ("scheduler", "v0")]:
    check(differs(v, mc(LIGHT, VLLM, f"phases.chat.batching.{key}={value}")), f"batching.{key} changes results")
# KV pressure: 25% of 640 GB of HBM leaves 19 GB after the weights, 58k tokens per instance.
TIGHT = "phases.chat.batching.gpu_memory_utilization=0.25"
tight = mc(LIGHT, VLLM, TIGHT)
check(tight["preemptions"] > 0 or tight["rejected"] > 0,
      f"a tight KV preempts ({tight['preemptions']}) or rejects ({tight['rejected']})")
check(differs(v, tight), "batching.gpu_memory_utilization changes results")
check(differs(tight, mc(LIGHT, VLLM, TIGHT, "phases.chat.batching.block_size=1024")), "batching.block_size changes results")

# Workload options.
check(mc(LIGHT, "phases.chat.workload.max_requests=50")["requests"] == 50, "max_requests")
check(mc(LIGHT, "phases.chat.workload.duration=30s")["requests"] < base["requests"], "duration")
first = mc(LIGHT, "phases.chat.workload.duration=30s")
check(differs(first, mc(LIGHT, "phases.chat.workload.duration=30s", "phases.chat.workload.start=30s")),
      "start moves the window")
# The window is in the trace's own time: rate_scale does not change which requests it keeps.
check(mc(LIGHT, "phases.chat.workload.duration=30s", "phases.chat.workload.rate_scale=4")["requests"] ==
      first["requests"], "the window is cut before rate_scale")
_, _, err = run("run", MC, "--out", os.path.join(scratch_dir(), "o"), "--set", "phases.chat.workload.start=10h",
                expect=2)
check(err.startswith("llsim: error: --set phases.chat.workload.start=10h: phases[0].workload.start: no request "
                     "arrives after the window's start: its requests arrive from 0 s to "),
      f"a window starting after the last request names the --set that emptied it: {err.strip()}")
_, _, err = run("run", MC, "--out", os.path.join(scratch_dir(), "o"), "--set", "phases.chat.workload.start=100s",
                "--set", "phases.chat.workload.duration=1ms", expect=2)
check("phases[0].workload.duration: no request arrives in the window [100 s, 100.001 s)" in err,
      f"a window too short for any arrival is blamed on its duration: {err.strip()}")
trunc = mc(LIGHT, "phases.chat.workload.max_input_tokens=1024", "phases.chat.workload.max_output_tokens=16")
check(trunc["mean_ttft_s"] < base["mean_ttft_s"] and trunc["tokens_per_s"] < base["tokens_per_s"], "truncation")
check(differs(base, mc(LIGHT, "phases.chat.workload.block_tokens=256")), "block_tokens changes results")
az = mc(LIGHT, "phases.chat.workload.trace=../../traces/azure_llm_inference_2023_conv.csv",
        "phases.chat.workload.format=azure")
check(az["requests"] > 100 and az["prefix_hit_ratio"] == 0, f"the Azure trace replays: {az['requests']} requests")

# SLO: the statistic and its tail.
for sets in [["phases.chat.slo.tbt_statistic=max"], ["phases.chat.slo.tbt_statistic=mean"],
             ["phases.chat.slo.tbt_tail=0.5"]]:
    m = mc(LIGHT, *sets)
    check(m["mean_slo_tbt_s"] != base["mean_slo_tbt_s"], f"{sets[0]} changes the TBT statistic")
check(mc(LIGHT, "phases.chat.slo.tbt_statistic=max")["mean_slo_tbt_s"] >= base["mean_slo_tbt_s"] >=
      mc(LIGHT, "phases.chat.slo.tbt_statistic=mean")["mean_slo_tbt_s"], "max >= tail mean >= mean")
check(mc(LIGHT, "phases.chat.slo.ttft=1s")["slo_attainment"] < base["slo_attainment"], "slo.ttft")

# Keys that would change nothing are refused.
for sets, text in [(["phases.chat.workload={requests: 5, arrival: 1s, input_tokens: 10, output_tokens: 5, format: azure}"],
                    "only for a trace"),
                   (["phases.chat.slo.tbt_statistic=mean", "phases.chat.slo.tbt_tail=0.2"], "only for tbt_statistic"),
                   (["phases.chat.workload.trace=../../traces/azure_llm_inference_2023_conv.csv",
                     "phases.chat.workload.format=azure", "phases.chat.workload.block_tokens=256"], "prefix blocks"),
                   (["phases.chat.workload.trace=../../traces/azure_llm_inference_2023_conv.csv",
                     "phases.chat.workload.format=null"], "give its format")]:
    _, _, err = run("run", MC, "--out", os.path.join(scratch_dir(), "x"), *[a for s in sets for a in ("--set", s)],
                    expect=2)
    check(text in err, f"{sets}: {err.strip()}")
table = os.path.join(scratch_dir(), "down.csv")
with open(table, "w") as f:
    f.write("kind,tokens,seconds\nprefill,0,1\nprefill,1000,0.1\ndecode,0,0.01\ndecode,10,0.02\n")
_, _, err = run("run", MC, "--out", os.path.join(scratch_dir(), "x"), "--set",
                f"phases.chat.iteration={{impl: table, file: {table}}}", expect=2)
check("must not decrease" in err, f"a decreasing table: {err.strip()}")

# Malformed lines: skipped and counted when asked.
d = scratch_dir()
bad = os.path.join(d, "bad.jsonl")
with open("traces/mooncake_conversation_trace.jsonl") as f, open(bad, "w") as out:
    for i, line in enumerate(f):
        # Line 6 is no JSON; line 10 asks for no output, as a trace logs a failed request.
        out.write("{not json\n" if i == 5 else line.replace('"output_length": ', '"output_length": 0, "x": ', 1)
                  if i == 9 else line)
        if i > 200:
            break
_, _, err = run("run", MC, "--out", os.path.join(d, "x"), "--set", f"phases.chat.workload.trace={bad}", expect=2)
check(f"{bad}:6:" in err, f"a malformed line is an error with its number: {err.strip()}")
skipped = mc(f"phases.chat.workload.trace={bad}", "phases.chat.workload.skip_bad_lines=true")
check(skipped["bad_lines"] == 2, f"skip_bad_lines counts {skipped['bad_lines']}")
check(skipped["requests"] == 200, f"the two skipped lines are not requests: {skipped['requests']} of 202 lines")

# The per-request and per-instance CSVs; the same seed gives the same bytes.
out1, out2 = scratch_dir(), scratch_dir()
for out in (out1, out2):
    run("run", MC, "--quiet", "--out", out, "--set", LIGHT)
with open(os.path.join(out1, "chat_requests.csv")) as f:
    rows = list(csv.DictReader(f))
check(len(rows) == base["requests"], "one row per request")
check(all(float(r["ttft_s"]) > 0 for r in rows), "every request has a TTFT")
for name in ["summary.json", "chat_requests.csv", "chat_instances.csv"]:
    a, b = os.path.join(out1, name), os.path.join(out2, name)
    if name == "summary.json":
        strip = lambda p: [l for l in open(p) if "wall_time" not in l]  # noqa: E731
        check(strip(a) == strip(b), "same seed, same summary.json")
    else:
        check(filecmp.cmp(a, b, shallow=False), f"same seed, same {name}")
coarse = scratch_dir()
run("run", MC, "--quiet", "--out", coarse, "--set", LIGHT, "--set", "phases.chat.sample_period=60s")
check(os.path.getsize(os.path.join(coarse, "chat_instances.csv")) < os.path.getsize(os.path.join(out1, "chat_instances.csv")),
      "sample_period sets the rows of the instances CSV")

finish()
