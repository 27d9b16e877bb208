#!/usr/bin/env python3
"""Goodput against the checkpoint interval on scenarios/paper/young_daly.yaml: a sweep of fixed
intervals, with the `young` and `daly` policies marked. Runs `llsim sweep` over
phases.train.checkpoint.policy into OUT (results.csv, summary.csv, runs/), writes young_daly.png
there and says how far Daly's goodput is from the best of the sweep.

usage: analysis/sweep_young_daly.py [--llsim build/llsim] [--out out/young_daly] [--jobs 2] [--resume]

Every run uses the same seed, so every interval meets the same failures. --resume keeps the
finished runs of the same sweep in OUT/runs (otherwise they are run again).
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import os

from llsim_runs import pyplot, run_sweep

SCENARIO = "scenarios/paper/young_daly.yaml"
FIXED_MINUTES = [20, 30, 45, 60, 75, 90, 105, 120, 150, 180, 240, 360]
AXIS = "phases.train.checkpoint.policy"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/young_daly")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--resume", action="store_true", help="keep the finished runs of the same sweep in OUT/runs")
    args = parser.parse_args()
    runs = [(f"fixed_{m}min", f"{{impl: fixed, interval: {m}min}}") for m in FIXED_MINUTES]
    runs += [("young", "{impl: young}"), ("daly", "{impl: daly}")]
    label = {policy: name for name, policy in runs}
    results = run_sweep(args.llsim, SCENARIO, args.out, [(AXIS, [policy for _, policy in runs])], args.jobs, "sweep",
                        resume=args.resume)
    rows = [{"policy": label[r[AXIS]], **{k: r[f"train.{k}"] for k in ["interval_s", "goodput", "failures",
                                                                        "checkpoints", "makespan_s"]}}
            for r in results]
    by = {r["policy"]: r for r in rows}
    best = max(rows, key=lambda r: r["goodput"])
    gap = (best["goodput"] - by["daly"]["goodput"]) / best["goodput"]
    print(f"best: {best['policy']} (interval {best['interval_s'] / 60:.0f} min, goodput {best['goodput']:.4f}); "
          f"daly: interval {by['daly']['interval_s'] / 60:.0f} min, goodput {by['daly']['goodput']:.4f} "
          f"({gap:.2%} below the best); young: interval {by['young']['interval_s'] / 60:.0f} min, "
          f"goodput {by['young']['goodput']:.4f}")
    plt = pyplot("sweep", "results.csv is written")
    fixed = [r for r in rows if r["policy"].startswith("fixed")]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot([r["interval_s"] / 60 for r in fixed], [r["goodput"] for r in fixed], marker="o", label="fixed interval")
    for name, marker in [("young", "s"), ("daly", "*")]:
        ax.plot(by[name]["interval_s"] / 60, by[name]["goodput"], marker=marker, markersize=12, linestyle="none",
                label=f"{name} ({by[name]['interval_s'] / 60:.0f} min)")
    ax.set_xlabel("checkpoint interval (minutes of compute)")
    ax.set_ylabel("goodput (useful compute / makespan)")
    ax.set_title("60 days of training, job MTBF 10.7 h (scenarios/paper/young_daly.yaml)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "young_daly.png"), dpi=110)
    print(f"sweep: {args.out}/young_daly.png")


if __name__ == "__main__":
    main()
