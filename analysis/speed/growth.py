#!/usr/bin/env python3
"""How llsim's wall time and peak memory grow with the size of a run.

    growth.py BUILD/llsim [FAMILY ...]     # families: serve, ingest, transfer (all without)

Runs each family's benchmark (scenarios/bench/) at 0.1x, 0.3x and 1x of its size, the size set
with --set, and prints, per family, the wall time and peak memory llsim reports at each scale and
the exponent of each: the slope of log(figure) against log(scale), fitted by least squares over
the three runs (1: linear growth). Peak memory includes what any run holds (the binary, SimGrid,
the platform), so its exponent reads low when that part is large. One run per scale: a noisy
machine moves the wall-time exponent by a few hundredths.
"""
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCALES = (0.1, 0.3, 1.0)
# family: (scenario, what one unit of work is, --set key, its value at 1x)
FAMILIES = {
    "serve": ("scenarios/bench/serve_synthetic_1m.yaml", "requests", "phases.chat.workload.requests", 1000000),
    "ingest": ("scenarios/bench/ingest_10m.yaml", "files per rank", "phases.md.workload.files_per_rank", 4882),
    "transfer": ("scenarios/bench/transfer_100k.yaml", "client hosts", "platform.groups.clients.count", 100000),
}
FIGURES = re.compile(r"wall time ([0-9.]+) s; peak memory ([0-9.]+) MiB")


def run(llsim, scenario, key, value):
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run([llsim, "run", scenario, "--quiet", "--set", f"{key}={value}", "--out", out + "/run"],
                              cwd=ROOT, capture_output=True, text=True)
    found = FIGURES.search(done.stdout + done.stderr)
    if done.returncode != 0 or not found:
        sys.exit(f"{scenario} with {key}={value} failed (exit {done.returncode}):\n{done.stderr}")
    return float(found.group(1)), float(found.group(2))


def slope(xs, ys):
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    llsim = os.path.abspath(argv[0])
    chosen = argv[1:] or list(FAMILIES)
    for family in chosen:
        if family not in FAMILIES:
            print(f"unknown family '{family}' (expected {', '.join(FAMILIES)})", file=sys.stderr)
            return 2
    print("| family | unit | scale | units | wall s | peak MiB |")
    print("|---|---|---|---|---|---|")
    exponents = []
    for family in chosen:
        scenario, unit, key, full = FAMILIES[family]
        walls, peaks = [], []
        for scale in SCALES:
            units = round(full * scale)
            wall, peak = run(llsim, scenario, key, units)
            walls.append(wall)
            peaks.append(peak)
            print(f"| {family} | {unit} | {scale:g}x | {units:,} | {wall:.2f} | {peak:.1f} |", flush=True)
        exponents.append((family, slope(SCALES, walls), slope(SCALES, peaks)))
    print()
    print("| family | wall-time exponent | memory exponent |")
    print("|---|---|---|")
    for family, wall, peak in exponents:
        print(f"| {family} | {wall:.2f} | {peak:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
