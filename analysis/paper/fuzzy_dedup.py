#!/usr/bin/env python3
"""Sweep scenarios/paper/fuzzy_dedup.yaml over the cluster size under both preprocessing engines;
write results.csv (one row per engine and size, with each stage's share of the makespan) and
dedup_engines.png (makespan and network bytes against nodes), and print which stage dominates.

usage: analysis/paper/fuzzy_dedup.py [--llsim build/llsim] [--out out/fuzzy_dedup]
                                 [--nodes 16,32,64,128,256,512,1024] [--jobs 2] [--resume]

compute_centric runs with the fcfs scheduler, data_centric with locality (the scenario's notes).
The engine and its scheduler go together, which a grid (a cross product) cannot say, so each
engine is one `llsim sweep` over platform.groups.cluster.count into OUT/<engine>/ (its own
results.csv, summary.csv and runs/); OUT/results.csv is this script's table of both. --resume
keeps the finished runs of the same sweeps (otherwise they are run again).
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import pyplot, run_sweep, write_csv

SCENARIO = "scenarios/paper/fuzzy_dedup.yaml"
ENGINES = {"data_centric": "locality", "compute_centric": "fcfs"}
STAGES = ["read", "minhash", "read+minhash", "lsh_shuffle", "cluster", "filter_write"]
NODES = "platform.groups.cluster.count"


def engine_rows(llsim, out_dir, nodes, engine, jobs, resume):
    """One `llsim sweep` over the nodes with this engine and its scheduler; a row per size."""
    sweep_dir = os.path.join(out_dir, engine)
    results = run_sweep(llsim, SCENARIO, sweep_dir, [(NODES, nodes)], jobs, "dedup_engines",
                        sets=[f"phases.dedup.engine.impl={engine}", f"phases.dedup.scheduler.impl={ENGINES[engine]}"],
                        resume=resume)
    return {int(r[NODES]): row(r, engine, os.path.join(sweep_dir, "runs", f"p{r['point']}_s{r['seed']}"))
            for r in results}


def row(result, engine, run_dir):
    with open(os.path.join(run_dir, "dedup_stages.csv")) as f:
        stages = {r["stage"]: float(r["end_s"]) - float(r["start_s"]) for r in csv.DictReader(f)}
    total = sum(stages.values())
    row = {"nodes": int(result[NODES]), "engine": engine,
           **{k: result[f"dedup.{k}"] for k in ["makespan_s", "network_bytes", "bytes_read_remote", "shuffle_bytes",
                                                "cpu_utilization", "documents_removed"]}}
    for stage in STAGES:
        row[f"share_{stage}"] = stages.get(stage, 0) / total
    row["dominant_stage"] = max(stages, key=stages.get)
    return row


def plot(rows, target):
    plt = pyplot("dedup_engines", "results.csv is written")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for engine in ENGINES:
        points = sorted((r["nodes"], r["makespan_s"] / 60, r["network_bytes"] / 1e9) for r in rows if r["engine"] == engine)
        axes[0].plot([p[0] for p in points], [p[1] for p in points], marker="o", label=engine)
        axes[1].plot([p[0] for p in points], [p[2] for p in points], marker="o", label=engine)
    for ax, label in zip(axes, ["makespan (min)", "network bytes (GB)"]):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.grid(alpha=0.3, which="both")
        ax.set_xlabel("nodes")
        ax.set_ylabel(label)
    axes[0].legend()
    fig.suptitle("fuzzy deduplication of 200 GB, 50 M documents (scenarios/paper/fuzzy_dedup.yaml)")
    fig.tight_layout()
    fig.savefig(target, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/fuzzy_dedup")
    parser.add_argument("--nodes", default="16,32,64,128,256,512,1024")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--resume", action="store_true", help="keep the finished runs of the same sweeps")
    args = parser.parse_args()
    nodes = [int(n) for n in args.nodes.split(",")]
    by_engine = {e: engine_rows(args.llsim, args.out, nodes, e, args.jobs, args.resume) for e in ENGINES}
    rows = [by_engine[e][n] for n in nodes for e in ENGINES]
    write_csv(os.path.join(args.out, "results.csv"), rows)
    for r in sorted(rows, key=lambda r: (r["engine"], r["nodes"])):
        shares = ", ".join(f"{k[6:]} {v:.0%}" for k, v in r.items() if k.startswith("share_") and v > 0)
        print(f"{r['engine']:15} {r['nodes']:5} nodes: {r['makespan_s']:9.2f} s, {r['network_bytes'] / 1e9:7.1f} GB "
              f"over the network; {shares}")
    plot(rows, os.path.join(args.out, "dedup_engines.png"))
    print(f"dedup_engines: {len(rows)} runs; {args.out}/results.csv and {args.out}/dedup_engines.png")


if __name__ == "__main__":
    main()
