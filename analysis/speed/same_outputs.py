#!/usr/bin/env python3
"""Runs every scenario under scenarios/ with one llsim binary, or compares two such runs.

    same_outputs.py run BUILD/llsim DIR [SCENARIO ...]   # DIR/<scenario path>/ per scenario
    same_outputs.py compare DIR_A DIR_B

`compare` checks that each scenario's summary.json is byte-identical once its wall-clock figure
(`wall_time_s`) is set aside, and that every other output file (CSVs, resolved.*) is byte-identical,
and prints each difference. It exits 1 on any. report.md and the plots are left out: they print the
wall time. Scenarios that `llsim run` refuses (a plan's file) are recorded as such and compared
by their error text.
"""
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WALL_FIELDS = ("wall_time_s",)
SKIPPED = ("report.md",)


def scenarios():
    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, "scenarios")):
        found += [os.path.relpath(os.path.join(folder, f), ROOT) for f in files if f.endswith(".yaml")]
    return sorted(found)


def run_all(llsim, out_dir, chosen):
    for scenario in chosen or scenarios():
        target = os.path.join(out_dir, scenario[: -len(".yaml")])
        os.makedirs(os.path.dirname(target), exist_ok=True)
        started = time.time()
        done = subprocess.run([llsim, "run", scenario, "--quiet", "--out", target], cwd=ROOT,
                              capture_output=True, text=True)
        if done.returncode != 0:
            os.makedirs(target, exist_ok=True)
            with open(os.path.join(target, "refused.txt"), "w") as f:
                f.write(done.stderr.replace(ROOT, "ROOT"))
        print(f"{scenario}: exit {done.returncode}, {time.time() - started:.1f} s", flush=True)


def without_wall(path):
    with open(path) as f:
        summary = json.load(f)
    for field in WALL_FIELDS:
        summary.pop(field, None)
    return json.dumps(summary, indent=2)


def compare(a_dir, b_dir):
    differences = 0
    compared = 0
    for folder, _, files in os.walk(a_dir):
        for name in sorted(files):
            if name in SKIPPED or name.endswith(".png"):
                continue
            a = os.path.join(folder, name)
            b = os.path.join(b_dir, os.path.relpath(a, a_dir))
            if not os.path.exists(b):
                print(f"only in {a_dir}: {os.path.relpath(a, a_dir)}")
                differences += 1
                continue
            compared += 1
            if name == "summary.json":
                same = without_wall(a) == without_wall(b)
            else:
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    same = fa.read() == fb.read()
            if not same:
                print(f"differs: {os.path.relpath(a, a_dir)}")
                differences += 1
    for folder, _, files in os.walk(b_dir):
        for name in sorted(files):
            b = os.path.join(folder, name)
            if not os.path.exists(os.path.join(a_dir, os.path.relpath(b, b_dir))):
                print(f"only in {b_dir}: {os.path.relpath(b, b_dir)}")
                differences += 1
    print(f"{compared} files compared, {differences} differ")
    return 1 if differences or compared == 0 else 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "run":
        run_all(os.path.abspath(argv[1]), os.path.abspath(argv[2]), argv[3:])
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        return compare(argv[1], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
