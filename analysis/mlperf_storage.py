#!/usr/bin/env python3
"""MLPerf Storage's training results as llsim scenarios, run and compared with what was measured.

usage: analysis/mlperf_storage.py [--llsim build/llsim] [--out out/mlperf_storage] [--jobs J] [--rows N]
                                  [--saturate F] [--page-cache F] [--own-epochs]

For each row of traces/calibration/mlperf_storage/training.csv (MLPerf Storage v1.0 results of
real storage systems) it writes OUT/scenarios/<row>.yaml, the system as the row describes it:
client hosts and their NICs, storage nodes, drives per node, their network, and a `dlio` phase
with the submitted workload, accelerator count and read threads. It runs each with llsim and
writes OUT/points.csv and OUT/report.md: the measured AU and throughput against llsim's, row by
row, the median |error| and the share of rows within 25%; and OUT/calibration.csv, the rows as
`llsim calibrate --storage` fits to them.

Nothing is fitted here: every figure a row does not state is one of ASSUMED below, the same for
every row, and the report says so. A dataset is scaled to fewer steps per accelerator than the
row's epoch (its size changes the run's length and the share of the epoch that prefetching
hides): steps(), enough that the batches a rank reads ahead are a tenth of the epoch or less,
unless the row's own epoch is shorter. One epoch is run: with no page cache, every epoch reads
the whole dataset from the servers as the first does.

--page-cache F gives each client host a page cache of F times its memory (client_mem_GiB), scaled
as the dataset is (so it holds the same share of it), and runs the row's own epochs: the later
epochs read what the cache kept from the servers no more. F is an assumption (Linux gives the
page cache what the processes leave of the memory); the default 0 runs without one.
--own-epochs runs the rows' own epochs without a page cache: what --page-cache is compared with.
--rows N runs the first N rows only (for the test suite).

--saturate F runs each row with F times the submitted accelerators (F of 1 or more) and compares
llsim's throughput there with the measured one: the measured throughput taken as what the system
can carry at most, which MLPerf's rules ask the submitter to find (the most accelerators at the AU
threshold). Fitted on these points, a coefficient is fitted to the capacity, that is to the
accelerator count, and no longer to a throughput that the accelerators' demand decides.
"""
import argparse
import csv
import json
import math
import os
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

DATA = "traces/calibration/mlperf_storage/training.csv"

# Figures no row states, the same for every row (assumptions, not measurements).
ASSUMED = {
    "nvme": "micron-7450-pro-7.68tb",  # an NVMe or SSD drive the catalogue does not hold
    "ebs_io2": "{read: 4000MBps, write: 4000MBps, read_iops: 256k/s, write_iops: 256k/s, latency: 500us, "
               "parallelism: 128}",  # an AWS io2 volume (Block Express's maximum)
    "latency": "5us",  # each NIC and the backbone
    "threads": 64,  # storage server threads
    "stripe_size": "16MiB",
    "capacity": "1PB",  # every drive: room for the scaled dataset (capacity does not change llsim's speed)
    "unstated_storage_nodes": 4,  # a row whose node count is not stated
}
STEPS = {"unet3d": 10, "resnet50": 10, "cosmoflow": 100}  # at least these steps per accelerator
AHEAD_SHARE = 10  # the epoch holds at least this many times the batches a rank has read ahead


def steps(row):
    """Steps per accelerator of a row's simulated epoch. A rank reads up to max(2, read_threads)
    batches ahead of its accelerator (DLIO's default prefetch of 2 per loader, at least one batch
    per thread), and AU leaves out only the first step: in a short epoch those batches are read
    while the first step waits, and the storage's limit never shows. So the epoch holds at least
    AHEAD_SHARE times them, and no more steps than the row's own epoch."""
    ahead = max(2, int(row["read_threads"]))
    real = int(row["num_files_train"]) * int(row["num_samples_per_file"]) / (
        int(row["batch_size"]) * int(row["num_accelerators"]))
    return max(STEPS[row["workload"]], min(AHEAD_SHARE * ahead, math.floor(real)))


def first_int(pattern, text):
    m = re.search(pattern, text)
    return int(m.group(1)) if m else None


def storage_nodes(row):
    n = first_int(r"^(\d+)", row["storage_nodes"].strip())
    return ASSUMED["unstated_storage_nodes"] if n is None else n


def drives_per_node(text):
    for pattern in (r"^\d+ x (\d+) x", r"per (?:cache )?node: (\d+) x", r"^(\d+) x .* per node", r"^(\d+) x"):
        n = first_int(pattern, text.strip())
        if n:
            return n
    raise ValueError(f"no drive count in '{text}'")


