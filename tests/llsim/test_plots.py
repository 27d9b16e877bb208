"""Plots (analysis/plot.py and its modules, analysis/plots/): one small run per phase kind with
--plot writes the expected PNGs, non-empty, and a report.md that lists them; every phase kind
has its plotter. resolved.json holds resolved.yaml's tree (the same top-level keys, groups,
services and phases with their kinds), JSON numbers and true/false typed with their text
unchanged, everything else text; the plots read it with every scalar as text. plot.py picks days
for a 6e6-second span and turns a service CSV's bytes per sample into GB/s (the last, shorter
sample by its own length); the rates it draws add up to the bytes in summary.json; the serve
plot's KV pool occupancy ends at the stored bytes summary.json gives, and its KV legend names
the instances by role; a service plot draws servers whose values in a panel are the same once,
named for all of them ('fwd-0–7 (8 identical)'), keeps a server's colour in every panel and gives
a panel whose lines differ from the top panel's a legend; a missing or invalid run
directory is an error (exit 1, 'plot.py: ...').
Needs python3-matplotlib (run with /usr/bin/python3)."""
import json
import os
import re
import subprocess
import sys

from harness import ROOT, check, check_close, finish, run, scratch_dir, summary

sys.path.insert(0, os.path.join(ROOT, "analysis"))
import plot  # noqa: E402
from plots import common, serve, services  # noqa: E402

PLOT_SCRIPT = os.path.join(ROOT, "analysis", "plot.py")

# Units: the time axis of a span, and bytes per sample period as GB/s.
check(common.time_unit(6e6) == ("days", 86400.0), f"6e6 s shown in {common.time_unit(6e6)}")
check(common.time_unit(90)[0] == "s" and common.time_unit(3000)[0] == "min" and common.time_unit(50000)[0] == "h",
      f"90 s, 3000 s, 50000 s in {common.time_unit(90)}, {common.time_unit(3000)}, {common.time_unit(50000)}")
samples_csv = os.path.join(scratch_dir(), "service_x.csv")
with open(samples_csv, "w") as f:
    f.write("time_s,server,bytes,operations,queue_length,utilisation\n"
            "10,s-0,20000000000,100,1.5,0.5\n"
            "20,s-0,35000000000,50,0,0.25\n"
            "20,s-1,5000000000,10,0,0.1\n"
            "25,s-1,10000000000,5,0,0.2\n")
samples = common.read_service(samples_csv, 10.0, 25.0, servers=2)
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
    "dlio": ("tests/inputs/dlio.yaml", ["unet3d", "service_fs"]),
    "dlio_checkpoint": ("tests/inputs/dlio_checkpoint.yaml", ["ckpt", "service_fs"]),
}
# plot.py finds a kind's plotter by its name, plots/<kind>.py's plot_<kind>; any other kind (or a
# name that is no module's) draws its <phase>.csv with plot_series.
for kind in KINDS:
    found = plot.phase_plotter(kind)
    check(found.__module__ == f"plots.{kind}" and found.__name__ == f"plot_{kind}",
          f"the {kind} phase is drawn by plots/{kind}.py: {found.__module__}.{found.__name__}")
for kind in ("no_such_kind", "common", "../plot", None):
    check(plot.phase_plotter(kind) is plot.plot_series, f"a kind {kind!r} without plots of its own draws its CSV")


def yaml_blocks(path):
    """resolved.yaml's top-level keys in order, each with the lines of its block (its own line
    first). Enough of YAML for llsim's own output: top-level keys at column 0, nested ones indented
    by two spaces."""
    blocks = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        if not line[0].isspace():
            key = line.split(":", 1)[0]
            blocks[key] = []
        blocks[key].append(line.rstrip("\n"))
    return blocks


def keys_at(lines, indent):
    """The keys of the mapping entries of lines at exactly `indent` spaces."""
    return [l.strip().split(":", 1)[0] for l in lines if len(l) - len(l.lstrip()) == indent and l[indent] != "-"]


