"""Helpers shared by the analysis scripts: running `llsim sweep` and reading its results.csv,
running one llsim point, loading matplotlib."""
import csv
import json
import os
import shlex
import shutil
import subprocess
import sys


def run_sweep(llsim, scenario, out_dir, grid, jobs, who, sets=(), resume=False, seeds=1):
    """Runs `llsim sweep scenario --grid PATH=V1,V2,... --out out_dir --jobs jobs [--set ...]`
    (`grid`: a list of (PATH, [values as YAML text])) and returns the rows of out_dir/results.csv,
    one per point in grid order (the cross product, the last axis fastest), as dicts: the swept
    values as written on the grid, `point` and `seed` as ints, the metrics as numbers (see
    read_results). Without `resume` an earlier sweep in out_dir is deleted first, so that every
    point runs with this llsim (llsim sweep keeps the runs it finds); with it, the finished runs
    are kept (llsim refuses a directory that holds another sweep). Progress goes to stderr; a
    failure exits with llsim's message."""
    command = [llsim, "sweep", scenario, "--out", out_dir, "--jobs", str(jobs), "--seeds", str(seeds)]
    for path, values in grid:
        command += ["--grid", f"{path}={','.join(str(v) for v in values)}"]
    for s in sets:
        command += ["--set", s]
    if not resume:
        for name in ["runs", "sweep.json"]:
            path = os.path.join(out_dir, name)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif os.path.exists(path):
                os.remove(path)
    # llsim's progress lines and error messages go to stderr; its closing line on stdout is dropped
    # so that the script's own output stays what it was.
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    except OSError as e:
        sys.exit(f"{who}: cannot run {llsim}: {e.strerror} (--llsim names the llsim binary)")
    if proc.returncode != 0:
        sys.exit(f"{who}: {shlex.join(command)} failed (exit {proc.returncode}; llsim's message is above)")
    return read_results(os.path.join(out_dir, "results.csv"), [path for path, _ in grid])


def read_results(path, swept):
    """The rows of an `llsim sweep` results.csv: `swept` columns as text, `point` and `seed` as
    ints, every other column as a number (an int where written as one, nan where empty)."""
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            row = {}
            for k, v in r.items():
                if k in swept:
                    row[k] = v
                elif k in ("point", "seed"):
                    row[k] = int(v)
                else:
                    row[k] = _number(v)
            rows.append(row)
    return rows


def read_summary(out_dir, swept):
    """An `llsim sweep` summary.csv as {point: {swept column: text, metric: (mean, ci95_low,
    ci95_high)}}; the interval is (nan, nan) with one seed."""
    points = {}
    with open(os.path.join(out_dir, "summary.csv"), newline="") as f:
        for r in csv.DictReader(f):
            point = points.setdefault(int(r["point"]), {k: r[k] for k in swept})
            point[r["metric"]] = (float(r["mean"]), _number(r["ci95_low"]), _number(r["ci95_high"]))
    return points


def _number(text):
    """An int where the text is one (as in summary.json), else a float; nan where empty."""
    if text in ("", "null"):
        return float("nan")
    try:
        return int(text)
    except ValueError:
        return float(text)


def write_csv(path, rows):
    """Writes rows (dicts with the same keys) to path."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def run_phases(llsim, scenario, run_dir, sets, who):
    """Runs `llsim run scenario --out run_dir --set ...`; returns every phase's metrics by name.
    Exits with llsim's error message when the run fails. `who` names the calling script in
    messages. For searches whose next point depends on the last (a bisection), and runs whose
    phases are compared with each other; a grid is `run_sweep`'s."""
    command = [llsim, "run", scenario, "--quiet", "--out", run_dir]
    for s in sets:
        command += ["--set", s]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"{who}: {' '.join(command)} failed:\n{proc.stderr}")
    with open(os.path.join(run_dir, "summary.json")) as f:
        return json.load(f)["phases"]


def run_phase(llsim, scenario, run_dir, phase, sets, who):
    """run_phases, then `phase`'s metrics."""
    return run_phases(llsim, scenario, run_dir, sets, who)[phase]


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


def save_plot(fig, ax, path, xlabel, ylabel, title):
    """Labels, a light grid and the legend on `ax`, then `fig` saved to path (PNG, 110 dpi)."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
