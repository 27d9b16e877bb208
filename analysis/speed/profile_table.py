#!/usr/bin/env python3
"""The table of where each benchmark's time and memory go (docs/developing.md, "Where the time goes").

    profile_table.py BUILD/llsim [BENCHMARK ...]    # names as in scenarios/bench/, all without

Needs Linux perf (Debian's linux-perf) and root, for one uprobe. For each benchmark it runs llsim
three times: plainly, for the wall time and peak memory llsim reports; under `perf stat` with an
uprobe on SimGrid's EngineImpl::solve, which SimGrid calls once per step of simulated time (every
distinct time at which something happens), for the events; and under `perf record` (499 samples a
second), for the five functions with the most samples of their own. It prints a Markdown table:
events and bytes of peak memory per unit of the benchmark's work, and those functions.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIMGRID = "/usr/lib/x86_64-linux-gnu/libsimgrid.so.3.32"
SOLVE = "_ZNK7simgrid6kernel10EngineImpl5solveEd"  # EngineImpl::solve(double) const
# benchmark: (units of work, how many)
BENCHMARKS = {
    "serve_synthetic_1m": ("requests", 1_000_000),
    "serve_mooncake_1h": ("requests", 12_031),
    "ingest_10m": ("metadata operations", 1024 * 4882 * 2),
    "transfer_100k": ("client hosts sending 1 GB", 100_000),
    "sunway_10t_write": ("compute nodes", 96_000),
    "train_30d_40k": ("nodes", 40_960),
    "preprocess_1m": ("documents", 1_000_000),
    "tasks_100k": ("tasks", 100_000),
    "contention_10k": ("clients", 10_000),
    "scale_out_1k": ("instances", 1_000),
}
FIGURES = re.compile(r"wall time ([0-9.]+) s; peak memory ([0-9.]+) MiB")


def llsim_run(prefix, llsim, bench, out):
    return subprocess.run(prefix + [llsim, "run", f"scenarios/bench/{bench}.yaml", "--quiet", "--out", out],
                          cwd=ROOT, capture_output=True, text=True)


def add_probe():
    """The uprobe on EngineImpl::solve, by address (perf probe does not take this C++ name)."""
    symbols = subprocess.run(["nm", "-D", SIMGRID], capture_output=True, text=True, check=True).stdout
    address = next(line.split()[0] for line in symbols.splitlines() if line.endswith(" " + SOLVE))
    listed = subprocess.run(["perf", "probe", "-l"], capture_output=True, text=True).stdout
    if "probe_libsimgrid:solve" not in listed:
        subprocess.run(["perf", "probe", "-x", SIMGRID, "-a", f"solve=0x{int(address, 16):x}"], check=True,
                       capture_output=True)


def short(symbol):
    symbol = re.sub(r"\(anonymous namespace\)::", "", symbol)
    symbol = re.sub(r"^(llsim|simgrid)::", "", symbol)
    symbol = re.sub(r"<.*>", "<>", symbol)
    return symbol if len(symbol) < 60 else symbol[:57] + "..."


def top_functions(perf_data):
    report = subprocess.run(["perf", "report", "-i", perf_data, "--no-children", "--stdio", "--sort", "sym"],
                            capture_output=True, text=True).stdout
    rows = []
    for line in report.splitlines():
        found = re.match(r"\s*([0-9.]+)%\s+\[[.k]\]\s+(.*)$", line)
        if found:
            rows.append(f"{short(found.group(2).strip())} {float(found.group(1)):.0f}%")
        if len(rows) == 5:
            break
    return "; ".join(rows)


def profile(llsim, bench):
    unit, units = BENCHMARKS[bench]
    with tempfile.TemporaryDirectory() as tmp:
        plain = llsim_run([], llsim, bench, tmp + "/plain")
        figures = FIGURES.search(plain.stdout + plain.stderr)
        if plain.returncode != 0 or not figures:
            sys.exit(f"{bench} failed: {plain.stderr}")
        counted = llsim_run(["perf", "stat", "-x,", "-e", "probe_libsimgrid:solve"], llsim, bench, tmp + "/stat")
        events = int(re.search(r"^(\d+),,probe_libsimgrid:solve", counted.stderr, re.M).group(1))
        llsim_run(["perf", "record", "-F", "499", "-o", tmp + "/perf.data"], llsim, bench, tmp + "/record")
        top = top_functions(tmp + "/perf.data")
    wall, peak = float(figures.group(1)), float(figures.group(2))
    return (f"| `{bench}` | {units:,} {unit} | {wall:.1f} | {peak:.0f} | {events:,} | {events / units:.2f} | "
            f"{peak * 1024 * 1024 / units:,.0f} | {top} |")


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    llsim = os.path.abspath(argv[0])
    chosen = argv[1:] or list(BENCHMARKS)
    unknown = [b for b in chosen if b not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark {unknown[0]} (expected one of {', '.join(BENCHMARKS)})", file=sys.stderr)
        return 2
    add_probe()
    print("| benchmark | work | wall s | peak MiB | events | events per unit | bytes per unit | "
          "top five functions (own samples) |")
    print("|---|---|---|---|---|---|---|---|")
    for bench in chosen:
        print(profile(llsim, bench), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
