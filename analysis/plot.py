#!/usr/bin/env python3
"""Draw a run's plots: every time series CSV of the run directory (first column time_s) as one
PNG with a line per column, every service's per-server CSV (service_<name>.csv) as one PNG of
its servers together, and a timeline of the phases from summary.json.

usage: analysis/plot.py RUN_DIR     (writes RUN_DIR/plots/*.png)

Needs matplotlib: on Debian, apt-get install python3-matplotlib and run with /usr/bin/python3.
"""
import csv
import json
import math
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


def read_service(path, period):
    """Per time bucket of `period` seconds (the last one ends with the run), over the servers of
    a service_<name>.csv: bytes/s and operations/s of all servers, the sum of their queue
    lengths, the mean utilisation of the servers that were ever active and the busiest server's.
    Returns (bucket edges, series, active servers). A bucket absent for a server means it was
    idle."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return None
    end = max(float(r["time_s"]) for r in rows)
    count = math.ceil(end / period - 1e-9)
    edges = [min(i * period, end) for i in range(count)] + [end]
    servers = {r["server"] for r in rows}
    series = {k: [0.0] * count for k in ["bytes", "operations", "queue", "util_sum", "util_max"]}
    for r in rows:
        i = math.ceil(float(r["time_s"]) / period - 1e-9) - 1
        length = edges[i + 1] - edges[i]
        series["bytes"][i] += float(r["bytes"]) / length
        series["operations"][i] += float(r["operations"]) / length
        series["queue"][i] += float(r["queue_length"])
        series["util_sum"][i] += float(r["utilisation"])
        series["util_max"][i] = max(series["util_max"][i], float(r["utilisation"]))
    series["util_mean"] = [u / len(servers) for u in series["util_sum"]]
    return edges, series, len(servers)


def plot_service(plt, path, service, out_dir):
    data = read_service(path, service["sample_period_s"])
    if data is None:
        return None
    edges, series, servers = data
    units = "disks" if service["kind"] == "storage" else "threads"
    name = os.path.splitext(os.path.basename(path))[0]
    fig, axes = plt.subplots(2, 2, figsize=(10, 6), sharex=True)
    panels = [(axes[0][0], [("all servers", [b * 1e-9 for b in series["bytes"]])], "GB/s"),
              (axes[0][1], [("all servers", series["operations"])], "operations/s"),
              (axes[1][0], [("all servers", series["queue"])], "requests waiting (time average)"),
              (axes[1][1], [(f"mean of {servers} active servers", series["util_mean"]),
                            ("busiest server", series["util_max"])], f"utilisation (busy {units} / {units})")]
    for ax, lines, label in panels:
        for line_label, values in lines:
            ax.stairs(values, edges, label=line_label)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    for ax in axes[1]:
        ax.set_xlabel("simulated time (s)")
    fig.suptitle(f"{name} ({service['kind']} service)")
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
        if entry.startswith("service_") and entry.endswith(".csv"):
            service = summary.get("services", {}).get(entry[len("service_"):-len(".csv")])
            target = plot_service(plt, os.path.join(run_dir, entry), service, out_dir) if service else None
        elif entry.endswith(".csv"):
            target = plot_series(plt, os.path.join(run_dir, entry), out_dir)
        else:
            target = None
        if target:
            written.append(target)
    print("plots: " + ", ".join(written))


if __name__ == "__main__":
    main()
