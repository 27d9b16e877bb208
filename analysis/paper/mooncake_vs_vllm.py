#!/usr/bin/env python3
"""Find each serving system's capacity on scenarios/paper/mooncake_vs_vllm.yaml: the highest
rate_scale (the trace replayed that many times faster) at which slo_attainment >= 0.9, by
bisection on a log scale; write results.csv (every run), capacity.csv and serve_capacity.png
(attainment against the request rate, with the target), and print the capacity ratio.

usage: analysis/paper/mooncake_vs_vllm.py [--llsim build/llsim] [--out out/mooncake_vs_vllm]
                                  [--lo 0.5] [--hi 8] [--steps 7] [--target 0.9] [--jobs 2]
                                  [--set KEY=VALUE ...] [--mooncake-set KEY=VALUE ...]
                                  [--vllm-set KEY=VALUE ...]

Mooncake is the scenario as written; vLLM is the same scenario with
--set 'phases.chat.system={impl: vllm, instances: colocated, router: least_loaded}'.
--set overrides apply to both systems' runs (e.g. phases.chat.batching.scheduler=v1 for
chunked prefill), --mooncake-set and --vllm-set to one. The capacity is bracketed to within (hi/lo)^(1/2^steps). Needs matplotlib (Debian:
python3-matplotlib, run with /usr/bin/python3) for the plot only.

Unlike the other sweeps in analysis/, this one does not use `llsim sweep`: each rate of a
bisection depends on the result at the previous one, which a grid fixed in advance cannot say,
so it runs `llsim run` per rate (the two systems' bisections side by side, --jobs at a time).
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import pyplot, run_phase

SCENARIO = "scenarios/paper/mooncake_vs_vllm.yaml"
TRACE = "traces/mooncake_conversation_trace.jsonl"
SYSTEMS = {"mooncake": [],
           "vllm": ["phases.chat.system={impl: vllm, instances: colocated, router: least_loaded}"]}
KEPT = ["slo_attainment", "goodput_rps", "p90_ttft_s", "p90_slo_tbt_s", "prefix_hit_ratio", "gpu_utilization"]


def bisect(llsim, out_dir, system, lo, hi, steps, target, sets):
    """Returns (capacity rate_scale or None, rows of every run)."""
    rows = []

    def attainment(rate):
        run_dir = os.path.join(out_dir, "runs", f"{system}_{rate:.6g}")
        m = run_phase(llsim, SCENARIO, run_dir, "chat",
                      SYSTEMS[system] + sets + [f"phases.chat.workload.rate_scale={rate:.6g}"], "serve_capacity")
        rows.append({"system": system, "rate_scale": rate, **{k: m[k] for k in KEPT}})
        return m["slo_attainment"]

    if attainment(lo) < target:
        return None, rows
    if attainment(hi) >= target:
        return hi, rows
    for _ in range(steps):
        mid = math.sqrt(lo * hi)
        if attainment(mid) >= target:
            lo = mid
        else:
            hi = mid
    return lo, rows


def trace_rate(llsim):
    """Requests per second of the trace as recorded (rate_scale 1), from `llsim trace stats`."""
    proc = subprocess.run([llsim, "trace", "stats", TRACE, "--json"], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"serve_capacity: llsim trace stats failed:\n{proc.stderr}")
    return json.loads(proc.stdout)["request_rate_per_s"]


def plot(rows, capacity, base_rps, target, path):
    plt = pyplot("serve_capacity", "results.csv and capacity.csv are written")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for system in SYSTEMS:
        points = sorted((r["rate_scale"] * base_rps, r["slo_attainment"]) for r in rows if r["system"] == system)
        line, = ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=system)
        if capacity.get(system):
            ax.axvline(capacity[system] * base_rps, color=line.get_color(), linestyle=":", alpha=0.7)
    ax.axhline(target, color="grey", linestyle="--", label=f"target {target:g}")
    ax.set_xlabel("request rate (requests/s)")
    ax.set_ylabel("SLO attainment (fraction)")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3, which="both")
    ax.legend()
    ax.set_title("Mooncake trace, TTFT <= 30 s and TBT <= 100 ms")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llsim", default="build/llsim")
    ap.add_argument("--out", default="out/mooncake_vs_vllm")
    ap.add_argument("--lo", type=float, default=0.5)
    ap.add_argument("--hi", type=float, default=8)
    ap.add_argument("--steps", type=int, default=7)
    ap.add_argument("--target", type=float, default=0.9)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--set", action="append", default=[], dest="sets", metavar="KEY=VALUE")
    for system in SYSTEMS:
        ap.add_argument(f"--{system}-set", action="append", default=[], dest=f"{system}_sets", metavar="KEY=VALUE")
    a = ap.parse_args()
    if not 0 < a.lo < a.hi:
        ap.error("need 0 < --lo < --hi")
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        found = dict(zip(SYSTEMS, pool.map(lambda s: bisect(a.llsim, a.out, s, a.lo, a.hi, a.steps, a.target,
                                                                 a.sets + getattr(a, f"{s}_sets")), SYSTEMS)))
    rows = [r for system in SYSTEMS for r in found[system][1]]
    capacity = {system: found[system][0] for system in SYSTEMS}
    base_rps = trace_rate(a.llsim)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(a.out, "capacity.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["system", "capacity_rate_scale"])
        for system, c in capacity.items():
            w.writerow([system, "" if c is None else f"{c:.6g}"])
    for system, c in capacity.items():
        print(f"{system}: " + (f"capacity rate_scale {c:.3g}" if c else f"below {a.target} already at {a.lo}"))
    if capacity["mooncake"] and capacity["vllm"]:
        print(f"mooncake / vllm capacity: {capacity['mooncake'] / capacity['vllm']:.2f}x (paper: 1.75x)")
    plot(rows, capacity, base_rps, a.target, os.path.join(a.out, "serve_capacity.png"))


if __name__ == "__main__":
    main()