def phases_of(lines):
    """(name, kind) of each phase of the phases block, each written '- {name: n, kind: k, ...}' or
    as a block mapping whose first key is name ('- name: n', then '    kind: k' among its keys)."""
    items = []
    for line in lines[1:]:
        if line.startswith("  - "):
            items.append(line)
        elif items:
            items[-1] += "\n" + line
    out = []
    for item in items:
        name = re.match(r"  - \{?name: ([^,}\s]+)", item)
        kind = re.search(r"^    kind: (\S+)" if "{" not in item.split("\n")[0] else r"kind: ([^,}\s]+)", item, re.M)
        out.append((name.group(1) if name else None, kind.group(1) if kind else None))
    return out


def check_resolved_json(kind, out):
    """resolved.json beside resolved.yaml: the same top-level keys in order, the same groups and
    services, and the same phases with their kinds, in order."""
    path = os.path.join(out, "resolved.json")
    check(os.path.isfile(path), f"{kind}: resolved.json written")
    if not os.path.isfile(path):
        return
    tree = json.load(open(path))
    blocks = yaml_blocks(os.path.join(out, "resolved.yaml"))
    check(list(tree) == list(blocks),
          f"{kind}: resolved.json's top-level keys {list(tree)}, resolved.yaml's {list(blocks)}")
    groups = blocks["platform"][blocks["platform"].index("  groups:") + 1:]
    check(list(tree["platform"]["groups"]) == keys_at(groups, 4), f"{kind}: groups {list(tree['platform']['groups'])}")
    check(list(tree.get("services", {})) == keys_at(blocks.get("services", []), 2),
          f"{kind}: services {list(tree.get('services', {}))}")
    check([(p["name"], p["kind"]) for p in tree["phases"]] == phases_of(blocks["phases"]),
          f"{kind}: phases {[(p['name'], p['kind']) for p in tree['phases']]} against {phases_of(blocks['phases'])}")


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
    drawn = sorted(f for f in os.listdir(os.path.join(out, "plots")) if f.endswith(".png"))
    report = open(os.path.join(out, "report.md")).read() if os.path.isfile(os.path.join(out, "report.md")) else ""
    listed = report.partition("\n## Plots\n")[2]
    check(listed.split() == [f"![{f[:-4]}](plots/{f})" for f in drawn],
          f"{kind}: report.md lists the plots drawn, {drawn}: {listed!r}")
    check_resolved_json(kind, out)

# The rates drawn for a service add up to the bytes and operations summary.json gives it.
s = summary(runs["train"])
pfs = common.read_service(os.path.join(runs["train"], "service_pfs.csv"), s["services"]["pfs"]["sample_period_s"],
                        s["simulated_time_s"])
spans = [b - a for a, b in zip(pfs.edges, pfs.edges[1:])]
check_close(sum(r * d for r, d in zip(pfs.total["bytes"], spans)), s["services"]["pfs"]["bytes"], 1e-6,
            "pfs: GB/s times sample lengths gives the bytes in summary.json")
check_close(sum(r * d for r, d in zip(pfs.total["operations"], spans)), s["services"]["pfs"]["operations"], 1e-6,
            "pfs: ops/s times sample lengths gives the operations in summary.json")

# resolved.json's scalars: a JSON number or true/false as such, the rest text as written.
tree = json.load(open(os.path.join(runs["train"], "resolved.json")))
train = tree["phases"][0]
compute = tree["platform"]["groups"]["compute"]
check(compute["count"] == 256 and compute["nic"] == {"bandwidth": "10GBps", "latency": "1us"} and
      train["resume"] is True and train["iteration"] == "10s" and train["after"] == [] and
      train["restart"] == {"delay": "10min", "give_up_after": 1000, "swap_time": "0s"} and tree["faults"] == [],
      f"typed scalars of train_symmetric's resolved.json: {compute}, {train}")
for name, written in [("1e3", "1e3"), ("01", '"01"'), ("-2.50", "-2.50"), ("10GBps", '"10GBps"')]:
    out = scratch_dir()
    run("run", "tests/inputs/tasks_unreliable.yaml", "--quiet", "--set", f"name={name}", "--out", out)
    text = open(os.path.join(out, "resolved.json")).read()
    check(f'"name": {written},' in text, f"name {name} written as {written} in resolved.json: {text[:60]!r}")

