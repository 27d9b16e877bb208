"""analysis/mlperf_storage.py (docs/validation.md, storage) turns rows of MLPerf Storage's training
results into scenarios and runs them: on the first rows, each scenario is valid, states the
row's accelerators, clients and read threads, and points.csv compares llsim's throughput and AU
with the measured ones (the error is what the two columns give); calibration.csv lists the rows
for `llsim calibrate --storage`."""
import csv
import os
import subprocess

from harness import LLSIM, ROOT, check, finish, scratch_dir

out = scratch_dir()
proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_storage.py", "--llsim", LLSIM, "--out", out, "--rows", "3"],
                      cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 0, f"mlperf_storage.py exits 0: {proc.stderr[-2000:]}")
with open(os.path.join(ROOT, "traces/calibration/mlperf_storage/training.csv")) as f:
    rows = list(csv.DictReader(f))[:3]
points = list(csv.DictReader(open(os.path.join(out, "points.csv")))) if proc.returncode == 0 else []
check(len(points) == 3, f"three rows compared: {len(points)}")
for row, point in zip(rows, points):
    text = open(os.path.join(out, "scenarios", point["row"] + ".yaml")).read()
    check(f"accelerators: {row['num_accelerators']}," in text and f"read_threads: {row['read_threads']}," in text and
          f"clients: {{count: {row['client_nodes']}," in text, f"{point['row']} states the row's run")
    check(float(point["measured_MiBps"]) == float(row["throughput_MiBps_mean"]), f"{point['row']}: measured figure")
    recomputed = 100 * (float(point["llsim_MiBps"]) / float(point["measured_MiBps"]) - 1)
    check(abs(float(point["error_pct"]) - recomputed) < 0.2,
          f"{point['row']}: the error {point['error_pct']}% is llsim against measured ({recomputed:.2f}%)")
    check(0 < float(point["llsim_au"]) <= 1, f"{point['row']}: AU {point['llsim_au']}")
calibration = list(csv.DictReader(open(os.path.join(out, "calibration.csv")))) if points else []
check([(c["scenario"], c["group"], c["metric"], c["measured"]) for c in calibration] ==
      [(f"scenarios/{p['row']}.yaml", r["submitter"], "train.throughput_MiBps", r["throughput_MiBps_mean"])
       for p, r in zip(points, rows)], f"calibration.csv: each row for llsim calibrate --storage: {calibration}")
check("median |throughput error|" in proc.stdout, "the report gives the median error")
finish()
