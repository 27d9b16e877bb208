"""Declared metrics against written ones: every phase kind and service kind declares its metrics
in a table (sim/core/metrics.hpp), which `llsim models --markdown` lists. The test inputs and the
fast paper scenarios are run, and for every kind the metrics summary.json holds are compared with
its table: each run writes its kind's metrics in the declared order, only declared ones (llsim
itself refuses to finish a run otherwise), and every declared metric is written by some run.
Every phase kind and service kind is run at least once. About 20 s on 2 cores."""
import glob
import os
import re

from harness import ROOT, check, finish, run, scratch_dir, summary

# Paper scenarios that run in a few seconds each (measured: 0.5 to 5 s); the others take 10 to 50 s.
FAST_PAPER = ["demo.yaml", "paper/young_daly.yaml", "paper/metadata_scaling.yaml", "paper/fuzzy_dedup.yaml",
              "paper/fastdecode.yaml", "paper/master_worker.yaml", "paper/nvm_journal.yaml"]
FAMILIES = ("phase", "service")
NOT_METRICS = {"kind", "start_s", "end_s"}  # what summary.json adds to a phase's or service's metrics


def declared_tables(text):
    """{(family, kind): [metric, ...]} and the units, from the output of `llsim models --markdown`."""
    tables, units, family, kind = {}, {}, None, None
    for line in text.splitlines():
        if m := re.match(r"## Interface `([a-z_]+)`", line):
            family, kind = m.group(1), None
        elif m := re.match(r"### `([a-z_]+)`", line):
            kind = m.group(1)
        elif line.startswith("Metrics (declared in") and family in FAMILIES:
            check(kind is not None and (family, kind) not in tables, f"one metrics table per kind: {line}")
            tables[(family, kind)] = []
        elif (family, kind) in tables and (m := re.match(r"\| `([A-Za-z0-9_]+)` \| ([^|]+) \|", line)):
            tables[(family, kind)].append(m.group(1))
            units[(family, kind, m.group(1))] = m.group(2).strip()
    return tables, units


def registered_kinds(text, family):
    section = text.split(f"## Interface `{family}`", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^### `([a-z_]+)`", section, re.M))


_, listing, _ = run("models", "--markdown")
tables, units = declared_tables(listing)
for family in FAMILIES:
    kinds = registered_kinds(listing, family)
    check(len(kinds) >= 4, f"{family}: kinds listed by llsim models: {sorted(kinds)}")
    for kind in kinds:
        check(len(tables.get((family, kind), [])) > 0, f"{family} '{kind}' declares its metrics (llsim models)")
check(units.get(("phase", "transfer", "throughput_Bps")) == "B/s" and
      units.get(("service", "storage", "bytes_written")) == "B", "the listing gives each metric's unit")

scenarios = sorted(glob.glob(os.path.join(ROOT, "tests/inputs/*.yaml")))
scenarios += [os.path.join(ROOT, "scenarios", s) for s in FAST_PAPER]
written = {}  # (family, kind) -> metrics written by some run
for path in scenarios:
    name = os.path.relpath(path, ROOT)
    out = scratch_dir()
    code, _, _ = run("run", name, "--quiet", "--out", out)
    if code != 0:
        continue
    s = summary(out)
    entries = [("phase", p, v) for p, v in s["phases"].items()] + [("service", n, v) for n, v in s["services"].items()]
    for family, entry, values in entries:
        key = (family, values["kind"])
        metrics = [k for k in values if k not in NOT_METRICS]
        table = tables.get(key, [])
        check(all(m in table for m in metrics),
              f"{name}: {family} '{entry}' ({key[1]}) writes only declared metrics: "
              f"{[m for m in metrics if m not in table]} undeclared")
        positions = [table.index(m) for m in metrics if m in table]
        check(positions == sorted(positions), f"{name}: {family} '{entry}' writes its metrics in the declared order")
        written.setdefault(key, set()).update(metrics)

for key, table in sorted(tables.items()):
    check(key in written, f"{key[0]} '{key[1]}' is run by one of the scenarios of this test")
    never = [m for m in table if m not in written.get(key, set())]
    check(not never, f"{key[0]} '{key[1]}': declared metrics no run wrote: {never}")
check(len(written) == len(tables), f"kinds run: {sorted(written)}, declared: {sorted(tables)}")

finish()
