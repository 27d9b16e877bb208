#!/usr/bin/env python3
"""MLPerf Storage's own question, asked of llsim for every training row: the most accelerators
the row's storage system feeds at the workload's AU threshold, against the count submitted.

usage: analysis/mlperf_plan.py [--llsim build/llsim] [--out out/mlperf_plan] [--jobs J] [--rows N]
                               [--set PATH=VALUE]... [--held-out ERRORS.csv --coefficient KEY]

For each row of traces/calibration/mlperf_storage/training.csv it writes the scenario
analysis/mlperf_storage.py writes (the same assumptions), with a dataset big enough for the
largest count tried, and runs `llsim plan` over the accelerator counts FACTORS x the submitted
one (from the most to the fewest), keeping AU at or above the threshold (`au_passed`) and
maximizing the count. A step is one entry of that list (12.5% of the submitted count near it);
the answer is "within one step" when it is the submitted count or a neighbour in the list (an
answer at the list's top, twice the submission, may be more: the report writes it ">=").
It writes OUT/plans.csv and OUT/report.md. --set passes a scenario override to every plan (e.g.
a fitted coefficient); --rows N plans the first N rows only. --held-out ERRORS.csv (what
`llsim calibrate --storage --errors` wrote, its calibration CSV where calibrate read it) with
--coefficient KEY plans each row with the value of KEY fitted with its own submitter left out:
the accelerator count each row gets, predicted.
"""
import csv
import json
import math
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from mlperf_storage import scenario, steps, training_arguments, training_rows

FACTORS = [2, 1.75, 1.5, 1.25, 1.125, 1, 0.875, 0.75, 0.625, 0.5]


def counts(submitted):
    """The accelerator counts tried, from the most to the fewest, the submitted one among them."""
    return sorted({max(1, round(f * submitted)) for f in FACTORS}, reverse=True)


def held_out_values(path, key):
    """Per row name, `--set KEY=VALUE` with the value fitted without the row's submitter. The errors
    CSV of `llsim calibrate --storage` names each point FILE:LINE, a line of the calibration CSV
    it was given, whose scenario is the row's."""
    try:
        with open(path) as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"mlperf_plan.py: --held-out {path}: {e.strerror}")
    if not rows or not {"point", "held_out_value"} <= set(rows[0]):
        sys.exit(f"mlperf_plan.py: {path}: expected the CSV of `llsim calibrate --storage --errors` "
                 "(columns point, held_out_value, ...)")
    points = {}  # calibration CSV -> its lines
    values = {}
    for r in rows:
        where, _, line = r["point"].rpartition(":")
        if where not in points:
            try:
                with open(where) as f:
                    points[where] = f.read().splitlines()
            except OSError as e:
                sys.exit(f"mlperf_plan.py: {path}: point {r['point']}: cannot read {where}: {e.strerror}")
        lines = points[where]
        if not line.isdigit() or not 2 <= int(line) <= len(lines):
            sys.exit(f"mlperf_plan.py: {path}: point {r['point']} is no data line of {where}")
        if not r["held_out_value"]:
            sys.exit(f"mlperf_plan.py: {path}: point {r['point']} has no held-out fit (a single group)")
        scenario = next(csv.reader([lines[int(line) - 1]]))[0]
        values[os.path.splitext(os.path.basename(scenario))[0]] = f"{key}={r['held_out_value']}"
    return values


def plan(llsim, row, name, out, sets):
    listed = counts(int(row["num_accelerators"]))
    batch, per_file = int(row["batch_size"]), int(row["num_samples_per_file"])
    files = math.ceil(steps(row) * batch * listed[0] / per_file)
    path = os.path.join(out, "scenarios", name + ".yaml")
    with open(path, "w") as f:
        f.write(scenario(row, name))
    args = [llsim, "plan", path, "--axis", "phases.train.accelerators=" + ",".join(map(str, listed)),
            "--target", "train.au_passed>=1", "--objective", "train.accelerators", "--maximize",
            "--out", os.path.join(out, "plans", name), "--set", f"phases.train.files={files}"]
    for s in sets:
        args += ["--set", s]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode not in (0, 3):  # 3: no count met the threshold
        sys.exit(f"mlperf_plan.py: llsim plan failed on {path}:\n{done.stderr}")
    with open(os.path.join(out, "plans", name, "answer.json")) as f:
        answer = json.load(f)
    found = int(answer["point"]["phases.train.accelerators"]) if answer["feasible"] else 0
    return listed, found


def main():
    parser = training_arguments(__doc__, "out/mlperf_plan")
    parser.add_argument("--set", action="append", default=[], help="a scenario override for every plan")
    parser.add_argument("--held-out", help="calibrate's errors CSV: each row planned with its held-out fit")
    parser.add_argument("--coefficient", help="the key the errors CSV fitted (with --held-out)")
    args = parser.parse_args()
    if bool(args.held_out) != bool(args.coefficient):
        parser.error("--held-out and --coefficient go together")
    rows = training_rows(args.rows)
    names = [f"row{i:02d}_{r['submitter']}_{r['workload']}_{r['accelerator']}_{r['num_accelerators']}"
             for i, r in enumerate(rows)]
    fitted = held_out_values(args.held_out, args.coefficient) if args.held_out else None
    missing = [n for n in names if fitted is not None and n not in fitted]
    if missing:  # before any plan runs
        sys.exit(f"mlperf_plan.py: {args.held_out} has no point for {', '.join(missing[:3])}"
                 f"{f' and {len(missing) - 3} more' if len(missing) > 3 else ''} (plan fewer --rows)")

    def row_sets(name):
        return [fitted[name]] if fitted is not None else []

    os.makedirs(os.path.join(args.out, "scenarios"), exist_ok=True)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda j: plan(args.llsim, rows[j], names[j], args.out, args.set + row_sets(names[j])),
                                range(len(rows))))
    plans = []
    for row, name, (listed, found) in zip(rows, names, results):
        submitted = int(row["num_accelerators"])
        at = listed.index(submitted)
        off = abs(listed.index(found) - at) if found in listed else len(listed) - at
        plans.append({"row": name, "workload": row["workload"], "submitted": submitted,
                      "llsim": f">= {found}" if found == listed[0] else found if found else f"< {listed[-1]}",
                      "steps_off": off,
                      "within_one_step": off <= 1})
    with open(os.path.join(args.out, "plans.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(plans[0]))
        writer.writeheader()
        writer.writerows(plans)
    within = sum(p["within_one_step"] for p in plans)
    lines = [f"# MLPerf Storage training rows: the most accelerators at the AU threshold, llsim plan against "
             f"the submission{' (' + ', '.join(args.set) + ')' if args.set else ''}"
             f"{f' ({args.coefficient} fitted with each submitter left out)' if args.held_out else ''}", "",
             f"{len(plans)} rows; {within} ({100 * within / len(plans):.0f}%) within one step of the submitted "
             f"count; median steps off {statistics.median(p['steps_off'] for p in plans)}.", "",
             "| row | submitted | llsim plan | steps off |", "|---|---|---|---|"]
    for p in plans:
        lines.append(f"| {p['row']} | {p['submitted']} | {p['llsim']} | {p['steps_off']} |")
    report = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(report)
    print(report)


if __name__ == "__main__":
    main()
