"""Helpers shared by the analysis scripts: running llsim for a sweep point, loading matplotlib."""
import csv
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def run_phase(llsim, scenario, run_dir, phase, sets, who):
    """Runs `llsim run scenario --out run_dir --set ...`; returns `phase`'s metrics. Exits with
    llsim's error message when the run fails. `who` names the calling script in messages."""
    command = [llsim, "run", scenario, "--quiet", "--out", run_dir]
    for s in sets:
        command += ["--set", s]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{who}: {' '.join(command)} failed:\n{proc.stderr}")
    with open(os.path.join(run_dir, "summary.json")) as f:
        return json.load(f)["phases"][phase]


def sweep(llsim_run, points, jobs, out_dir, csv_name):
    """Runs `llsim_run(*point)` for every point, `jobs` at a time; writes the returned rows (dicts)
    to out_dir/csv_name and returns them."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        rows = list(pool.map(lambda point: llsim_run(*point), points))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, csv_name), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return rows


def pyplot(who, already_written=""):
    """matplotlib.pyplot with the Agg backend, or exit 1 saying how to get matplotlib."""
    try:
        import matplotlib
    except ImportError:
        sys.exit(f"{who}: matplotlib is not available to {sys.executable} (apt-get install python3-matplotlib, "
                 f"then run this script with /usr/bin/python3){'; ' + already_written if already_written else ''}")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
