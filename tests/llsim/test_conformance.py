"""Conformance: every registered implementation carries a minimal example in its file header, and
that example runs through llsim and selects it.

`llsim models` names each interface, its header and each implementation's registering file. The
file's leading comment must hold

    // Example (tests/llsim/test_conformance.py runs it):
    //   llsim run SCENARIO [--set PATH=VALUE]...

The example must exit 0, write a summary with metrics for every phase, and its resolved.json must
select the implementation at the place its family is chosen (not merely somewhere: 'none' and
'trace' are names in several families). The family's name is also its folder under models/ (the
service kinds register in sim/svc/, and each phase kind beside its runtime as
sim/<room>/<kind>_phase.cpp) and the name of its unit test, tests/unit/<family>_test.cpp.
"""
import json
import os
import re
import shlex

from harness import ROOT, check, finish, run, scratch_dir, summary

# Where each family is chosen in a scenario: a pattern of the path from the document's root to the
# mapping whose selector names the implementation ('*' is a list index or a free name).
SELECTED_AT = {
    "phase": r"phases\.\*",
    "service": r"services\.\*",
    "fault_model": r"faults\.\*",
    "task_scheduler": r"phases\.\*\.scheduler",
    "task_checkpointing": r"phases\.\*\.checkpoint",
    "checkpoint_layout": r"phases\.\*\.checkpoint\.layout",
    "checkpoint_policy": r"phases\.\*\.checkpoint\.policy",
    "checkpoint_mode": r"phases\.\*\.checkpoint\.mode",
    "file_state": r"phases\.\*\.checkpoint\.file_state",
    "ingest_workload": r"phases\.\*\.workload",
    "preprocess_engine": r"phases\.\*\.engine",
    "serve_system": r"phases\.\*\.system",
    "iteration_model": r"phases\.\*\.iteration",
    "metadata_model": r"services\.\*\.model",
    "journal_checkpoint": r"services\.\*\.journal\.checkpoint",
    "eviction_policy": r"services\.\*\.eviction",
    "autoscaler": r"phases\.\*\.autoscale",
    "router": r"phases\.\*\.system",
    "batch_scheduler": r"phases\.\*\.batching",
    "corpus_placement": r"phases\.\*\.placement",
}
NO_UNIT_TEST = {"phase", "service"}  # whole phases and services are checked through llsim


def catalogue():
    """[(family, selector, header, implementation, file)] from `llsim models`."""
    _, out, _ = run("models")
    rows, family = [], None
    for line in out.splitlines():
        m = re.match(r"Interface '([a-z_]+)':$", line)
        if m:
            family = m.group(1)
            continue
        m = re.match(r"  choose with '([a-z_]+):'; contract: (\S+?)(;|$)", line)
        if m and family:
            selector, header = m.group(1), m.group(2)
            continue
        m = re.match(r"  ([a-z_0-9]+): ", line)
        if m and family:
            name = m.group(1)
            continue
        m = re.match(r"      ((?:models|sim)/\S+\.cpp)$", line)
        if m and family:
            rows.append((family, selector, header, name, m.group(1)))
    return rows


def example_of(path):
    """The example command of a file's leading comment, or None."""
    lines = []
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            if not line.startswith("//"):
                break
            lines.append(line.rstrip("\n"))
    for i, line in enumerate(lines):
        if line.startswith("// Example") and i + 1 < len(lines):
            command = lines[i + 1][2:].strip()
            if command.startswith("llsim run "):
                return shlex.split(command)[2:]
    return None


def selections(node, path=""):
    """Every (path, mapping) of the resolved document, list indices and names written as '*'."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            # A mapping of free names (services, platform groups) or a list: its entries are '*'.
            step = "*" if path in ("services", "platform.groups") else key
            yield from selections(value, f"{path}.{step}" if path else step)
    elif isinstance(node, list):
        for item in node:
            yield from selections(item, f"{path}.*")


rows = catalogue()
check(len(rows) >= 59, f"llsim models lists {len(rows)} implementations")
families = sorted({r[0] for r in rows})
check(set(families) == set(SELECTED_AT), f"families {families} against the test's {sorted(SELECTED_AT)}")

for family in families:
    files = [r[4] for r in rows if r[0] == family]
    if family == "phase":  # a phase kind lives beside its runtime: sim/<room>/<kind>_phase.cpp
        names = [r[3] for r in rows if r[0] == family]
        check(all(re.fullmatch(rf"sim/[a-z_/]+/{n}_phase\.cpp", f) for n, f in zip(names, files)),
              f"phase: kinds not in sim/<room>/<kind>_phase.cpp: {files}")
    else:
        folder = "sim/svc/" if family == "service" else f"models/{family}/"
        check(all(f.startswith(folder) for f in files), f"{family}: implementations outside {folder}: {files}")
    header = next(r[2] for r in rows if r[0] == family)
    check(os.path.isfile(os.path.join(ROOT, header)), f"{family}: its header {header} does not exist")
    if family not in NO_UNIT_TEST:
        unit = f"tests/unit/{family}_test.cpp"
        check(os.path.isfile(os.path.join(ROOT, unit)), f"{family}: no unit test {unit}")

ran = 0
for family, selector, _, name, path in rows:
    args = example_of(path)
    if args is None:
        check(False, f"{family} '{name}': {path} has no '// Example' with an 'llsim run' line in its header")
        continue
    out = scratch_dir()
    code, _, err = run("run", *args, "--quiet", "--out", out)
    if code != 0:
        continue
    ran += 1
    phases = summary(out)["phases"]
    check(phases and all(phases.values()), f"{family} '{name}': a phase wrote no metrics: {phases}")
    with open(os.path.join(out, "resolved.json")) as f:
        resolved = json.load(f)
    where = [p for p, m in selections(resolved) if m.get(selector) == name]
    check(any(re.fullmatch(SELECTED_AT[family], p) for p in where),
          f"{family} '{name}': its example does not select it at {SELECTED_AT[family]} (found at {where})")

print(f"conformance: {ran} of {len(rows)} registered implementations ran their example through llsim")
check(ran == len(rows), "every registered implementation ran its example")
finish()
