#!/usr/bin/env python3
"""Sweep scenarios/paper/master_worker.yaml over the number of workers, the scheduler and the
checkpoint-sharing policy with `llsim sweep` (OUT/results.csv, summary.csv, runs/); write
master_worker.png (mean turnaround and makespan vs workers, one panel per checkpoint policy, one
line per scheduler).

usage: analysis/paper/master_worker.py [--llsim build/llsim] [--out out/master_worker]
                                        [--workers 16,64,256,1024,4096] [--jobs 2] [--resume]

--resume keeps the finished runs of the same sweep in OUT/runs (otherwise they are run again).
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import pyplot, run_sweep

SCENARIO = "scenarios/paper/master_worker.yaml"
SCHEDULERS = ["fcfs", "mct", "minmin", "maxmin", "minmax"]
POLICIES = {
    "none": "{impl: none}",
    "local": "{impl: local, interval: 2min, size: 100MB, storage: scratch}",
    "shared": "{impl: shared, interval: 2min, size: 100MB, storage: ckpt}",
}
WORKERS, SCHEDULER, CHECKPOINT = "platform.groups.volunteers.count", "phases.bag.scheduler.impl", "phases.bag.checkpoint"


def plot(rows, target):
    plt = pyplot("sweep", "results.csv is written")
    fig, axes = plt.subplots(2, len(POLICIES), figsize=(5 * len(POLICIES), 8), sharex=True, sharey="row")
    for col, policy in enumerate(POLICIES):
        for row, (metric, label) in enumerate([("mean_turnaround_s", "mean turnaround (h)"),
                                               ("makespan_s", "makespan (h)")]):
            ax = axes[row][col]
            for scheduler in SCHEDULERS:
                points = sorted((r["workers"], r[metric] / 3600) for r in rows
                                if r["scheduler"] == scheduler and r["checkpoint"] == policy)
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=scheduler)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.grid(alpha=0.3, which="both")
            if row == 0:
                ax.set_title(f"checkpoint: {policy}")
            if row == 1:
                ax.set_xlabel("workers")
            if col == 0:
                ax.set_ylabel(label)
    axes[0][0].legend()
    fig.suptitle("master-worker: 5000 tasks on unreliable heterogeneous workers (scenarios/paper/master_worker.yaml)")
    fig.tight_layout()
    fig.savefig(target, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/master_worker")
    parser.add_argument("--workers", default="16,64,256,1024,4096")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--resume", action="store_true", help="keep the finished runs of the same sweep in OUT/runs")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    results = run_sweep(args.llsim, SCENARIO, args.out,
                        [(WORKERS, workers), (SCHEDULER, SCHEDULERS), (CHECKPOINT, list(POLICIES.values()))],
                        args.jobs, "sweep", resume=args.resume)
    policy = {value: name for name, value in POLICIES.items()}
    rows = [{"workers": int(r[WORKERS]), "scheduler": r[SCHEDULER], "checkpoint": policy[r[CHECKPOINT]],
             "makespan_s": r["bag.makespan_s"], "mean_turnaround_s": r["bag.mean_turnaround_s"]} for r in results]
    plot(rows, os.path.join(args.out, "master_worker.png"))
    print(f"sweep: {len(rows)} runs; {args.out}/results.csv and {args.out}/master_worker.png")


if __name__ == "__main__":
    main()
