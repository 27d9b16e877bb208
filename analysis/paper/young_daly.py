#!/usr/bin/env python3
"""Goodput against the checkpoint interval on scenarios/paper/young_daly.yaml: a sweep of fixed
intervals, with the `young` and `daly` policies marked. Runs `llsim sweep` over
phases.train.checkpoint.policy into OUT (results.csv, summary.csv, runs/), writes young_daly.png
there and says how far Daly's goodput is from the best of the sweep.

usage: analysis/paper/young_daly.py [--llsim build/llsim] [--out out/young_daly] [--jobs 2] [--seeds 10] [--resume]

Each point runs --seeds seeds (the same seeds at every point, so every interval meets the same
failure draws); the plot shows the mean goodput and its 95% confidence interval, since one seed
shows the noise of one failure history as if it were structure. --resume keeps the finished runs
of the same sweep in OUT/runs (otherwise they are run again).
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import pyplot, read_summary, run_sweep, save_plot

SCENARIO = "scenarios/paper/young_daly.yaml"
FIXED_MINUTES = [20, 30, 45, 60, 75, 90, 105, 120, 150, 180, 240, 360]
AXIS = "phases.train.checkpoint.policy"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/young_daly")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--resume", action="store_true", help="keep the finished runs of the same sweep in OUT/runs")
    args = parser.parse_args()
    runs = [(f"fixed_{m}min", f"{{impl: fixed, interval: {m}min}}") for m in FIXED_MINUTES]
    runs += [("young", "{impl: young}"), ("daly", "{impl: daly}")]
    label = {policy: name for name, policy in runs}
    run_sweep(args.llsim, SCENARIO, args.out, [(AXIS, [policy for _, policy in runs])], args.jobs, "sweep",
              resume=args.resume, seeds=args.seeds)
    points = read_summary(args.out, [AXIS]).values()
    rows = [{"policy": label[p[AXIS]], "interval_s": p["train.interval_s"][0], "goodput": p["train.goodput"]}
            for p in points]
    by = {r["policy"]: r for r in rows}
    best = max(rows, key=lambda r: r["goodput"][0])

    def goodput(r):
        mean, low, high = r["goodput"]
        return f"{mean:.4f}" if math.isnan(low) else f"{mean:.4f} (95% CI {low:.4f}-{high:.4f})"

    gap = (best["goodput"][0] - by["daly"]["goodput"][0]) / best["goodput"][0]
    print(f"{args.seeds} seeds per point. best: {best['policy']} (interval {best['interval_s'] / 60:.0f} min, goodput "
          f"{goodput(best)}); daly: interval {by['daly']['interval_s'] / 60:.0f} min, goodput {goodput(by['daly'])} "
          f"({gap:.2%} below the best mean); young: interval {by['young']['interval_s'] / 60:.0f} min, "
          f"goodput {goodput(by['young'])}")
    plt = pyplot("sweep", "results.csv is written")
    fixed = sorted((r for r in rows if r["policy"].startswith("fixed")), key=lambda r: r["interval_s"])
    minutes = [r["interval_s"] / 60 for r in fixed]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(minutes, [r["goodput"][0] for r in fixed], marker="o", label=f"fixed interval (mean of {args.seeds} seeds)")
    if args.seeds > 1:
        ax.fill_between(minutes, [r["goodput"][1] for r in fixed], [r["goodput"][2] for r in fixed], alpha=0.25,
                        label="95% confidence interval")
    for name, marker in [("young", "s"), ("daly", "*")]:
        mean, low, high = by[name]["goodput"]
        ax.errorbar(by[name]["interval_s"] / 60, mean, yerr=None if math.isnan(low) else [[mean - low], [high - mean]],
                    marker=marker, markersize=12, linestyle="none", capsize=4,
                    label=f"{name} ({by[name]['interval_s'] / 60:.0f} min)")
    save_plot(fig, ax, os.path.join(args.out, "young_daly.png"), "checkpoint interval (minutes of compute)",
              "goodput (useful compute / makespan)",
              "60 days of training, job MTBF 10.7 h (scenarios/paper/young_daly.yaml)")
    print(f"sweep: {args.out}/young_daly.png")


if __name__ == "__main__":
    main()
