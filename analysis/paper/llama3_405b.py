#!/usr/bin/env python3
"""Llama 3 405B on 16,384 H100 (scenarios/paper/llama3_405b.yaml): interruptions per class over
54 days against the paper's Table 5, the effective training time against its "above 90%", and
how that moves with the checkpoint interval, the checkpoint tiers (host memory, NVMe) and the assumed
restart time.
Writes llama3_405b.png (goodput against the checkpoint interval) into OUT.

usage: analysis/paper/llama3_405b.py [--llsim build/llsim] [--out out/llama3_405b] [--jobs 2] [--seeds 3]

Every point runs --seeds seeds (the same at every point); tables give the mean and its 95%
confidence interval. About 6 s and 1.3 GiB per run (multilevel runs 18 s).
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import pyplot, read_summary, run_sweep, save_plot

SCENARIO = "scenarios/paper/llama3_405b.yaml"
DAY = 86400
# Table 5 of the paper, grouped by llsim's classes (the scenario's components say which row is which).
PAPER = {"gpu": 148 + 19 + 17 + 6, "hbm": 72, "software": 54 + 7, "switch": 35, "host": 32 + 3 + 3, "nic": 7,
         "other": 16, "maintenance": 47}
POLICY = "phases.train.checkpoint.policy"
MODE = "phases.train.checkpoint.mode"
RESTART = "phases.train.restart"
INTERVALS = [2, 5, 10, 20, 40, 80]
TIER = "impl: multilevel, level: partner, memory: partner, local_every: 10, flush_every: 50"
APART = "partner_offset: 16"  # a host's partner under the next leaf switch (16 hosts each)
MODES = [("blocking to the file system", "{impl: blocking}"),
         ("NVMe, flush every 10th (single)", "{impl: multilevel, level: single, flush_every: 10}"),
         ("NVMe + partner copy, flush every 10th", "{impl: multilevel, level: partner, flush_every: 10}"),
         ("NVMe + partner copy, flush every one", "{impl: multilevel, level: partner, flush_every: 1}"),
         ("NVMe + partner under another switch, flush every 10th",
          f"{{impl: multilevel, level: partner, flush_every: 10, {APART}}}"),
         ("memory + partner, NVMe every 10th, flush every 50th", f"{{{TIER}}}"),
         ("memory + partner under another switch, the same", f"{{{TIER}, {APART}}}"),
         ("  the same, snapshot at 2.5 GB/s (assumed 10)", f"{{{TIER}, {APART}, snapshot_bandwidth: 2.5GBps}}"),
         ("  the same, partner copy at 2.5 GB/s (assumed 25)", f"{{{TIER}, {APART}, partner_bandwidth: 2.5GBps}}")]
RESTARTS = [5, 10, 15, 30, 60]  # minutes of restart delay, swap time 5 min


def ci(v):
    mean, low, high = v
    return f"{mean:.4f}" if math.isnan(low) else f"{mean:.4f} ({low:.4f}-{high:.4f})"


def sweep(args, name, axis, values):
    out = os.path.join(args.out, name)
    run_sweep(args.llsim, SCENARIO, out, [(axis, values)], args.jobs, "llama3_405b", seeds=args.seeds)
    points = read_summary(out, [axis])
    return [points[k] for k in sorted(points)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/llama3_405b")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()

    policies = [f"{{impl: fixed, interval: {m}min}}" for m in INTERVALS] + ["{impl: daly}"]
    by_interval = sweep(args, "interval", POLICY, policies)
    daly = by_interval[-1]
    scale = 54 * DAY / daly["train.makespan_s"][0]
    print(f"Daly's interval {daly['train.interval_s'][0]:.0f} s, job MTBF {daly['train.job_mtbf_s'][0] / 3600:.2f} h; "
          f"makespan {daly['train.makespan_s'][0] / DAY:.1f} d; per class over 54 days (llsim mean of {args.seeds} "
          f"seeds, scaled from the makespan) against the paper:")
    for cls, paper in PAPER.items():
        print(f"  {cls:>11}: {daly[f'train.interruptions_{cls}'][0] * scale:6.1f} vs {paper}")
    print(f"  unexpected: {daly['train.failures'][0] * scale:.1f} vs 419")
    print(f"effective training time (goodput) at Daly's interval: {ci(daly['train.goodput'])}")
    for minutes, p in zip(INTERVALS, by_interval):
        print(f"  fixed {minutes:3d} min: goodput {ci(p['train.goodput'])}")

    for (label, _), p in zip(MODES, sweep(args, "nvme", MODE, [mode for _, mode in MODES])):
        restores = "/".join(f"{p[f'train.restores_{tier}'][0]:.1f}" for tier in ["memory", "local", "pfs"])
        print(f"  {label}: goodput {ci(p['train.goodput'])}, blocking per checkpoint "
              f"{p['train.checkpoint_blocking_s'][0]:.2f} s, interval {p['train.interval_s'][0]:.0f} s, "
              f"restores from memory/NVMe/file system {restores}")
    restarts = [f"{{delay: {m}min, swap_time: 5min}}" for m in RESTARTS]
    for minutes, p in zip(RESTARTS, sweep(args, "restart", RESTART, restarts)):
        print(f"  restart {minutes:2d} min + 5 min swap: goodput {ci(p['train.goodput'])}, restarting "
              f"{p['train.restarting_s'][0] / DAY:.2f} d of {p['train.makespan_s'][0] / DAY:.1f} d")

    plt = pyplot("llama3_405b", "the tables above are printed")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.errorbar(INTERVALS, [p["train.goodput"][0] for p in by_interval[:-1]],
                yerr=[[p["train.goodput"][0] - p["train.goodput"][1] for p in by_interval[:-1]],
                      [p["train.goodput"][2] - p["train.goodput"][0] for p in by_interval[:-1]]],
                marker="o", capsize=3, label=f"fixed interval (mean of {args.seeds} seeds, 95% CI)")
    ax.plot(daly["train.interval_s"][0] / 60, daly["train.goodput"][0], marker="*", markersize=14, linestyle="none",
            label=f"daly ({daly['train.interval_s'][0] / 60:.1f} min)")
    ax.set_xscale("log")
    save_plot(fig, ax, os.path.join(args.out, "llama3_405b.png"), "checkpoint interval (minutes of compute)",
              "effective training time (goodput)", "Llama 3 405B, 16,384 H100, 54 days of work")
    print(f"plot: {args.out}/llama3_405b.png")


if __name__ == "__main__":
    main()
