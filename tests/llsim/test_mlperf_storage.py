"""analysis/mlperf_storage.py (docs/validation.md, storage) turns rows of MLPerf Storage's training
results into scenarios and runs them: on the first rows, each scenario is valid, states the
row's accelerators, clients and read threads, and a dataset of steps() steps per accelerator
(the batches a rank reads ahead a tenth of the epoch at most, no more steps than the row's own
epoch), and points.csv compares llsim's throughput and AU with the measured ones (the error is
what the two columns give); calibration.csv lists the rows for `llsim calibrate --storage`.
--saturate F runs F times the submitted accelerators; a factor below 1 is refused. --page-cache F
gives each client F of its memory as page cache, scaled as the dataset is, and runs the row's
epochs; a share outside 0 to 1 is refused; --own-epochs runs the row's epochs without one."""
import csv
import math
import os
import subprocess
import sys

from harness import LLSIM, ROOT, check, finish, scratch_dir

sys.path.insert(0, os.path.join(ROOT, "analysis"))
from mlperf_storage import page_cache, steps  # noqa: E402

# The epoch's steps: ten times the batches read ahead, within the workload's floor and the row's epoch.
row = {"workload": "unet3d", "read_threads": "8", "num_files_train": "24500", "num_samples_per_file": "1",
       "batch_size": "7", "num_accelerators": "7"}
check(steps(row) == 80, f"8 read threads: 80 steps, {steps(row)}")
check(steps({**row, "read_threads": "1"}) == 20, f"1 read thread reads 2 batches ahead: 20 steps, {steps({**row, 'read_threads': '1'})}")
check(steps({**row, "read_threads": "96"}) == 500, f"96 threads: the row's own epoch of 500 steps, {steps({**row, 'read_threads': '96'})}")
check(steps({**row, "workload": "cosmoflow", "read_threads": "1"}) == 100, "cosmoflow's floor of 100 steps")

# The page cache holds the same share of the scaled dataset as of the real one.
cache_row = {"client_mem_GiB": "100", "num_files_train": "1000"}
check(page_cache(cache_row, 100, 0.5) == f", client_cache: {0.5 * 100 * 2**30 * 0.1:.0f}B",
      f"half of 100 GiB, for a tenth of the files: {page_cache(cache_row, 100, 0.5)}")
check(page_cache(cache_row, 100, 0) == "", "no page cache by default")

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
    files = math.ceil(steps(row) * int(row["batch_size"]) * int(row["num_accelerators"]) /
                      int(row["num_samples_per_file"]))
    check(f"accelerators: {row['num_accelerators']}," in text and f"read_threads: {row['read_threads']}," in text and
          f"clients: {{count: {row['client_nodes']}," in text and f"files: {files}," in text,
          f"{point['row']} states the row's run")
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

def first_row(*options):
    """Runs the script on the first row with `options`; returns (its process, its scenario's text or None)."""
    out = scratch_dir()
    proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_storage.py", "--llsim", LLSIM, "--out", out, "--rows",
                           "1", *options], cwd=ROOT, capture_output=True, text=True)
    check(proc.returncode == 0, f"{' '.join(options)} exits 0: {proc.stderr[-2000:]}")
    if proc.returncode != 0:
        return proc, None
    point = list(csv.DictReader(open(os.path.join(out, "points.csv"))))[0]
    return proc, open(os.path.join(out, "scenarios", point["row"] + ".yaml")).read()


# --saturate 2: twice the submitted accelerators, against the same measured throughput.
proc, text = first_row("--saturate", "2")
if text:
    check(f"accelerators: {2 * int(rows[0]['num_accelerators'])}," in text, "--saturate 2 runs twice the accelerators")
    check("2 times the submitted accelerators" in proc.stdout, "the report says at how many")
proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_storage.py", "--llsim", LLSIM, "--out", scratch_dir(),
                       "--saturate", "0.5"], cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 2 and "expected a finite factor of at least 1, got '0.5'" in proc.stderr,
      f"--saturate 0.5 refused: {proc.returncode} {proc.stderr[-300:]}")

# --page-cache 0.8 on the first row: its five epochs, and a cache.
proc, text = first_row("--page-cache", "0.8")
if text:
    check("client_cache: " in text and f"epochs: {rows[0]['epochs']}}}" in text,
          "--page-cache gives the service a client_cache and runs the row's epochs")
    check("a page cache of 0.8 of each client's memory" in proc.stdout, "the report says so")
proc, text = first_row("--own-epochs")
if text:
    check("client_cache" not in text and f"epochs: {rows[0]['epochs']}}}" in text,
          "--own-epochs runs the row's epochs without a page cache")
proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_storage.py", "--llsim", LLSIM, "--out", scratch_dir(),
                       "--page-cache", "1.5"], cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 2 and "expected a share of the memory from 0 to 1, got '1.5'" in proc.stderr,
      f"--page-cache 1.5 refused: {proc.returncode} {proc.stderr[-300:]}")
finish()
