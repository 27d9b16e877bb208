"""analysis/mlperf_plan.py (docs/validation.md, storage) asks llsim plan MLPerf Storage's question
for each training row: on the first row (80 emulated A100s of resnet50 on one client), the counts
tried run from twice the submission to half of it, the scenario's dataset holds the epoch of
mlperf_storage.steps() for the most, and plans.csv places the answer against the submission in
steps of that list. --held-out plans each row with the value its submitter's held-out fit gave
(from `llsim calibrate --storage --errors`): a client limit of 1 GB/s feeds fewer accelerators
than the submission's 7.4 GB/s."""
import csv
import json
import os
import subprocess
import sys

from harness import LLSIM, ROOT, check, finish, scratch_dir

sys.path.insert(0, os.path.join(ROOT, "analysis"))
from mlperf_plan import counts  # noqa: E402

check(counts(80) == [160, 140, 120, 100, 90, 80, 70, 60, 50, 40], f"the counts tried for 80: {counts(80)}")
check(counts(1) == [2, 1], f"the counts tried for 1: {counts(1)}")

out = scratch_dir()
proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_plan.py", "--llsim", LLSIM, "--out", out, "--rows", "1"],
                      cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 0, f"mlperf_plan.py exits 0: {proc.stderr[-2000:]}")
plans = list(csv.DictReader(open(os.path.join(out, "plans.csv")))) if proc.returncode == 0 else []
check(len(plans) == 1 and plans[0]["submitted"] == "80", f"one row planned, submitted 80: {plans}")
if plans:
    name = plans[0]["row"]
    answer = json.load(open(os.path.join(out, "plans", name, "answer.json")))
    found = int(answer["point"]["phases.train.accelerators"]) if answer["feasible"] else 0
    listed = counts(80)
    steps = abs(listed.index(found) - listed.index(80)) if found else len(listed) - listed.index(80)
    check(plans[0]["steps_off"] == str(steps), f"steps off {plans[0]['steps_off']} is the answer's place: {steps}")
    check(plans[0]["within_one_step"] == str(steps <= 1), "within one step follows the steps off")
    points = list(csv.DictReader(open(os.path.join(out, "plans", name, "points.csv"))))
    check(all(int(p["phases.train.accelerators"]) in listed for p in points), "every point run is a listed count")
check("within one step of the submitted count" in proc.stdout, "the report gives the share within one step")

# --held-out: the first row planned with its held-out value of client_bandwidth, 1 GB/s.
fits = scratch_dir()
calibration, errors = os.path.join(fits, "calibration.csv"), os.path.join(fits, "errors.csv")
with open(calibration, "w") as f:
    f.write("scenario,group,metric,measured\n"
            f"scenarios/{plans[0]['row'] if plans else 'row00'}.yaml,Hammerspace,train.throughput_MiBps,7562\n")
with open(errors, "w") as f:
    f.write("point,group,measured,fitted,fitted_error,held_out_value,held_out,held_out_error\n"
            f"{calibration}:2,Hammerspace,7562,7000,-0.07,1GBps,1000,-0.87\n")
HELD = ["--held-out", errors, "--coefficient", "services.fs.client_bandwidth"]
held_out = scratch_dir()
proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_plan.py", "--llsim", LLSIM, "--out", held_out, "--rows", "1",
                       *HELD], cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 0, f"--held-out exits 0: {proc.stderr[-2000:]}")
held = list(csv.DictReader(open(os.path.join(held_out, "plans.csv")))) if proc.returncode == 0 else []
if held and plans:
    check(held[0]["llsim"] == "< 40", f"a 1 GB/s client feeds fewer than half the 80: {held[0]['llsim']}")
    check("fitted with each submitter left out" in proc.stdout, "the report says the value is held out")
proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_plan.py", "--llsim", LLSIM, "--out", scratch_dir(), "--rows", "1",
                       "--held-out", errors], cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 2 and "--held-out and --coefficient go together" in proc.stderr,
      f"--held-out alone is refused: {proc.stderr[-300:]}")
# A row the errors CSV lacks is refused before any plan runs; so is a file that is not one.
empty_out = os.path.join(scratch_dir(), "plans")
proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_plan.py", "--llsim", LLSIM, "--out", empty_out, "--rows", "2",
                       *HELD], cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 1 and "has no point for row01_" in proc.stderr and not os.path.exists(empty_out),
      f"a row without a held-out value is refused first: {proc.returncode} {proc.stderr[-300:]}")
proc = subprocess.run(["/usr/bin/python3", "analysis/mlperf_plan.py", "--llsim", LLSIM, "--out", empty_out, "--rows", "1",
                       "--held-out", calibration, "--coefficient", "x"], cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 1 and "expected the CSV of `llsim calibrate --storage --errors`" in proc.stderr,
      f"a CSV that is not calibrate's errors: {proc.stderr[-300:]}")
finish()