# plot.py reads resolved.json with every scalar as the text llsim wrote (a name may look like a
# number; durations and flags are parsed by the plots).
d = scratch_dir()
with open(os.path.join(d, "resolved.json"), "w") as f:
    f.write('{"name": "x", "platform": {"groups": {"a": {"count": 2}}}, "services": {"7": {"kind": "storage", '
            '"servers": "a"}, "fs": {"kind": "storage", "servers": 1e3}}, "phases": [{"name": "t", "kind": "train", '
            '"resume": true, "after": ["x"], "restart": {"delay": "10min", "give_up_after": 3}}, {"name": "x", '
            '"kind": "transfer"}]}\n')
resolved = common.read_resolved(d)
check(resolved["phases"]["t"] == {"name": "t", "kind": "train", "resume": "true", "after": ["x"],
                                  "restart": {"delay": "10min", "give_up_after": "3"}} and
      resolved["phases"]["x"]["kind"] == "transfer" and resolved["groups"] == {"a": {"count": "2"}} and
      resolved["services"]["fs"]["servers"] == "1e3" and common.service_server_count(resolved, "7") == 2,
      f"read_resolved of resolved.json: {resolved}")
check(common.read_resolved(scratch_dir()) == {"groups": {}, "services": {}, "phases": {}},
      "a run directory without resolved.json: no settings")

# The serve SLO comes from resolved.json.
slo = common.read_resolved(runs["serve"])["phases"]["chat"]["slo"]
check(common.parse_duration(slo["ttft"]) == 30.0 and common.parse_duration(slo["tbt"]) == 0.1, f"serve SLO read: {slo}")

# The serve phase's KV pool occupancy: the stored bytes drawn end at what summary.json says the
# pool holds at the end, and stay under its capacity.
import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
serve_run = common.Run(runs["serve"], plt)
check(serve.serve_pool(serve_run, "chat") == "kvpool", "the serve phase's pool is found from resolved.json")
s = summary(runs["serve"])
fig, ax = plt.subplots()
chat = s["phases"]["chat"]
serve.draw_pool_occupancy(ax, serve_run, "kvpool", common.TimeAxis(chat["start_s"], chat["end_s"]))
stored, capacity = ax.lines[0].get_ydata(), ax.lines[1].get_ydata()[0]
check_close(stored[-1] * 1e12, s["services"]["kvpool"]["stored_bytes"], 1e-9, "pool occupancy at the phase's end")
check(max(stored) <= capacity and capacity * 1e12 == s["services"]["kvpool"]["capacity_bytes"],
      f"pool occupancy under its capacity: peak {max(stored)} TB of {capacity} TB")
# Nothing is evicted in this run (1.4 TB of 4 TB), so the pool only grows.
check(all(b >= a for a, b in zip(stored, stored[1:])) and stored[-1] > stored[0],
      "the drawn pool occupancy grows when nothing is evicted")
plt.close(fig)
# The KV legend of a disaggregated system names each instance by its role (<phase>_instances.csv
# carries it).
fig, ax = plt.subplots()
serve.draw_kv_use(ax, serve_run.rows("chat_instances.csv"), [chat["end_s"]],
                  common.TimeAxis(chat["start_s"], chat["end_s"]))
labels = ax.get_legend_handles_labels()[1]
check(labels == ["prefill instance 0", "prefill instance 1", "decode instance 2", "decode instance 3"],
      f"the KV legend names the instances' roles: {labels}")
plt.close(fig)
# An autoscaled phase: the instances panel draws the allocation after each decision (1 until the
# first decision at 10 s, then what it decided) and what the policy proposed.
scaled = scratch_dir()
run("run", "tests/inputs/autoscale.yaml", "--quiet", "--out", scaled)
scaled_run = common.Run(scaled, plt)
rows = scaled_run.rows("chat_scaling.csv")
phase = summary(scaled)["phases"]["chat"]
fig, ax = plt.subplots()
serve.draw_scaling(ax, rows, common.TimeAxis(phase["start_s"], phase["end_s"]), phase)
allocated = ax.get_lines()[0].get_ydata()
check(list(allocated[:3]) == [1, 8, 8] and allocated[-1] == float(rows[-1]["decided"]),
      f"the allocation drawn follows the decisions: {list(allocated[:3])} ... {allocated[-1]}")
check(ax.get_legend_handles_labels()[1] == ["allocated", "serving (seen at decisions)", "proposed by the policy"],
      "the instances panel's lines")
