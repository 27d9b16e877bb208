"""Services through the `requests` phase: a metadata server against the M/M/1, M/M/c and M/D/1
closed forms, what rpc_size and the partitioning change, a memory pool's capacity and
eviction, hosts that are down serving nothing, and the per-server service CSV."""
import csv
import math
import os

from harness import check, check_close, finish, run, scratch_dir, summary

QUEUE = "tests/inputs/metadata_queue.yaml"
# One crossing: 5 us (client NIC) + 10 us (backbone) + 5 us (server NIC) + 1 KiB at 10 GB/s.
LEG = 20e-6 + 1024 / 10e9
MU = 10e3  # stats per second of one thread


def probe(*sets, scenario=QUEUE):
    out = scratch_dir()
    args = ["run", scenario, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    run(*args)
    return summary(out), out


def erlang_c(c, a):
    """Probability that an arrival waits in an M/M/c queue with offered load a = lambda / mu."""
    top = a ** c / math.factorial(c) * c / (c - a)
    return top / (sum(a ** k / math.factorial(k) for k in range(c)) + top)


# M/M/1: mean time in system 1 / (mu - lambda), plus the round trip. rho = 0.8 needs a million
# requests for the sample mean to settle well inside 3% (seeds 1-4 measured: 0.05-0.65%).
for rho, count in [(0.5, "200k"), (0.8, "1M")]:
    lam = rho * MU
    s, _ = probe(f"phases.probe.arrival={{dist: exponential, mean: {1e6 / lam}us}}", f"phases.probe.count={count}")
    m = s["phases"]["probe"]
    check_close(m["mean_latency_s"], 1 / (MU - lam) + 2 * LEG, 0.03, f"M/M/1 at rho {rho}")
    check(m["failed"] == 0 and m["completed"] == m["requests"], "every request answered")
    check_close(s["services"]["mds"]["utilisation"], rho, 0.03, f"M/M/1 utilisation at rho {rho}")

# M/M/4 at rho = 0.8: four threads, 40k stats/s for the server (10k/s each).
lam = 0.8 * 4 * MU
s, _ = probe("services.mds.threads=4", "services.mds.ops.stat=40k/s", "phases.probe.count=1M",
             f"phases.probe.arrival={{dist: exponential, mean: {1e6 / lam}us}}")
wait = erlang_c(4, lam / MU) / (4 * MU - lam)
check_close(s["phases"]["probe"]["mean_latency_s"], wait + 1 / MU + 2 * LEG, 0.03, "M/M/4 at rho 0.8")

# M/D/1 (service_time: constant) at rho = 0.8: the wait halves, rho / (2 mu (1 - rho)).
lam = 0.8 * MU
s, _ = probe("services.mds.service_time=constant", "phases.probe.count=1M",
             f"phases.probe.arrival={{dist: exponential, mean: {1e6 / lam}us}}")
check_close(s["phases"]["probe"]["mean_latency_s"], 0.8 / (2 * MU * 0.2) + 1 / MU + 2 * LEG, 0.03, "M/D/1 at rho 0.8")

# rpc_size: a 1 MB request and reply each cross the client's 1 GB/s NIC in 1 ms.
s, _ = probe("services.mds.rpc_size=1MB", "platform.groups.clients.nic.bandwidth=1GBps", "phases.probe.count=20k",
             "phases.probe.arrival={dist: exponential, mean: 1ms}")
check_close(s["phases"]["probe"]["mean_latency_s"], 1 / (MU - 1e3) + 2 * (20e-6 + 1e6 / 1e9), 0.05, "rpc_size")

# Partitioning: four servers; `single` sends every path to the first, `hashed` spreads 1000 paths.
FOUR = ["platform.groups.mds.count=4", "phases.probe.keys=1000", "phases.probe.count=100k",
        "phases.probe.arrival={dist: exponential, mean: 125us}"]
single, out_single = probe(*FOUR, "services.mds.model={impl: single}")
hashed, out_hashed = probe(*FOUR)


def operations_per_server(out):
    ops = {}
    with open(os.path.join(out, "service_mds.csv")) as f:
        for row in csv.DictReader(f):
            ops[row["server"]] = ops.get(row["server"], 0) + float(row["operations"])
    return ops


check(list(operations_per_server(out_single)) == ["mds-0"], f"single: {operations_per_server(out_single)}")
spread = operations_per_server(out_hashed)
check(len(spread) == 4 and min(spread.values()) > 0.2 * 100e3, f"hashed: {spread}")
check(hashed["phases"]["probe"]["mean_latency_s"] < 0.5 * single["phases"]["probe"]["mean_latency_s"],
      "hashing over four servers does not relieve the first")

# A host that is down serves nothing: the metadata server is down from 2 s to 3 s of a 10 s
# load; requests that meet it down fail, the others are answered.
DOWN = "faults=[{group: mds, impl: trace, file: metadata_down.csv}]"
s, _ = probe(DOWN, "phases.probe.count=50k")
m = s["phases"]["probe"]
check(0.08 * 50e3 < m["failed"] < 0.12 * 50e3, f"requests failed during the outage: {m['failed']}")
check(m["completed"] + m["failed"] == m["requests"], "every request ended")

# Memory pool: 1 GB blocks, room for 10 per server on 2 servers; 50 blocks put, then got.
POOL = "tests/inputs/memory_pool.yaml"
for eviction, kept in [("lru", "the last 20"), ("none", "the first 20")]:
    s, out = probe("services.kv.eviction={impl: " + eviction + "}", scenario=POOL)
    kv = s["services"]["kv"]
    gets = s["phases"]["get"]
    check(kv["stored_bytes"] <= 2 * 10e9, f"{eviction}: the pool holds {kv['stored_bytes']} B")
    check(gets["hits"] + gets["misses"] == 50, f"{eviction}: {gets['hits']} hits, {gets['misses']} misses")
    if eviction == "lru":
        check(kv["evictions"] >= 30 and kv["rejected_puts"] == 0, f"lru: {kv['evictions']} evictions")
    else:
        check(kv["evictions"] == 0 and kv["rejected_puts"] >= 30, f"none: {kv['rejected_puts']} rejected")
    check(15 <= gets["hits"] <= 20, f"{eviction} keeps {kept}: {gets['hits']} hits")
    # service_kv.csv: each server's stored bytes over time, never above its capacity, ending at
    # the total in summary.json.
    with open(os.path.join(out, "service_kv.csv")) as f:
        rows = list(csv.DictReader(f))
    last = {r["server"]: float(r["stored_bytes"]) for r in rows}
    check(max(float(r["stored_bytes"]) for r in rows) <= 10e9 and sum(last.values()) == kv["stored_bytes"],
          f"{eviction}: stored_bytes in service_kv.csv: last {last}, summary {kv['stored_bytes']}")
    check(kv["capacity_bytes"] == 2 * 10e9, f"pool capacity of 2 servers: {kv['capacity_bytes']}")
# A pool server that fails loses its blocks when it fails (cpu-0 down from 100 s to 200 s, after
# the puts, each server then holding 10 blocks, and long before the gets at 300 s): its level drops to 0 at the failure, and the gets
# of its blocks miss.
s, out = probe("faults=[{group: cpu, impl: trace, file: memory_pool_down.csv}]", "phases.get.start=300s",
               scenario=POOL)
kv = s["services"]["kv"]
with open(os.path.join(out, "service_kv.csv")) as f:
    levels = [(float(r["time_s"]), float(r["stored_bytes"])) for r in csv.DictReader(f) if r["server"] == "cpu-0"]
check(kv["lost_blocks"] == 10 and any(t == 110 and v == 0 for t, v in levels) and levels[0][1] > 0,
      f"cpu-0's 10 blocks are lost at its failure: lost {kv['lost_blocks']}, levels {levels[:4]}")
check(s["phases"]["get"]["hits"] == 10 and kv["stored_bytes"] == 10e9,
      f"gets after the failure find only cpu-1's 10 blocks: {s['phases']['get']['hits']} hits")
# A bigger pool holds them all.
s, _ = probe("services.kv.capacity=100GB", scenario=POOL)
check(s["services"]["kv"]["capacity_bytes"] == 200e9 and s["services"]["kv"]["stored_bytes"] == 50e9,
      f"a 100 GB pool per server holds every block: {s['services']['kv']}")
check(s["phases"]["get"]["hits"] == 50, f"a 100 GB pool misses: {s['phases']['get']['hits']}")
# A get that hits moves the block: 50 x 1 GB over the clients' 10 GB/s NICs take at least 5 s
# (the gets of 50 blocks are dealt over 2 clients: 2.5 s each at least).
check(s["phases"]["get"]["mean_latency_s"] >= 1e9 / 10e9, "a hit moved faster than the NIC")

# The service CSV: per server and time bucket.
_, out = probe("phases.probe.count=50k", "services.mds.sample_period=1s")
with open(os.path.join(out, "service_mds.csv")) as f:
    rows = list(csv.DictReader(f))
check(list(rows[0]) == ["time_s", "server", "bytes", "operations", "queue_length", "utilisation"],
      f"service CSV columns: {list(rows[0])}")
check(len(rows) >= 9 and all(0 <= float(r["utilisation"]) <= 1 for r in rows), "service CSV rows")
check_close(sum(float(r["operations"]) for r in rows), 50e3, 1e-9, "service CSV operations")
check_close(sum(float(r["bytes"]) for r in rows), 50e3 * 2 * 1024, 1e-9, "service CSV bytes: a 1 KiB request and reply per call")

finish()
