#!/usr/bin/env python3
"""Time to serve a scale-out, by where the weights come from, and what it does to a checkpoint
sharing the file system: runs scenarios/paper/scale_out.yaml for each instance count N and
weight source, plus the checkpoint alone, and prints the Markdown table of
docs/results/scale_out.md with the closed forms next to the simulated figures.

usage: analysis/paper/scale_out.py [--llsim build/llsim] [--out out/scale_out] [--counts 8,32,64,128,256]

Closed forms (the scenario's assumed platform): from pfs, N x 141.2 GB over the OSTs' 192 GB/s
of reads (or one host's 50 GB/s NIC, if narrower); from the host's NVMe, 141.2 GB over its 4 x
6.5 GB/s; from peers, one read of the file system alone (141.2 GB over the narrower of the NIC
and the OSTs it is striped on) then ceil(log2 N) copies of 141.2 GB over a 50 GB/s NIC.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import run_phases

SCENARIO = "scenarios/paper/scale_out.yaml"
W = 141.2e9
SOURCES = {
    "pfs": "{path: models/llama3-70b, from: pfs, chunk: 1GiB}",
    "nvme": "{path: models/llama3-70b, from: nvme, chunk: 1GiB}",
    "peers": "{path: models/llama3-70b, from: peers, fill_from: pfs, chunk: 1GiB}",
}


def closed_form(source, n):
    if source == "pfs":
        return max(n * W / 192e9, W / 50e9)
    if source == "nvme":
        return W / (4 * 6.5e9)
    # 30 shards over 4 OSTs each, all 64 OSTs together: one reader is bound by its NIC.
    return W / 50e9 + math.ceil(math.log2(n)) * W / 50e9


def run(llsim, out, sets):
    return run_phases(llsim, SCENARIO, out, sets, "scale_out.py")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/scale_out")
    parser.add_argument("--counts", default="8,32,64,128,256")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    alone = run(args.llsim, os.path.join(args.out, "alone"), ["phases.scale-out.enabled=false"])
    ckpt_alone = alone["ckpt"]["checkpoint_write_s"]
    print("| N | source | time to serve alone (s) | closed form (s) | with the checkpoint (s) | "
          "checkpoint write (s) | its slowdown |")
    print("|---|---|---|---|---|---|---|")
    for n in counts:
        for source, weights in SOURCES.items():
            sets = [f"platform.groups.gpu.count={n}", f"phases.scale-out.weights={weights}"]
            serve_alone = run(args.llsim, os.path.join(args.out, f"{source}_{n}_alone"),
                              sets + ["phases.ckpt.enabled=false"])["scale-out"]
            phases = run(args.llsim, os.path.join(args.out, f"{source}_{n}"), sets)
            serve, ckpt = phases["scale-out"], phases["ckpt"]["checkpoint_write_s"]
            print(f"| {n} | {source} | {serve_alone['time_to_serve_s']:.1f} | {closed_form(source, n):.1f} | "
                  f"{serve['time_to_serve_s']:.1f} | {ckpt:.1f} | {ckpt / ckpt_alone:.2f}× |")
    print(f"\nThe checkpoint alone: {ckpt_alone:.2f} s.")


if __name__ == "__main__":
    main()
