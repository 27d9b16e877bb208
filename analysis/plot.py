#!/usr/bin/env python3
"""Draw the plots a capacity planner reads from one llsim run directory.

usage: analysis/plot.py RUN_DIR     (writes RUN_DIR/plots/*.png)

It reads RUN_DIR's summary.json, its CSVs and resolved.json (the scenario as run, every default
filled in). Every axis holds one quantity in human units (GB/s, ops/s, a 0-1 fraction; ms, s,
min, h or days chosen from the time span). Byte and operation counts per sample period of the
service CSVs are turned into rates with the service's sample_period_s from summary.json.

The plots, each drawn by one module of analysis/plots/ (which says what it draws):
- timeline.png (plots/timeline.py): the phases as bars, below them on the same time axis the
  total throughput of every service, dotted lines where a phase starts.
- service_<name>.png (plots/services.py): per server throughput, operations/s, requests waiting
  and utilisation; the bytes stored, for a memory_pool.
- Per phase, by kind: the module plots/<kind>.py draws a kind's plots with its plot_<kind>(run,
  name, phase), found by the kind's name, so a new kind's plots are one new module. Today:
  train      <phase>.png (plots/train.py): Gantt of compute, checkpoints, flushes, failures and
             restarts; each checkpoint's blocking time; each storage tier's bandwidth.
  tasks      <phase>.png, <phase>_turnaround.png (plots/tasks.py).
  ingest     <phase>.png, <phase>_latency.png (plots/ingest.py).
  preprocess <phase>.png, <phase>_bytes.png (plots/preprocess.py).
  serve      <phase>.png, <phase>_over_time.png (plots/serve.py): latency CDFs with the SLO
             lines; request rate, SLO attainment, KV cache and KV pool use over time.
  transfer   <phase>.png (plots/transfer.py), requests <phase>.png (plots/requests.py), and any
             other kind (plots/series.py): one panel per column of <phase>.csv.
plots/common.py holds what they share: units, reading the run directory, the drawing helpers.

Needs matplotlib: on Debian, apt-get install python3-matplotlib and run with /usr/bin/python3.
"""
import importlib
import json
import os
import re
import sys

from llsim_runs import pyplot
from plots import services, timeline
from plots.common import Run, fail
from plots.series import plot_series

PLOTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plots")


def phase_plotter(kind):
    """plot_<kind> of plots/<kind>.py, or plot_series for a kind without plots of its own."""
    if not isinstance(kind, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", kind):
        return plot_series
    if not os.path.isfile(os.path.join(PLOTS_DIR, f"{kind}.py")):
        return plot_series
    return getattr(importlib.import_module(f"plots.{kind}"), f"plot_{kind}", plot_series)


def plot_phase(run, name, phase):
    """The plots of one phase, by its kind; a kind without plots of its own draws its <phase>.csv."""
    written = phase_plotter(phase.get("kind"))(run, name, phase)
    return [w for w in (written if isinstance(written, list) else [written]) if w]


def plot_run(run_dir):
    """Draws every plot of the run directory; returns the files written."""
    plt = pyplot("plot.py")
    run = Run(run_dir, plt)
    os.makedirs(run.out_dir, exist_ok=True)
    written = [guarded("the timeline", timeline.plot_timeline, run)]
    for name in run.summary.get("services", {}):
        written.append(guarded(f"service {name}", services.plot_service, run, name))
    for name, phase in run.summary.get("phases", {}).items():
        written += guarded(f"phase {name}", plot_phase, run, name, phase)
    return [w for w in written if w]


def guarded(what, plotter, *args):
    """plotter(*args), or exit 1 naming what could not be drawn from outputs that are not what
    this script expects (a missing column, a value that is not a number)."""
    try:
        return plotter(*args)
    except (KeyError, ValueError, TypeError, IndexError, ZeroDivisionError) as e:
        fail(f"cannot plot {what} of {args[0].run_dir}: unexpected outputs ({type(e).__name__}: {e})")


def check_run_dir(args):
    """The run directory named on the command line, or exit 1 saying what is wrong."""
    if len(args) != 1:
        fail("usage: plot.py RUN_DIR")
    run_dir = args[0]
    if not os.path.isdir(run_dir):
        fail(f"{run_dir}: no such directory")
    summary = os.path.join(run_dir, "summary.json")
    if not os.path.isfile(summary):
        fail(f"{run_dir} is not an llsim run directory (no summary.json)")
    try:
        with open(summary) as f:
            content = json.load(f)
    except ValueError as e:
        fail(f"{summary} is not valid JSON ({e})")
    if not isinstance(content, dict) or not isinstance(content.get("phases"), dict):
        fail(f"{summary} has no 'phases' object: not an llsim run summary")
    return run_dir


def main():
    run_dir = check_run_dir(sys.argv[1:])
    written = plot_run(run_dir)
    print("plots: " + ", ".join(written))


if __name__ == "__main__":
    main()
