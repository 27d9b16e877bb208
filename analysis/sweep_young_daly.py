#!/usr/bin/env python3
"""Goodput against the checkpoint interval on scenarios/paper/young_daly.yaml: a sweep of fixed
intervals, with the `young` and `daly` policies marked. Writes results.csv and young_daly.png
under OUT and says how far Daly's goodput is from the best of the sweep.

usage: analysis/sweep_young_daly.py [--llsim build/llsim] [--out out/young_daly] [--jobs 2]

Every run uses the same seed, so every interval meets the same failures.
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import os

from llsim_runs import pyplot, run_phase, sweep

SCENARIO = "scenarios/paper/young_daly.yaml"
FIXED_MINUTES = [20, 30, 45, 60, 75, 90, 105, 120, 150, 180, 240, 360]


def run(llsim, out, label, policy):
    m = run_phase(llsim, SCENARIO, os.path.join(out, "runs", label), "train",
                  [f"phases.train.checkpoint.policy={policy}"], "sweep")
    return {"policy": label, "interval_s": m["interval_s"], "goodput": m["goodput"], "failures": m["failures"],
            "checkpoints": m["checkpoints"], "makespan_s": m["makespan_s"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/young_daly")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    runs = [(f"fixed_{m}min", f"{{impl: fixed, interval: {m}min}}") for m in FIXED_MINUTES]
    runs += [("young", "{impl: young}"), ("daly", "{impl: daly}")]
    rows = sweep(lambda *r: run(args.llsim, args.out, *r), runs, args.jobs, args.out, "results.csv")
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
