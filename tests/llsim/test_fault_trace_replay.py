"""The InfiniteHBD fault trace replayed through llsim (fault model `infinitehbd` on
scenarios/paper/infinitehbd.yaml): the job's interruptions checked one by one against the file,
in time, node and cause, for the three node mappings; the trace's per-class statistics from
`llsim trace stats` against an independent reading of the file."""
import csv
import json
import math
import os

from harness import ROOT, check, check_close, finish, run, run_out, scratch_dir, summary

SCENARIO = "scenarios/paper/infinitehbd.yaml"
TRACE = os.path.join(ROOT, "traces", "infinitehbd_fault_trace.json")
UNLIMITED = "phases.0.restart={delay: 10min, swap_time: 10min}"  # every failure finds a spare

with open(TRACE) as f:
    events = json.load(f)
nodes = []
for e in events:
    if e["node_id"] not in nodes:
        nodes.append(e["node_id"])


def outages_per_node():
    """Each node's faults paired (an end closes the earliest open start of the same type) and
    merged where they overlap: (start_s, end_s, cause) lists, cause of the first fault."""
    opened, faults = {}, {}
    for e in events:
        t = e["fault_type"]
        key = (e["node_id"], t["Level"], t["Class"], t["Desc"])
        when = e["event_time"] * 86400
        if e["event_type"] == "fault_start":
            opened.setdefault(key, []).append(when)
        else:
            start = opened[key].pop(0)
            faults.setdefault(e["node_id"], []).append((start, when, f"{t['Level']}/{t['Class']}"))
    merged = {}
    for node, fs in faults.items():
        out = []
        for start, end, cause in sorted(fs, key=lambda x: x[0]):  # stable: file order on ties
            if out and start <= out[-1][1]:
                out[-1] = (out[-1][0], max(out[-1][1], end), out[-1][2])
            else:
                out.append((start, end, cause))
        merged[node] = out
    return merged


def expected_failures(host_of, makespan):
    """The job's interruptions: every outage start on its hosts before the end; outages starting
    at the same instant on several hosts interrupt it once (the lowest host is named)."""
    starts = {}
    for node, outs in outages_per_node().items():
        for start, end, cause in outs:
            if start < makespan:
                h = host_of[node]
                if start not in starts or h < starts[start][0]:
                    starts[start] = (h, cause, end)
    return [(t, h, c, e) for t, (h, c, e) in sorted(starts.items())]


def failures(out):
    with open(os.path.join(out, "train_failures.csv")) as f:
        return [(float(r["time_s"]), int(r["node"]), r["cause"], float(r["node_up_s"])) for r in csv.DictReader(f)]


def compare(out, host_of, label):
    m = summary(out)["phases"]["train"]
    got, want = failures(out), expected_failures(host_of, m["makespan_s"])
    check(len(want) > 250, f"{label}: the run meets most of the trace ({len(want)} interruptions)")
    check(len(got) == len(want), f"{label}: {len(got)} failures vs {len(want)} outages in the trace")
    mismatches = [(g, w) for g, w in zip(got, want) if g != w]
    check(not mismatches, f"{label}: failures differ from the trace, first {mismatches[:3]}")
    check(m["failures"] == len(want), f"{label}: the failures metric counts them")
    return m


order = {n: i for i, n in enumerate(nodes)}
out = run_out(SCENARIO, UNLIMITED)
m = compare(out, order, "map: order")
# Every host an interruption takes down (all of those failing at its instant) is swapped for a
# spare, unless it is back within the 10-min swap time.
swapped = sum(1 for outs in outages_per_node().values() for start, end, _ in outs
              if start < m["makespan_s"] and end - start > 600)
check(m["spare_swaps"] == swapped, f"every host down for longer than the swap finds a spare: {m['spare_swaps']} "
      f"swaps vs {swapped}")
merged = sum(len(o) for o in outages_per_node().values())
check(len(nodes) == 231 and merged == 582, f"231 nodes, 584 faults merged into 582 outages: {len(nodes)}, {merged}")

# map: file, node i on host 399 - i.
mapping = os.path.join(scratch_dir(), "mapping.csv")
with open(mapping, "w") as f:
    f.write("node_id,host\n" + "".join(f"{n},gpu-{399 - i}\n" for i, n in enumerate(nodes)))