# Drives a row names that llsim's catalogue holds (figures cited in sim/platform/disk_presets.cpp).
NAMED_DRIVES = {"Micron 9550": "micron-9550-pro-7.68tb", "Micron 9400": "micron-9400-pro-7.68tb"}


def drive_figures(text):
    if "io2" in text:
        return ASSUMED["ebs_io2"]
    for name, preset in NAMED_DRIVES.items():
        if name in text:
            return f"{{preset: {preset}}}"
    return f"{{preset: {ASSUMED['nvme']}}}"


def gbps(text, per_node):
    """Gb/s of one node's (or one client's) links: 'A x B x C Gb/s' (A nodes of B links of C),
    'B x C Gb/s ... per node', or 'B x C Gb/s'."""
    text = text.strip()
    m = re.match(r"\d+ x (\d+) x (\d+) Gb/s", text) if per_node else None
    if m:
        return int(m.group(1)) * int(m.group(2))
    m = re.match(r"(\d+) x (\d+) Gb/s", text)
    return int(m.group(1)) * int(m.group(2)) if m else None


def page_cache(row, files, fraction):
    """The storage service's client_cache key for `fraction` of a client's memory, scaled as the
    dataset is to `files` files; "" without one."""
    if fraction == 0:
        return ""
    real_files = int(row["num_files_train"])
    cache_B = fraction * float(row["client_mem_GiB"]) * 2**30 * min(1.0, files / real_files)
    return f", client_cache: {cache_B:.0f}B"


def scenario(row, name, saturate=1, cache_fraction=0, own_epochs=False):
    workload, accelerator = row["workload"], row["accelerator"]
    accelerators = round(saturate * int(row["num_accelerators"]))
    clients = int(row["client_nodes"])
    nodes = storage_nodes(row)
    batch, per_file = int(row["batch_size"]), int(row["num_samples_per_file"])
    files = math.ceil(steps(row) * batch * accelerators / per_file)
    disks = (f"disks: {{count: {drives_per_node(row['drives'])}, capacity: {ASSUMED['capacity']}, " +
             drive_figures(row["drives"])[1:])
    lat = ASSUMED["latency"]
    if nodes == 0:  # the drive is in the client
        groups = f"    clients: {{count: {clients}, nic: {{bandwidth: 100Gbps, latency: {lat}}}, {disks}}}\n"
        servers = "clients"
    else:
        client_nic = gbps(row["client_nic"], False)
        node_nic = gbps(row["storage_network"], True)
        groups = (f"    clients: {{count: {clients}, nic: {{bandwidth: {client_nic}Gbps, latency: {lat}}}}}\n"
                  f"    storage: {{count: {nodes}, nic: {{bandwidth: {node_nic}Gbps, latency: {lat}}}, {disks}}}\n")
        servers = "storage"
    return f"""# Generated by analysis/mlperf_storage.py from {DATA}: {row['system']}
# ({row['submitter']}, {workload} on {accelerator}). Assumed (the row does not state them): drive
# figures where llsim's catalogue lacks the drive, NIC latency {lat}, {ASSUMED['threads']} server
# threads, stripe size, drive capacity.
name: {name}
seed: 1
platform:
  groups:
{groups}  backbone: {{bandwidth: 100TBps, latency: {lat}}}
services:
  fs: {{kind: storage, servers: {servers}, threads: {ASSUMED['threads']}, stripe_count: 0,
       stripe_size: {ASSUMED['stripe_size']}{page_cache(row, files, cache_fraction)}}}
phases:
  - {{name: train, kind: dlio, clients: clients, service: fs, accelerators: {accelerators},
     workload: {workload}_{accelerator}, read_threads: {row['read_threads']}, files: {files},
     epochs: {int(row['epochs']) if cache_fraction or own_epochs else 1}}}
"""