plt.close(fig)
# A server's level between samples: 0 until its first active period, flat across idle periods
# (5 GB from 10 s until the period ending at 300 s starts), a straight line within an active one.
curve = common.level_curve([(10.0, 5e9), (300.0, 0.0), (304.5, 2e9)], 10.0)
for t, expected in [(0, 0), (5, 2.5e9), (10, 5e9), (200, 5e9), (290, 5e9), (295, 2.5e9), (300, 0), (302.25, 1e9),
                    (400, 2e9)]:
    check(abs(common.level_at(curve, t) - expected) <= 1e-3, f"stored level at {t} s: {common.level_at(curve, t)}, "
          f"expected {expected}")

# Servers whose values in a panel are the same throughout are one line, named for all of them.
check(services.group_label([f"fwd-{i}" for i in range(8)]) == "fwd-0–7 (8 identical)" and
      services.group_label(["oss-0", "oss-2"]) == "oss-0, oss-2 (2 identical)" and services.group_label(["a"]) == "a",
      "identical servers named as a range when numbered in a row, else listed")
groups = services.identical_groups({"s-10": [1, 2], "s-2": [1, 2], "s-1": [0, 2]})
check(groups == [("s-1", 0, [0, 2]), ("s-2, s-10 (2 identical)", 1, [1, 2])],
      f"identical series grouped in the servers' natural order: {groups}")


class KeptFigures:
    """pyplot for a Run, except that a figure it saves and closes is kept for the checks."""

    def __init__(self):
        self.figures = []

    def subplots(self, *args, **kwargs):
        return plt.subplots(*args, **kwargs)

    def close(self, fig):
        self.figures.append(fig)


def servers_named(label):
    match = re.search(r"\((\d+) identical\)$", label)
    return int(match.group(1)) if match else 1


# Every service plot drawn per server: no two lines of a panel coincide, each panel's lines stand
# for every server once, a line has one colour in every panel, and a panel whose lines stand for
# other servers than the top panel's has a legend of its own.
legends = {}
for kind, out in runs.items():
    kept = KeptFigures()
    service_run = common.Run(out, kept)
    for name in summary(out)["services"]:
        samples = service_run.service(name)
        if samples is None or samples.per_server is None:
            continue
        services.plot_service(service_run, name)
        fig = kept.figures[-1]
        top = fig.axes[0].get_legend_handles_labels()[1]
        colours = {}
        for i, ax in enumerate(fig.axes):
            drawn = [(tuple(line.get_xdata()), tuple(line.get_ydata())) for line in ax.get_lines()]
            labels = ax.get_legend_handles_labels()[1]
            check(len(set(drawn)) == len(drawn), f"{kind}: service {name}, panel {i}: lines coincide: {labels}")
            check(sum(servers_named(label) for label in labels) == len(samples.per_server),
                  f"{kind}: service {name}, panel {i}: {labels} stand for the {len(samples.per_server)} servers")
            check(labels == top or ax.get_legend() is not None,
                  f"{kind}: service {name}, panel {i}: lines {labels}, other than the top panel's, without a legend")
            for line in ax.get_lines():
                colours.setdefault(line.get_label(), set()).add(line.get_color())
        check(all(len(c) == 1 for c in colours.values()), f"{kind}: service {name}: a line's colours {colours}")
        legends[kind, name] = [[t.get_text() for t in ax.get_legend().get_texts()] if ax.get_legend() else None
                               for ax in fig.axes]
        plt.close(fig)
# The memory pool's two servers move and hold the same blocks: one line per panel, named in the top
# panel's legend.
check(legends.get(("requests", "kv")) == [["cpu-0–1 (2 identical)"], None, None, None, None],
      f"memory_pool.yaml's kv: the legends {legends.get(('requests', 'kv'))}")

# A missing or invalid run directory: exit 1 and a message naming plot.py.
bad_summary = scratch_dir()
with open(os.path.join(bad_summary, "summary.json"), "w") as f:
    f.write("{not json")
for directory, words in [(os.path.join(scratch_dir(), "absent"), "no such directory"),
                         (scratch_dir(), "no summary.json"), (bad_summary, "not valid JSON")]:
    proc = subprocess.run([sys.executable, PLOT_SCRIPT, directory], capture_output=True, text=True)
    check(proc.returncode == 1 and proc.stderr.startswith("plot.py: ") and words in proc.stderr,
          f"plot.py {directory}: exit {proc.returncode}, {proc.stderr!r}")

finish()