reverse = {n: 399 - i for i, n in enumerate(nodes)}
compare(run_out(SCENARIO, UNLIMITED, f"faults.0={{group: gpu, impl: infinitehbd, "
                                     f"file: ../../traces/infinitehbd_fault_trace.json, map: file, mapping: {mapping}}}"),
        reverse, "map: file")

# map: random: the same outages on distinct hosts drawn with the seed; another seed, other hosts.
RANDOM = "faults.0.map=random"
a, b, c = run_out(SCENARIO, UNLIMITED, RANDOM), run_out(SCENARIO, UNLIMITED, RANDOM), \
    run_out(SCENARIO, UNLIMITED, RANDOM, "seed=2")
check(failures(a) == failures(b), "map: random is the same with the same seed")
check([r[0] for r in failures(a)] == [r[0] for r in failures(out)], "map: random keeps the trace's times")
check([r[1] for r in failures(a)] != [r[1] for r in failures(c)], "map: random places nodes by the seed")
starts = [s for o in outages_per_node().values() for s, _, _ in o]
shared = {t for t in starts if starts.count(t) > 1}  # several nodes at once: the lowest host is named
placed = {}
for (t, h, cause, up), (_, node_order, _, _) in zip(failures(a), failures(out)):
    if t not in shared:
        placed.setdefault(node_order, set()).add(h)
check(all(len(hs) == 1 for hs in placed.values()) and len({min(hs) for hs in placed.values()}) == len(placed),
      "map: random puts each node on one host of its own")

# Without spares the job waits for each failed server's repair (the trace's fault_end).
none = summary(run_out(SCENARIO, "phases.0.restart={delay: 10min, spares: 0}"))["phases"]["train"]
check(none["host_wait_s"] > 10 * m["host_wait_s"] and none["goodput"] < m["goodput"],
      f"spares: 0 waits for repairs: {none['host_wait_s']:.0f} s vs {m['host_wait_s']:.0f} s")

# trace stats against the file.
_, text, _ = run("trace", "stats", "traces/infinitehbd_fault_trace.json", "--nodes", "400", "--json")
stats = json.loads(text)
span = max(e["event_time"] for e in events) * 86400
paired = []
opened = {}
for e in events:
    t = e["fault_type"]
    key = (e["node_id"], t["Level"], t["Class"], t["Desc"])
    if e["event_type"] == "fault_start":
        opened.setdefault(key, []).append(e["event_time"] * 86400)
    else:
        paired.append((f"{t['Level']}/{t['Class']}", e["event_time"] * 86400 - opened[key].pop(0)))
check(stats["all"]["faults"] == 584 and stats["nodes_with_faults"] == 231, "584 faults on 231 nodes")
check_close(stats["span_s"], span, 1e-12, "span: the last event")
for cause in {c for c, _ in paired}:
    ds = sorted(d for c, d in paired if c == cause)
    s = stats["causes"][cause]
    check(s["faults"] == len(ds), f"{cause}: faults")
    check_close(s["node_mtbf_s"], 400 * span / len(ds), 1e-12, f"{cause}: node MTBF = 400 x span / faults")
    p50 = ds[max(math.ceil(0.5 * len(ds)), 1) - 1]
    check(abs(s["repair_s"]["p50"] - p50) < 1e-6 and abs(s["repair_s"]["max"] - ds[-1]) < 1e-6,
          f"{cause}: repair p50 and max")
gpu_total = stats["classes"]["gpu"]["faults"] + stats["classes"]["hbm"]["faults"]
check(gpu_total == 158, f"the trace's 158 GPU faults are gpu or hbm (ECC errors): {gpu_total}")
_, _, err = run("trace", "stats", "traces/infinitehbd_fault_trace.json", "--nodes", "100", expect=2)
check("fewer than the 231 nodes" in err, f"--nodes below the trace's nodes: {err.strip()}")
for bad in ["0", "-3", "x"]:
    _, _, err = run("trace", "stats", "traces/infinitehbd_fault_trace.json", "--nodes", bad, expect=2)
    check(f"expected a whole number of nodes >= 1, got '{bad}'" in err, f"--nodes {bad}: {err.strip()}")

finish()
