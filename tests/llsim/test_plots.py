"""Plots (analysis/plot.py): one small run per phase kind with --plot writes the expected PNGs,
non-empty; plot.py picks days for a 6e6-second span and turns a service CSV's bytes per sample
into GB/s (the last, shorter sample by its own length); the rates it draws add up to the bytes in
summary.json; the serve plot's KV pool occupancy ends at the stored bytes summary.json gives; a
missing or invalid run directory is an error (exit 1, 'plot.py: ...').
Needs python3-matplotlib (run with /usr/bin/python3)."""
import os
import subprocess
import sys

from harness import ROOT, check, check_close, finish, run, scratch_dir, summary

sys.path.insert(0, os.path.join(ROOT, "analysis"))
import plot  # noqa: E402

PLOT_SCRIPT = os.path.join(ROOT, "analysis", "plot.py")

# Units: the time axis of a span, and bytes per sample period as GB/s.
check(plot.time_unit(6e6) == ("days", 86400.0), f"6e6 s shown in {plot.time_unit(6e6)}")
check(plot.time_unit(90)[0] == "s" and plot.time_unit(3000)[0] == "min" and plot.time_unit(50000)[0] == "h",
      f"90 s, 3000 s, 50000 s in {plot.time_unit(90)}, {plot.time_unit(3000)}, {plot.time_unit(50000)}")
samples_csv = os.path.join(scratch_dir(), "service_x.csv")
with open(samples_csv, "w") as f:
    f.write("time_s,server,bytes,operations,queue_length,utilisation\n"
            "10,s-0,20000000000,100,1.5,0.5\n"
            "20,s-0,35000000000,50,0,0.25\n"
            "20,s-1,5000000000,10,0,0.1\n"
            "25,s-1,10000000000,5,0,0.2\n")
samples = plot.read_service(samples_csv, 10.0, 25.0, servers=2)
gbps = [b * 1e-9 for b in samples.total["bytes"]]
check(len(gbps) == 3, f"three sample periods in 25 s of 10 s samples: {samples.edges}")
for got, expected, what in zip(gbps, [2.0, 4.0, 2.0], ["20 GB in 10 s", "35 + 5 GB in 10 s", "10 GB in the last 5 s"]):
    check_close(got, expected, 1e-9, f"GB/s of {what}")
check_close(samples.total["operations"][0], 10.0, 1e-9, "100 operations in 10 s are 10 ops/s")
check_close(samples.mean("utilisation")[1], 0.175, 1e-9, "mean utilisation of two servers")
check_close(samples.peak["bytes"][1] * 1e-9, 3.5, 1e-9, "the busiest server's GB/s")

# One run per phase kind, with --plot: the PNGs each kind draws (idle services draw none).
KINDS = {
    "train": ("tests/inputs/train_symmetric.yaml", ["train", "service_fwd", "service_pfs", "service_mds"]),
    "tasks": ("tests/inputs/tasks_unreliable.yaml", ["bag", "bag_turnaround"]),
    "ingest": ("tests/inputs/ingest_mdtest.yaml", ["md", "md_latency", "service_mds"]),
    "preprocess": ("tests/inputs/preprocess_dedup.yaml", ["dedup", "dedup_bytes", "service_disks"]),
    "serve": ("tests/inputs/serve_mooncake.yaml", ["chat", "chat_over_time", "service_kvpool"]),
    "transfer": ("scenarios/demo.yaml", ["stage", "archive", "restage", "service_fs", "service_vault"]),
    "requests": ("tests/inputs/memory_pool.yaml", ["put", "get", "service_kv"]),
}
runs = {}
for kind, (scenario, names) in KINDS.items():
    out = scratch_dir()
    runs[kind] = out
    run("run", scenario, "--quiet", "--plot", "--out", out)
    for name in ["timeline"] + names:
        path = os.path.join(out, "plots", name + ".png")
        check(os.path.isfile(path) and os.path.getsize(path) > 1000, f"{kind}: plots/{name}.png missing or empty")
    if kind == "train":
        check(not os.path.exists(os.path.join(out, "plots", "service_nvme.png")),
              "an idle service (nvme of train_symmetric) draws no empty plot")

# The rates drawn for a service add up to the bytes and operations summary.json gives it.
s = summary(runs["train"])
pfs = plot.read_service(os.path.join(runs["train"], "service_pfs.csv"), s["services"]["pfs"]["sample_period_s"],
                        s["simulated_time_s"])
