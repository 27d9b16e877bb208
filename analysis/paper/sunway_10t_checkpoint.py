#!/usr/bin/env python3
"""Ablation of the distributed checkpoint strategy on scenarios/paper/sunway_10t_checkpoint.yaml:
naive layout, each lever of the balanced layout alone, then all three, as one `llsim sweep` over
phases.ckpt.checkpoint.layout (OUT/results.csv, summary.csv, runs/). Writes ablation.csv,
ablation.md (a table) and ablation.png (write and read times) under OUT.

usage: analysis/paper/sunway_10t_checkpoint.py [--llsim build/llsim] [--out out/sunway_10t_checkpoint] [--jobs 2]
                                       [--resume]

Each configuration is one run (about 1 min on 2 cores for the balanced ones). --resume keeps
the finished runs of the same sweep in OUT/runs (otherwise they are run again).
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import pyplot, run_sweep, write_csv

SCENARIO = "scenarios/paper/sunway_10t_checkpoint.yaml"
CONFIGS = [
    ("naive", "{impl: naive}"),
    ("even data only", "{impl: balanced, even_data: true, io_procs: 1, split: false}"),
    ("8 I/O processes only", "{impl: balanced, even_data: false, io_procs: 8, split: false}"),
    ("split requests only", "{impl: balanced, even_data: false, io_procs: 1, split: true}"),
    ("all three (balanced)", "{impl: balanced, even_data: true, io_procs: 8, split: true}"),
]
LAYOUT = "phases.ckpt.checkpoint.layout"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/sunway_10t_checkpoint")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--resume", action="store_true", help="keep the finished runs of the same sweep in OUT/runs")
    args = parser.parse_args()
    results = run_sweep(args.llsim, SCENARIO, args.out, [(LAYOUT, [layout for _, layout in CONFIGS])], args.jobs,
                        "ablation", resume=args.resume)
    name = {layout: name for name, layout in CONFIGS}
    rows = [{"configuration": name[r[LAYOUT]], "write_s": r["ckpt.checkpoint_write_s"],
             "read_s": r["ckpt.checkpoint_read_s"]} for r in results]
    write_csv(os.path.join(args.out, "ablation.csv"), rows)
    table = ["| configuration | write | read |", "|---|---|---|"]
    for r in rows:
        table.append(f"| {r['configuration']} | {r['write_s'] / 60:.1f} min | {r['read_s'] / 60:.1f} min |")
    with open(os.path.join(args.out, "ablation.md"), "w") as f:
        f.write("\n".join(table) + "\n")
    print("\n".join(table))
    plt = pyplot("ablation", "the table is written")
    fig, ax = plt.subplots(figsize=(9, 4.5))
    x = range(len(rows))
    ax.bar([i - 0.2 for i in x], [r["write_s"] / 60 for r in rows], width=0.4, label="write")
    ax.bar([i + 0.2 for i in x], [r["read_s"] / 60 for r in rows], width=0.4, label="read")
    ax.set_xticks(list(x), labels=[r["configuration"] for r in rows], rotation=15)
    ax.set_yscale("log")
    ax.set_ylabel("minutes (log scale)")
    ax.set_title("10T-parameter checkpoint (140 TB) on a 96,000-node Sunway-like machine")
    ax.grid(axis="y", alpha=0.3, which="both")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "ablation.png"), dpi=110)
    print(f"ablation: {args.out}/ablation.png")


if __name__ == "__main__":
    main()
