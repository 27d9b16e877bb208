"""`llsim calibrate --storage` (issue 42, item 4) through the binary: on results that llsim itself
produced at process_bandwidth 0.5 GB/s (two groups: a ZeRO-3 save and a ZeRO-1 save and load of
llama3-8b), the grid fit recovers 0.5 GB/s on every row and with each group left out, with no
error; a range whose ends hide the answer is flagged; the errors CSV has every row; bad command
lines and points files are errors naming the file and line."""
import csv
import json
import os

from harness import LLSIM, ROOT, check, finish, run, scratch_dir

BASE = os.path.join(ROOT, "tests/inputs/dlio_checkpoint.yaml")
KEY = "phases.ckpt.process_bandwidth"
work = scratch_dir()

# Group b's system: two clients, ZeRO-1 (rank 0 writes the weights), its own scenario file.
zero1 = os.path.join(work, "zero1.yaml")
with open(BASE) as f:
    text = f.read()
text = text.replace("clients: {count: 1,", "clients: {count: 2,").replace("workload: llama3-8b}",
                                                                          "workload: llama3-8b, zero_stage: 1}")
with open(zero1, "w") as f:
    f.write(text)


def figures(scenario, value):
    out = os.path.join(work, "truth")
    run("run", scenario, "--quiet", "--out", out, "--set", f"{KEY}={value}")
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)["phases"]["ckpt"]


a, b = figures(BASE, "0.5GBps"), figures(zero1, "0.5GBps")
points = os.path.join(work, "points.csv")
with open(points, "w") as f:
    f.write("scenario,group,metric,measured\n")
    f.write(f"{BASE},a,ckpt.save_GiBps,{a['save_GiBps']!r}\n")
    f.write(f"zero1.yaml,b,ckpt.save_GiBps,{b['save_GiBps']!r}\n")
    f.write(f"zero1.yaml,b,ckpt.load_GiBps,{b['load_GiBps']!r}\n")

errors = os.path.join(work, "errors.csv")
block = os.path.join(work, "block.yaml")
_, out, _ = run("calibrate", "--storage", points, "--coefficient", KEY, "--range", "0.25GBps:1GBps", "--grid", "3",
                "--errors", errors, "--out", block)
check(f"fitted on every row: {KEY} = 0.5GBps; median |error| 0.0%, 3 of 3 within 25%" in out,
      f"the fit recovers 0.5 GB/s: {out}")
check("one group left out at a time (held out): median |error| 0.0%, 3 of 3 within 25%" in out, f"held out: {out}")
check("without a: 0.5GBps" in out and "without b: 0.5GBps" in out, f"each group's complement fits 0.5 GB/s: {out}")
check(f"{KEY}: 0.5GBps" in open(block).read(), "the block to paste names the fitted value")
rows = list(csv.DictReader(open(errors)))
check(len(rows) == 3 and all(r["held_out_value"] == "0.5GBps" and float(r["held_out_error"]) == 0 for r in rows),
      f"the errors CSV has every row, held out at 0.5 GB/s: {rows}")

# The answer outside the range: the fit sits at its end and says so.
_, out, _ = run("calibrate", "--storage", points, "--coefficient", KEY, "--range", "1GBps:4GBps", "--grid", "2")
check(f"{KEY} = 1GBps" in out and "at an end of --range" in out, f"a fit at the range's end is flagged: {out}")

# Bad command lines and points files: exit 2, the file and line named.
R = ["--range", "0.25GBps:1GBps"]
C = ["--coefficient", KEY]
for args, text in (([*C, "--range", "1GBps"], "expected LOW:HIGH"), ([*C, "--range", "1GBps:2MBps"], "same unit"),
                   ([*C, "--range", "2GBps:1GBps"], "LOW must be below HIGH"),
                   ([*C, "--range", "x:1GBps"], "not a number"), ([*C, *R, "--grid", "1"], "--grid"),
                   (R, "--coefficient KEY and --range"), (C, "--coefficient KEY and --range")):
    _, _, err = run("calibrate", "--storage", points, *args, expect=2)
    check(text in err, f"{args}: '{text}' in {err[-300:]}")
for body, text in ((f"scenario,group,measured\n{BASE},a,1\n", "metric"),
                   (f"scenario,group,metric,measured\n{BASE},a,ckpt,1\n", "bad.csv:2: column 'metric': expected phase.metric"),
                   ("scenario,group,metric,measured\nnone.yaml,a,ckpt.save_GiBps,1\n", "bad.csv:2: column 'scenario': no file"),
                   (f"scenario,group,metric,measured\n{BASE},a,ckpt.save_GiBps,0\n", "bad.csv:2: column 'measured'"),
                   (f"scenario,group,metric,measured\n{BASE},,ckpt.save_GiBps,1\n", "must not be empty"),
                   (f"scenario,group,metric,measured\n{BASE},a,ckpt.nope,1\n", "bad.csv:2: phase 'ckpt' has no metric 'nope'"),
                   (f"scenario,group,metric,measured\n{BASE},a,other.save_GiBps,1\n", "has no phase 'other'"),
                   ("scenario,group,metric,measured\n", "no measured results")):
    bad = os.path.join(work, "bad.csv")
    with open(bad, "w") as f:
        f.write(body)
    _, _, err = run("calibrate", "--storage", bad, "--coefficient", KEY, "--range", "0.25GBps:1GBps", "--grid", "2",
                    expect=2)
    check(text in err, f"'{text}' in {err[-300:]}")
# One group: nothing is left to fit on when it is left out, and the report says so.
single = os.path.join(work, "single.csv")
with open(single, "w") as f:
    f.write("scenario,group,metric,measured\n")
    f.write(f"{BASE},a,ckpt.save_GiBps,{a['save_GiBps']!r}\n{BASE},a,ckpt.load_GiBps,{a['load_GiBps']!r}\n")
_, out, _ = run("calibrate", "--storage", single, "--coefficient", KEY, "--range", "0.25GBps:1GBps", "--grid", "3")
check("without a: none (no other group's rows to fit on)" in out and "(held out): median |error| n/a" not in out and
      "0 of 2 within 25% (2 without a prediction)" in out, f"a single group has no held-out prediction: {out}")
# A metric with no figure in its run (no save, so no save throughput) is named at its row.
load_only = os.path.join(work, "load_only.yaml")
with open(load_only, "w") as f:
    f.write(open(BASE).read().replace("workload: llama3-8b}", "workload: llama3-8b, saves: 0}"))
nulls = os.path.join(work, "nulls.csv")
with open(nulls, "w") as f:
    f.write(f"scenario,group,metric,measured\n{load_only},a,ckpt.save_GiBps,1\n")
_, _, err = run("calibrate", "--storage", nulls, "--coefficient", KEY, "--range", "0.25GBps:1GBps", "--grid", "2",
                expect=2)
check("nulls.csv:2: metric 'ckpt.save_GiBps' is null in its run" in err, f"a null metric is named: {err[-300:]}")
# --errors, --out and the points must be three files; options of the GPU fit are refused.
for args, text in ((["--errors", block, "--out", block], "three different files"),
                   (["--errors", points], "three different files"), (["--folds", "3"], "excludes")):
    _, _, err = run("calibrate", "--storage", points, "--coefficient", KEY, "--range", "0.25GBps:1GBps", *args,
                    expect=2)
    check(text in err, f"{args}: '{text}' in {err[-300:]}")
_, _, err = run("calibrate", "--storage", points, "--coefficient", "phases.ckpt.nokey", "--range", "1GBps:2GBps",
                expect=2)
check("nokey" in err, f"a key the scenario does not have fails its runs, named: {err[-300:]}")
finish()
