#!/usr/bin/env python3
"""Sweep scenarios/paper/metadata_scaling.yaml over the metadata model, the mdtest pattern and the
number of metadata servers; write results.csv and metadata_scaling.png (create ops/s against
servers, one panel per pattern, one line per model) and print the speed-up from the fewest to
the most servers.

usage: analysis/metadata_scaling.py [--llsim build/llsim] [--out out/metadata_scaling]
                                    [--servers 1,2,4,8,16,32,64] [--jobs 2]

Every run is an ordinary `llsim run` with --set overrides; its directory is kept under OUT/runs/.
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import os

from llsim_runs import pyplot, run_phase, sweep

SCENARIO = "scenarios/paper/metadata_scaling.yaml"
MODELS = ["single", "subtree", "hashed", "decoupled"]
PATTERNS = ["easy", "hard"]


def run_one(llsim, out_dir, servers, model, pattern):
    run_dir = os.path.join(out_dir, "runs", f"{model}_{pattern}_{servers}")
    metrics = run_phase(llsim, SCENARIO, run_dir, "md",
                        [f"platform.groups.mds.count={servers}", f"services.mds.model.impl={model}",
                         f"phases.md.workload.pattern={pattern}"], "metadata_scaling")
    return {"servers": servers, "model": model, "pattern": pattern,
            **{k: metrics[k] for k in ["ops_per_s", "mean_latency_s", "p99_latency_s", "rpcs_per_op",
                                       "max_server_share"]}}


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
    args = parser.parse_args()
    servers = [int(s) for s in args.servers.split(",")]
    combos = [(n, m, p) for n in servers for m in MODELS for p in PATTERNS]
    rows = sweep(lambda *c: run_one(args.llsim, args.out, *c), combos, args.jobs, args.out, "results.csv")
    for pattern in PATTERNS:
        for model in MODELS:
            rate = {r["servers"]: r["ops_per_s"] for r in rows if r["model"] == model and r["pattern"] == pattern}
            print(f"{pattern:4} {model:9} {rate[servers[0]]:12.0f} -> {rate[servers[-1]]:12.0f} ops/s "
                  f"({rate[servers[-1]] / rate[servers[0]]:.1f}x from {servers[0]} to {servers[-1]} servers)")
    plot(rows, os.path.join(args.out, "metadata_scaling.png"))
    print(f"metadata_scaling: {len(rows)} runs; {args.out}/results.csv and {args.out}/metadata_scaling.png")


if __name__ == "__main__":
    main()
