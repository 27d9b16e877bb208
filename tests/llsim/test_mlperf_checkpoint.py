"""analysis/mlperf_checkpoint.py (docs/validation.md, storage) turns rows of MLPerf Storage's
checkpoint results into scenarios and runs them. On two made-up rows (tests/inputs/
mlperf_checkpoint_rows.csv, not measurements): each scenario states the row's model, ranks,
clients and operation; the error is what the two columns give; and with 8 ranks on storage far
faster than they drive, llsim's save throughput is 8 x --process-bandwidth (its assumption moves
it), and a load moves with it too; calibration.csv lists the rows for `llsim calibrate --storage`."""
import csv
import os
import subprocess

from harness import LLSIM, ROOT, check, check_close, finish, scratch_dir

ROWS = os.path.join(ROOT, "tests/inputs/mlperf_checkpoint_rows.csv")


def analyse(process_bandwidth):
    out = scratch_dir()
    proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_checkpoint.py", "--csv", ROWS, "--llsim", LLSIM,
                           "--out", out, "--process-bandwidth", process_bandwidth],
                          cwd=ROOT, capture_output=True, text=True)
    check(proc.returncode == 0, f"mlperf_checkpoint.py exits 0: {proc.stderr[-2000:]}")
    if proc.returncode != 0:
        return out, []
    check("median |throughput error|" in proc.stdout, "the report gives the median error")
    return out, list(csv.DictReader(open(os.path.join(out, "points.csv"))))


out, points = analyse("1GBps")
check(len(points) == 2, f"two rows compared: {len(points)}")
rows = list(csv.DictReader(open(ROWS)))
calibration = list(csv.DictReader(open(os.path.join(out, "calibration.csv")))) if points else []
check([(c["scenario"], c["group"], c["metric"], c["measured"]) for c in calibration] ==
      [(f"scenarios/{p['row']}.yaml", "Example", f"checkpoint.{p['operation']}_GiBps", r["throughput_GBps_mean"])
       for p, r in zip(points, rows)], f"calibration.csv: each row for llsim calibrate --storage: {calibration}")
for row, point in zip(rows, points):
    text = open(os.path.join(out, "scenarios", point["row"] + ".yaml")).read()
    save = row["operation"].startswith("save")
    check("processes: 8," in text and "workload: llama3-8b," in text and "clients: {count: 2," in text and
          f"saves: {1 if save else 0}, loads: {0 if save else 1}," in text, f"{point['row']} states the row's run")
    check(float(point["measured_GiBps"]) == float(row["throughput_GBps_mean"]), f"{point['row']}: measured figure")
    recomputed = 100 * (float(point["llsim_GiBps"]) / float(point["measured_GiBps"]) - 1)
    check(abs(float(point["error_pct"]) - recomputed) < 0.2,
          f"{point['row']}: the error {point['error_pct']}% is llsim against measured ({recomputed:.2f}%)")
    if save:
        check_close(float(point["llsim_GiBps"]), 8e9 / 2**30, 0.03, f"{point['row']}: 8 ranks at 1 GB/s")
_, slower = analyse("0.5GBps")
for before, after in zip(points, slower):
    if before["operation"] == "save":
        check_close(float(after["llsim_GiBps"]), 4e9 / 2**30, 0.03, f"{after['row']}: 8 ranks at 0.5 GB/s")
    else:
        check(float(after["llsim_GiBps"]) < 0.9 * float(before["llsim_GiBps"]),
              f"{after['row']}: a load at 0.5 GB/s per request is slower: {after['llsim_GiBps']} vs "
              f"{before['llsim_GiBps']}")
finish()