spans = [b - a for a, b in zip(pfs.edges, pfs.edges[1:])]
check_close(sum(r * d for r, d in zip(pfs.total["bytes"], spans)), s["services"]["pfs"]["bytes"], 1e-6,
            "pfs: GB/s times sample lengths gives the bytes in summary.json")
check_close(sum(r * d for r, d in zip(pfs.total["operations"], spans)), s["services"]["pfs"]["operations"], 1e-6,
            "pfs: ops/s times sample lengths gives the operations in summary.json")

# The serve SLO comes from resolved.yaml.
slo = plot.read_resolved(runs["serve"])["phases"]["chat"]["slo"]
check(plot.parse_duration(slo["ttft"]) == 30.0 and plot.parse_duration(slo["tbt"]) == 0.1, f"serve SLO read: {slo}")

# The serve phase's KV pool occupancy: the stored bytes drawn end at what summary.json says the
# pool holds at the end, and stay under its capacity.
import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
serve_run = plot.Run(runs["serve"], plt)
check(plot.serve_pool(serve_run, "chat") == "kvpool", "the serve phase's pool is found from resolved.yaml")
s = summary(runs["serve"])
fig, ax = plt.subplots()
chat = s["phases"]["chat"]
plot.draw_pool_occupancy(ax, serve_run, "kvpool", plot.TimeAxis(chat["start_s"], chat["end_s"]))
stored, capacity = ax.lines[0].get_ydata(), ax.lines[1].get_ydata()[0]
check_close(stored[-1] * 1e12, s["services"]["kvpool"]["stored_bytes"], 1e-9, "pool occupancy at the phase's end")
check(max(stored) <= capacity and capacity * 1e12 == s["services"]["kvpool"]["capacity_bytes"],
      f"pool occupancy under its capacity: peak {max(stored)} TB of {capacity} TB")
# Nothing is evicted in this run (1.4 TB of 4 TB), so the pool only grows.
check(all(b >= a for a, b in zip(stored, stored[1:])) and stored[-1] > stored[0],
      "the drawn pool occupancy grows when nothing is evicted")
plt.close(fig)
# A server's level between samples: 0 until its first active period, flat across idle periods
# (5 GB from 10 s until the period ending at 300 s starts), a straight line within an active one.
curve = plot.level_curve([(10.0, 5e9), (300.0, 0.0), (304.5, 2e9)], 10.0)
for t, expected in [(0, 0), (5, 2.5e9), (10, 5e9), (200, 5e9), (290, 5e9), (295, 2.5e9), (300, 0), (302.25, 1e9),
                    (400, 2e9)]:
    check(abs(plot.level_at(curve, t) - expected) <= 1e-3, f"stored level at {t} s: {plot.level_at(curve, t)}, "
          f"expected {expected}")

# A missing or invalid run directory: exit 1 and a message naming plot.py.
bad_summary = scratch_dir()
with open(os.path.join(bad_summary, "summary.json"), "w") as f:
    f.write("{not json")
for directory, words in [(os.path.join(scratch_dir(), "absent"), "no such directory"),
                         (scratch_dir(), "no summary.json"), (bad_summary, "not valid JSON")]:
    proc = subprocess.run([sys.executable, PLOT_SCRIPT, directory], capture_output=True, text=True)
    check(proc.returncode == 1 and proc.stderr.startswith("plot.py: ") and words in proc.stderr,
          f"plot.py {directory}: exit {proc.returncode}, {proc.stderr!r}")

# resolved.yaml keeps the style a scenario was written in: block mappings and lists nest.
d = scratch_dir()
with open(os.path.join(d, "resolved.yaml"), "w") as f:
    f.write("platform:\n  groups:\n    a: {count: 2}\nservices:\n  fs: {kind: storage}\nphases:\n"
            "  - name: t\n    kind: train\n    restart:\n      delay: 10min\n      give_up_after: 3\n"
            "    after:\n      - x\n      - y\n    io: {storage: fs}\n  - name: x\n    kind: transfer\n")
resolved = plot.read_resolved(d)
check(resolved["phases"]["t"]["restart"] == {"delay": "10min", "give_up_after": "3"} and
      resolved["phases"]["t"]["after"] == ["x", "y"] and resolved["phases"]["t"]["io"] == {"storage": "fs"} and
      resolved["phases"]["x"]["kind"] == "transfer" and resolved["groups"] == {"a": {"count": "2"}} and
      resolved["services"] == {"fs": {"kind": "storage"}}, f"read_resolved of block YAML: {resolved}")

finish()
