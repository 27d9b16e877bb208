#!/usr/bin/env python3
"""Sweep scenarios/paper/metadata_scaling.yaml over the metadata model, the mdtest pattern and the
number of metadata servers with `llsim sweep` (OUT/results.csv, summary.csv, runs/); write
metadata_scaling.png (create ops/s against servers, one panel per pattern, one line per model)
and print the speed-up from the fewest to the most servers.

usage: analysis/paper/metadata_scaling.py [--llsim build/llsim] [--out out/metadata_scaling]
                                    [--servers 1,2,4,8,16,32,64] [--jobs 2] [--resume]

--resume keeps the finished runs of the same sweep in OUT/runs (otherwise they are run again).
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import pyplot, run_sweep

SCENARIO = "scenarios/paper/metadata_scaling.yaml"
MODELS = ["single", "subtree", "hashed", "decoupled"]
PATTERNS = ["easy", "hard"]
SERVERS, MODEL, PATTERN = "platform.groups.mds.count", "services.mds.model.impl", "phases.md.workload.pattern"


def plot(rows, target):
    plt = pyplot("metadata_scaling", "results.csv is written")
    fig, axes = plt.subplots(1, len(PATTERNS), figsize=(11, 4.5), sharey=True)
    for ax, pattern in zip(axes, PATTERNS):
        for model in MODELS:
            points = sorted((r["servers"], r["ops_per_s"] / 1e3) for r in rows
                            if r["model"] == model and r["pattern"] == pattern)
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=model)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.grid(alpha=0.3, which="both")
        ax.set_title(f"mdtest-{pattern} create")
        ax.set_xlabel("metadata servers")
    axes[0].set_ylabel("operations per second (thousands)")
    axes[0].legend()
    fig.suptitle("metadata models, 512 client ranks (scenarios/paper/metadata_scaling.yaml)")
    fig.tight_layout()
    fig.savefig(target, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/metadata_scaling")
    parser.add_argument("--servers", default="1,2,4,8,16,32,64")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--resume", action="store_true", help="keep the finished runs of the same sweep in OUT/runs")
    args = parser.parse_args()
    servers = [int(s) for s in args.servers.split(",")]
    results = run_sweep(args.llsim, SCENARIO, args.out, [(SERVERS, servers), (MODEL, MODELS), (PATTERN, PATTERNS)],
                        args.jobs, "metadata_scaling", resume=args.resume)
    rows = [{"servers": int(r[SERVERS]), "model": r[MODEL], "pattern": r[PATTERN], "ops_per_s": r["md.ops_per_s"]}
            for r in results]
    for pattern in PATTERNS:
        for model in MODELS:
            rate = {r["servers"]: r["ops_per_s"] for r in rows if r["model"] == model and r["pattern"] == pattern}
            print(f"{pattern:4} {model:9} {rate[servers[0]]:12.0f} -> {rate[servers[-1]]:12.0f} ops/s "
                  f"({rate[servers[-1]] / rate[servers[0]]:.1f}x from {servers[0]} to {servers[-1]} servers)")
    plot(rows, os.path.join(args.out, "metadata_scaling.png"))
    print(f"metadata_scaling: {len(rows)} runs; {args.out}/results.csv and {args.out}/metadata_scaling.png")


if __name__ == "__main__":
    main()