def simulate(llsim, path, out, phase="train"):
    """Runs the scenario at `path`; returns its phase's metrics and what limited it."""
    done = subprocess.run([llsim, "run", path, "--quiet", "--out", out], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: llsim failed on {path}:\n{done.stderr}")
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    return s["phases"][phase], s["bottlenecks"][phase]["limit"]


def write_calibration_points(out, points):
    """OUT/calibration.csv, what `llsim calibrate --storage` fits to: per row its scenario (relative
    to OUT), its group (the submitter), the figure of summary.json to compare, and the measured one."""
    with open(os.path.join(out, "calibration.csv"), "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["scenario", "group", "metric", "measured"])
        writer.writerows(points)


def write_outputs(out, points, lines):
    """OUT/points.csv, one row per point; OUT/report.md, the report's lines, also printed."""
    with open(os.path.join(out, "points.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(points[0]))
        writer.writeheader()
        writer.writerows(points)
    report = "\n".join(lines) + "\n"
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(report)
    print(report)


def training_arguments(doc, out):
    """The command line of a script over the training rows: --llsim, --out, --jobs, --rows."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default=out)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rows", type=int, default=0, help="the first N rows only")
    return parser


def saturation(text):
    """--saturate's factor: a number of at least 1."""
    try:
        factor = float(text)
    except ValueError:
        factor = float("nan")
    if not (factor >= 1 and math.isfinite(factor)):
        raise argparse.ArgumentTypeError(f"expected a finite factor of at least 1, got '{text}'")
    return factor


def fraction(text):
    """--page-cache's share: a number from 0 to 1."""
    try:
        share = float(text)
    except ValueError:
        share = float("nan")
    if not 0 <= share <= 1:
        raise argparse.ArgumentTypeError(f"expected a share of the memory from 0 to 1, got '{text}'")
    return share


def training_rows(limit):
    """The rows of the training table, the first `limit` (all with 0)."""
    with open(DATA) as f:
        rows = list(csv.DictReader(f))
    return rows[:limit] if limit else rows


def main():
    parser = training_arguments(__doc__, "out/mlperf_storage")
    parser.add_argument("--saturate", type=saturation, default=1.0,
                        help="run F times the submitted accelerators, to compare capacity (default 1)")
    parser.add_argument("--page-cache", type=fraction, default=0.0,
                        help="each client's page cache as a share of its memory, with the row's epochs "
                             "(default 0: none, one epoch)")
    parser.add_argument("--own-epochs", action="store_true",
                        help="the rows' own epochs without a page cache (what --page-cache is compared with)")
    args = parser.parse_args()
    rows = training_rows(args.rows)
    os.makedirs(os.path.join(args.out, "scenarios"), exist_ok=True)
    jobs = []
    for i, row in enumerate(rows):
        name = f"row{i:02d}_{row['submitter']}_{row['workload']}_{row['accelerator']}_{row['num_accelerators']}"
        path = os.path.join(args.out, "scenarios", name + ".yaml")
        with open(path, "w") as f:
            f.write(scenario(row, name, args.saturate, args.page_cache, args.own_epochs))
        jobs.append((row, name, path))
    write_calibration_points(args.out, [(os.path.join("scenarios", name + ".yaml"), row["submitter"],
                                         "train.throughput_MiBps", row["throughput_MiBps_mean"])
                                        for row, name, _ in jobs])
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda j: simulate(args.llsim, j[2], os.path.join(args.out, "runs", j[1])), jobs))
    points = []
    for (row, name, _), (m, limit) in zip(jobs, results):
        measured = float(row["throughput_MiBps_mean"])
        points.append({"row": name, "submitter": row["submitter"], "workload": row["workload"],
                       "accelerator": row["accelerator"], "accelerators": row["num_accelerators"],
                       "measured_MiBps": measured, "llsim_MiBps": round(m["throughput_MiBps"], 1),
                       "error_pct": round(100 * (m["throughput_MiBps"] / measured - 1), 1),
                       "measured_au": float(row["au_mean_pct"]) / 100, "llsim_au": round(m["au"], 4),
                       "limit": limit})
    errors = [abs(p["error_pct"]) for p in points]
    within = sum(e <= 25 for e in errors)
    at = "the submitted accelerator count" if args.saturate == 1 else f"{args.saturate:g} times the submitted accelerators"
    if args.page_cache:
        at += f", a page cache of {args.page_cache:g} of each client's memory"
    if args.page_cache or args.own_epochs:
        at += ", the rows' own epochs"
    lines = [f"# MLPerf Storage training rows, llsim at {at} against the measured throughput (nothing fitted)", "",
             f"{len(points)} rows; median |throughput error| {statistics.median(errors):.1f}%; "
             f"{within} of {len(points)} within 25%.", "",
             "| row | measured MiB/s | llsim MiB/s | error | measured AU | llsim AU | what limited |",
             "|---|---|---|---|---|---|---|"]
    for p in points:
        lines.append(f"| {p['row']} | {p['measured_MiBps']:,.0f} | {p['llsim_MiBps']:,.0f} | {p['error_pct']:+.1f}% | "
                     f"{p['measured_au']:.3f} | {p['llsim_au']:.3f} | {p['limit']} |")
    write_outputs(args.out, points, lines)


if __name__ == "__main__":
    main()
