#!/usr/bin/env python3
"""How big must the KVCache pool be? Plot the ideal prefix hit ratio of the Mooncake trace
against the cache size (`llsim trace stats`, an LRU of N blocks), with the prefix hit ratio the
simulated Mooncake system reaches with a pool of the same size beside it; write
cache_sizing.csv and cache_sizing.png.

usage: analysis/paper/mooncake_vs_vllm_cache.py [--llsim build/llsim] [--out out/mooncake_vs_vllm_cache]
                                [--blocks 1000,3000,10000,30000,100000] [--jobs 2] [--resume]

The simulated runs are scenarios/paper/mooncake_vs_vllm.yaml with the prefill instances' local
HBM cache off (so the pool is the only cache) and the pool's capacity set to N blocks of the
trace's 512 tokens x 320 KiB spread over its 10 servers. They differ from the ideal because the
pool counts bytes (a prompt's last block is shorter, so more than N blocks fit) and evicts per
server, a block enters it only once its prompt is prefilled (requests that overlap in time miss
each other's blocks), and the Conductor reuses only a prefix held at arrival. The simulated runs
are one `llsim sweep` over services.kvpool.capacity (OUT/results.csv, summary.csv, runs/);
--resume keeps the finished runs of the same sweep (otherwise they are run again).
Needs matplotlib (Debian: python3-matplotlib, run with /usr/bin/python3) for the plot only.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import pyplot, run_sweep, write_csv

SCENARIO = "scenarios/paper/mooncake_vs_vllm.yaml"
TRACE = "traces/mooncake_conversation_trace.jsonl"
BLOCK_BYTES = 512 * 327680
POOL_SERVERS = 10
CAPACITY = "services.kvpool.capacity"


def ideal(llsim, blocks):
    sizes = ",".join(str(b) for b in blocks) + ",inf"
    proc = subprocess.run([llsim, "trace", "stats", TRACE, "--json", "--cache-blocks", sizes],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"cache_sizing: llsim trace stats failed:\n{proc.stderr}")
    return json.loads(proc.stdout)["prefix_hit_ratio"]


def simulate(llsim, out_dir, blocks, ideal_ratios, jobs, resume):
    """One `llsim sweep` with a pool of each number of blocks; a row per number of blocks."""
    capacity = {b: f"{b * BLOCK_BYTES / POOL_SERVERS:.0f}B" for b in blocks}
    results = run_sweep(llsim, SCENARIO, out_dir, [(CAPACITY, [capacity[b] for b in blocks])], jobs, "cache_sizing",
                        sets=["phases.chat.system.local_cache=false"], resume=resume)
    blocks_of = {c: b for b, c in capacity.items()}
    return [{"blocks": blocks_of[r[CAPACITY]], "ideal_hit_ratio": ideal_ratios[str(blocks_of[r[CAPACITY]])],
             "simulated_hit_ratio": r["chat.prefix_hit_ratio"], "p90_ttft_s": r["chat.p90_ttft_s"],
             "evicted_blocks": r["chat.evicted_blocks"]} for r in results]


def plot(rows, unbounded, path):
    plt = pyplot("cache_sizing", "cache_sizing.csv is written")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    tokens = [r["blocks"] * 512 / 1e6 for r in rows]
    ax.plot(tokens, [r["ideal_hit_ratio"] for r in rows], marker="o", label="ideal LRU (llsim trace stats)")
    ax.plot(tokens, [r["simulated_hit_ratio"] for r in rows], marker="s", label="simulated Mooncake pool")
    ax.axhline(unbounded, color="grey", linestyle="--", label=f"unbounded cache {unbounded:.3f}")
    ax.set_xscale("log")
    ax.set_xlabel("cache size (million tokens of KV; 1 M tokens = 328 GB for LLaMA3-70B)")
    ax.set_ylabel("prefix hit ratio (fraction of blocks)")
    ax.set_ylim(0, max(0.05, unbounded * 1.15))
    ax.grid(alpha=0.3, which="both")
    ax.legend()
    ax.set_title("Mooncake conversation trace: prefix reuse against cache size")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llsim", default="build/llsim")
    ap.add_argument("--out", default="out/mooncake_vs_vllm_cache")
    ap.add_argument("--blocks", default="1000,3000,10000,30000,100000")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--resume", action="store_true", help="keep the finished runs of the same sweep in OUT/runs")
    a = ap.parse_args()
    try:
        blocks = [int(b) for b in a.blocks.split(",")]
    except ValueError:
        ap.error("--blocks expects whole numbers of blocks, e.g. 1000,10000")
    if not blocks or min(blocks) < 1:
        ap.error("--blocks expects positive numbers of blocks")
    ratios = ideal(a.llsim, blocks)
    rows = simulate(a.llsim, a.out, blocks, ratios, a.jobs, a.resume)
    write_csv(os.path.join(a.out, "cache_sizing.csv"), rows)
    for r in rows:
        print(f"{r['blocks']:>8} blocks: ideal {r['ideal_hit_ratio']:.4f}, simulated {r['simulated_hit_ratio']:.4f}")
    print(f"unbounded: {ratios['inf']:.4f}")
    plot(rows, ratios["inf"], os.path.join(a.out, "cache_sizing.png"))


if __name__ == "__main__":
    main()
