#!/usr/bin/env python3
"""Draw a run's plots: every time series CSV of the run directory (first column time_s) as one
PNG with a line per column, and a timeline of the phases from summary.json.

usage: analysis/plot.py RUN_DIR     (writes RUN_DIR/plots/*.png)

Needs matplotlib: on Debian, apt-get install python3-matplotlib and run with /usr/bin/python3.
"""
import csv
import json
import os
import sys

from llsim_runs import pyplot


def fail(message):
    print(f"plot.py: {message}", file=sys.stderr)
    sys.exit(1)


def as_numbers(values):
    try:
        return [float(v) for v in values]
    except ValueError:
        return None


def read_series(path):
    """(header, columns) of the numeric columns of a time series CSV, or None for other tables
    (per-item records, or long-format tables such as per-worker states)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0][0] != "time_s" or len(rows) < 2:
        return None
    columns = [as_numbers([r[i] for r in rows[1:]]) for i in range(len(rows[0]))]
    if any(c is None for c in columns):
        return None
    return rows[0], columns


def unit_of(column):
    if column.startswith("bytes") or column.endswith("_bytes"):
        return "GB", 1e-9
    if column.endswith("_s"):
        return "s", 1.0
    return "", 1.0


def plot_series(plt, path, out_dir):
    series = read_series(path)
    if series is None:
        return None
    header, columns = series
    fig, ax = plt.subplots(figsize=(8, 4.5))
    units = set()
    for name, values in zip(header[1:], columns[1:]):
        unit, scale = unit_of(name)
        units.add(unit)
        ax.plot(columns[0], [v * scale for v in values], label=name)
    name = os.path.splitext(os.path.basename(path))[0]
    ax.set_title(name)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel(", ".join(sorted(u for u in units if u)) or "value")
    ax.grid(alpha=0.3)
    ax.legend()
    target = os.path.join(out_dir, name + ".png")
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


def plot_timeline(plt, summary, out_dir):
    phases = summary["phases"]
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(phases) + 1.5))
    names = list(phases)
    for i, name in enumerate(names):
        p = phases[name]
        ax.barh(i, p["end_s"] - p["start_s"], left=p["start_s"], color="tab:blue")
    ax.set_yticks(range(len(names)), labels=[f"{n} ({phases[n]['kind']})" for n in names])
    ax.invert_yaxis()
    ax.set_xlabel("simulated time (s)")
    ax.set_title(f"phases of '{summary['scenario']}' (seed {summary['seed']})")
    ax.grid(axis="x", alpha=0.3)
    target = os.path.join(out_dir, "timeline.png")
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    plt.close(fig)
    return target


def main():
    if len(sys.argv) != 2:
        fail("usage: plot.py RUN_DIR")
    run_dir = sys.argv[1]
    summary_path = os.path.join(run_dir, "summary.json")
    if not os.path.isfile(summary_path):
        fail(f"{run_dir} is not an llsim run directory (no summary.json)")
    plt = pyplot("plot.py")
    with open(summary_path) as f:
        summary = json.load(f)
    out_dir = os.path.join(run_dir, "plots")
    os.makedirs(out_dir, exist_ok=True)
    written = [plot_timeline(plt, summary, out_dir)]
    for entry in sorted(os.listdir(run_dir)):
        if entry.endswith(".csv"):
            target = plot_series(plt, os.path.join(run_dir, entry), out_dir)
            if target:
                written.append(target)
    print("plots: " + ", ".join(written))


if __name__ == "__main__":
    main()
