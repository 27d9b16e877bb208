#!/usr/bin/env python3
"""Sweep scenarios/paper/master_worker.yaml over the number of workers, the scheduler and the
checkpoint-sharing policy; write results.csv and master_worker.png (mean turnaround and
makespan vs workers, one panel per checkpoint policy, one line per scheduler).

usage: analysis/sweep_master_worker.py [--llsim build/llsim] [--out out/master_worker_sweep]
                                        [--workers 16,64,256,1024,4096] [--jobs 2]

Every run is an ordinary `llsim run` with --set overrides; its directory is kept under OUT/runs/.
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import os

from llsim_runs import pyplot, run_phase, sweep

SCENARIO = "scenarios/paper/master_worker.yaml"
SCHEDULERS = ["fcfs", "mct", "minmin", "maxmin", "minmax"]
POLICIES = {
    "none": "{impl: none}",
    "local": "{impl: local, interval: 2min, size: 100MB, storage: scratch}",
    "shared": "{impl: shared, interval: 2min, size: 100MB, storage: ckpt}",
}


def run_one(llsim, out_dir, workers, scheduler, policy):
    run_dir = os.path.join(out_dir, "runs", f"w{workers}_{scheduler}_{policy}")
    metrics = run_phase(llsim, SCENARIO, run_dir, "bag",
                        [f"platform.groups.volunteers.count={workers}", f"phases.bag.scheduler.impl={scheduler}",
                         f"phases.bag.checkpoint={POLICIES[policy]}"], "sweep")
    return {"workers": workers, "scheduler": scheduler, "checkpoint": policy, **{
        k: metrics[k] for k in ["makespan_s", "mean_turnaround_s", "p95_turnaround_s", "reexecutions",
                                "wasted_flops", "checkpoint_bytes", "worker_utilization"]}}


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
    parser.add_argument("--out", default="out/master_worker_sweep")
    parser.add_argument("--workers", default="16,64,256,1024,4096")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",")]
    combos = [(w, s, p) for w in workers for s in SCHEDULERS for p in POLICIES]
    rows = sweep(lambda *c: run_one(args.llsim, args.out, *c), combos, args.jobs, args.out, "results.csv")
    plot(rows, os.path.join(args.out, "master_worker.png"))
    print(f"sweep: {len(rows)} runs; {args.out}/results.csv and {args.out}/master_worker.png")


if __name__ == "__main__":
    main()
