#!/usr/bin/env python3
"""Goodput against the checkpoint interval on scenarios/paper/infinitehbd.yaml: the InfiniteHBD
fault trace replayed on a 400-server job. A sweep of fixed intervals with the `young` and `daly`
policies marked (their M is the job MTBF of the trace: its last fault start over the outages on the
job's hosts), then how Daly's goodput moves with the assumed spares, swap time and restart
delay. Writes infinitehbd.png and sensitivity.csv into OUT.

usage: analysis/paper/infinitehbd.py [--llsim build/llsim] [--out out/infinitehbd] [--jobs 2]

The trace, the iteration time and the restart delay are fixed, so one run per point is the
answer (no seeds to average): the noise is that of the one failure history the trace is.
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import pyplot, read_summary, run_phase, run_sweep, save_plot, write_csv

SCENARIO = "scenarios/paper/infinitehbd.yaml"
FIXED_MINUTES = [10, 15, 20, 25, 30, 40, 60, 90, 120, 180, 240]
AXIS = "phases.train.checkpoint.policy"
RESTART = "phases.train.restart"
# (label, restart section): the scenario's is spares 16, swap 10 min, delay 10 min.
SENSITIVITY = [
    ("as assumed: 16 spares, swap 10 min, delay 10 min", "{delay: 10min, spares: 16, swap_time: 10min}"),
    ("no spares (wait for each repair)", "{delay: 10min, spares: 0, swap_time: 10min}"),
    ("8 spares", "{delay: 10min, spares: 8, swap_time: 10min}"),
    ("32 spares", "{delay: 10min, spares: 32, swap_time: 10min}"),
    ("64 spares", "{delay: 10min, spares: 64, swap_time: 10min}"),
    ("a spare for every failure", "{delay: 10min, swap_time: 10min}"),
    ("swap 30 min", "{delay: 10min, spares: 16, swap_time: 30min}"),
    ("restart delay 5 min", "{delay: 5min, spares: 16, swap_time: 10min}"),
    ("restart delay 30 min", "{delay: 30min, spares: 16, swap_time: 10min}"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/infinitehbd")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    runs = [(f"fixed_{m}min", f"{{impl: fixed, interval: {m}min}}") for m in FIXED_MINUTES]
    runs += [("young", "{impl: young}"), ("daly", "{impl: daly}")]
    label = {policy: name for name, policy in runs}
    run_sweep(args.llsim, SCENARIO, args.out, [(AXIS, [policy for _, policy in runs])], args.jobs, "infinitehbd")
    points = read_summary(args.out, [AXIS]).values()
    rows = [{"policy": label[p[AXIS]], "interval_s": p["train.interval_s"][0], "goodput": p["train.goodput"][0],
             "failures": p["train.failures"][0], "job_mtbf_s": p["train.job_mtbf_s"][0]} for p in points]
    by = {r["policy"]: r for r in rows}
    best = max(rows, key=lambda r: r["goodput"])
    print(f"job MTBF from the trace: {by['daly']['job_mtbf_s'] / 3600:.2f} h, "
          f"{by['daly']['failures']:.0f} failures under Daly")
    for r in sorted(rows, key=lambda r: r["interval_s"]):
        print(f"  {r['policy']:>13}: interval {r['interval_s'] / 60:6.1f} min, goodput {r['goodput']:.4f}")
    print(f"best: {best['policy']} ({best['goodput']:.4f}); daly {by['daly']['goodput']:.4f} "
          f"({(best['goodput'] - by['daly']['goodput']) / best['goodput']:.2%} below)")

    sensitivity = []
    for name, restart in SENSITIVITY:
        m = run_phase(args.llsim, SCENARIO, os.path.join(args.out, "sensitivity", str(len(sensitivity))), "train",
                      [f"{RESTART}={restart}"], "infinitehbd")
        sensitivity.append({"assumption": name, "goodput": m["goodput"], "makespan_d": m["makespan_s"] / 86400,
                            "host_wait_d": m["host_wait_s"] / 86400, "spare_swaps": m["spare_swaps"],
                            "failures": m["failures"]})
        print(f"  {name}: goodput {m['goodput']:.4f}, makespan {m['makespan_s'] / 86400:.1f} d, waiting for hosts "
              f"{m['host_wait_s'] / 86400:.1f} d, {m['failures']} failures, {m['spare_swaps']} hosts replaced by a spare")
    write_csv(os.path.join(args.out, "sensitivity.csv"), sensitivity)

    plt = pyplot("infinitehbd", "sensitivity.csv is written")
    fixed = sorted((r for r in rows if r["policy"].startswith("fixed")), key=lambda r: r["interval_s"])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot([r["interval_s"] / 60 for r in fixed], [r["goodput"] for r in fixed], marker="o", label="fixed interval")
    for name, marker in [("young", "s"), ("daly", "*")]:
        ax.plot(by[name]["interval_s"] / 60, by[name]["goodput"], marker=marker, markersize=12, linestyle="none",
                label=f"{name} ({by[name]['interval_s'] / 60:.0f} min)")
    ax.set_xscale("log")
    save_plot(fig, ax, os.path.join(args.out, "infinitehbd.png"), "checkpoint interval (minutes of compute)",
              "goodput (useful compute / makespan)",
              "InfiniteHBD fault trace on a 400-server job (scenarios/paper/infinitehbd.yaml)")
    print(f"plot: {args.out}/infinitehbd.png")


if __name__ == "__main__":
    main()
