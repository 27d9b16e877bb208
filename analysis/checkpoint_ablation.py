#!/usr/bin/env python3
"""Ablation of the distributed checkpoint strategy on scenarios/paper/sunway_10t_checkpoint.yaml:
naive layout, each lever of the balanced layout alone, then all three. Writes ablation.csv,
ablation.md (a table) and ablation.png (write and read times) under OUT.

usage: analysis/checkpoint_ablation.py [--llsim build/llsim] [--out out/checkpoint_ablation] [--jobs 2]

Each configuration is one `llsim run` (about 1 min on 2 cores for the balanced ones).
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import os

from llsim_runs import pyplot, run_phase, sweep

SCENARIO = "scenarios/paper/sunway_10t_checkpoint.yaml"
CONFIGS = [
    ("naive", "{impl: naive}"),
    ("even data only", "{impl: balanced, even_data: true, io_procs: 1, split: false}"),
    ("8 I/O processes only", "{impl: balanced, even_data: false, io_procs: 8, split: false}"),
    ("split requests only", "{impl: balanced, even_data: false, io_procs: 1, split: true}"),
    ("all three (balanced)", "{impl: balanced, even_data: true, io_procs: 8, split: true}"),
]


def run(llsim, out, name, layout):
    run_dir = os.path.join(out, "runs", "".join(c if c.isalnum() else "_" for c in name))
    m = run_phase(llsim, SCENARIO, run_dir, "ckpt", [f"phases.ckpt.checkpoint.layout={layout}"], "ablation")
    return {"configuration": name, "write_s": m["checkpoint_write_s"], "read_s": m["checkpoint_read_s"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/checkpoint_ablation")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rows = sweep(lambda *c: run(args.llsim, args.out, *c), CONFIGS, args.jobs, args.out, "ablation.csv")
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
