#!/usr/bin/env python3
"""Autoscaling against static clusters on scenarios/paper/autoscale_mooncake.yaml: runs the
scenario's `target` policy, a static cluster of its peak size and smaller static clusters, then
the policy under other targets and provisioning delays (assumptions that decide the headline),
and prints the Markdown tables of docs/results/autoscale_mooncake.md.

usage: analysis/paper/autoscale_mooncake.py [--llsim build/llsim] [--out out/autoscale_mooncake]

"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # analysis/: llsim_runs
from llsim_runs import run_phase

SCENARIO = "scenarios/paper/autoscale_mooncake.yaml"


def run(llsim, out, sets):
    return run_phase(llsim, SCENARIO, out, "chat", sets, "autoscale_mooncake.py")


def shown(value, spec):
    """A metric as the table shows it: n/a when llsim had nothing to measure (null)."""
    return "n/a" if value is None else format(value, spec)


def row(label, m):
    return (f"| {label} | {m['instance_time_s'] / 3600:.1f} | {m['peak_instances']:.0f} | {m['cold_starts']:.0f} | "
            f"{m['slo_attainment']:.3f} | {m['p90_ttft_s']:.1f} | {shown(m['mean_cold_start_s'], '.0f')} | "
            f"{shown(m['scaling_slo_attainment'], '.3f')} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/autoscale_mooncake")
    args = parser.parse_args()
    header = ("| run | instance-hours | peak | cold starts | SLO attainment | p90 TTFT (s) | mean cold start (s) | "
              "SLO during cold starts |\n|---|---|---|---|---|---|---|---|")
    scaled = run(args.llsim, os.path.join(args.out, "target"), [])
    peak = int(scaled["peak_instances"])
    print(header)
    print(row("target, GPU busy share 0.7 (the scenario)", scaled))
    for n in sorted({peak, 24, 16, 12}, reverse=True):
        m = run(args.llsim, os.path.join(args.out, f"static_{n}"),
                ["phases.chat.autoscale={impl: none}", f"platform.groups.gpu.count={n}"])
        print(row(f"static, {n} instances" + (" (the peak)" if n == peak else ""), m))
    print("\n" + header)
    for key, values in [("target", ["0.5", "0.9"]), ("provisioning", ["0s", "180s"]),
                        ("metric", ["sequences"])]:
        for value in values:
            sets = [f"phases.chat.autoscale.{key}={value}"] + (["phases.chat.autoscale.target=16"]
                                                               if key == "metric" else [])
            m = run(args.llsim, os.path.join(args.out, f"{key}_{value}"), sets)
            label = f"{key} {value}" + (", target 16" if key == "metric" else "")
            print(row(label, m))


if __name__ == "__main__":
    main()
