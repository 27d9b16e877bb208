"""analysis/capacity.py on a real llsim sweep: decode instances of a Mooncake system against the
p90 time between tokens. The answer it names is the smallest swept value whose mean in
summary.csv meets the target (computed here independently), the same from results.csv and with
the target in ms; the plot and the report.md section are written, and rerunning replaces the
section; a target no point meets says so and names the best; a second grid axis gives one answer
per combination; bad columns, x values, units and paths are errors (exit 1) that say what is
available. Needs python3-matplotlib (run with /usr/bin/python3)."""
import csv
import math
import os
import shutil
import subprocess
import sys

from harness import ROOT, check, finish, run, scratch_dir

SCENARIO = "tests/inputs/serve_mooncake.yaml"
X = "platform.groups.decode.count"
METRIC = "chat.p90_slo_tbt_s"
# 600 Poisson arrivals of 1000-token prompts and 500-token answers every 5 ms on average; 16
# prefill instances keep the prefill side out of the way, so the decode instances set the TBT.
BASE = ["--set", "phases.chat.workload={requests: 600, arrival: {dist: exponential, mean: 0.005s}, "
                 "input_tokens: 1000, output_tokens: 500}",
        "--set", "platform.groups.prefill.count=16", "--quiet", "--jobs", "2"]


def capacity(*args):
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "analysis", "capacity.py"), *args],
                          capture_output=True, text=True, cwd=ROOT)
    return proc.returncode, proc.stdout, proc.stderr


def summary_means(sweep_dir, metric, axes):
    """{tuple of the axes' values: {x: (mean, low, high)}} from summary.csv."""
    out = {}
    with open(os.path.join(sweep_dir, "summary.csv")) as f:
        for r in csv.DictReader(f):
            if r["metric"] == metric:
                key = tuple(r[a] for a in axes)
                out.setdefault(key, {})[float(r[X])] = (float(r["mean"]), r["ci95_low"], r["ci95_high"])
    return out


def smallest_meeting(means, target):
    for x in sorted(means):
        if means[x][0] <= target:
            return x
    return None


def label(x):
    return f"{x:g}"


try:
    import matplotlib
    have_matplotlib = matplotlib is not None
except ImportError:
    have_matplotlib = False
check(have_matplotlib, f"matplotlib is available to {sys.executable} (apt-get install python3-matplotlib)")

sweep = scratch_dir()
run("sweep", SCENARIO, "--out", sweep, "--grid", f"{X}=1,2,3,4", "--seeds", "3", *BASE)
means = summary_means(sweep, METRIC, [])[()]
expected = smallest_meeting(means, 0.1)
check(expected is not None and expected != min(means),
      f"the sweep makes the question non-trivial: means {means}, smallest meeting 0.1 is {expected}")
check(all(lo != hi for _, lo, hi in means.values()), "the seeds differ, so the confidence band has a width")

# The answer: the smallest decode count whose mean meets the target, with its mean and interval.
# report.md: llsim sweep's own when it writes one (capacity.py fills its "## Capacity" section),
# else a header written here; what precedes the section must be kept.
report = os.path.join(sweep, "report.md")
if not os.path.exists(report):
    with open(report, "w") as f:
        f.write("# Sweep of serve_mooncake\n\nWritten before capacity.py ran.\n")
head = open(report).read().split("\n## Capacity")[0]
png = os.path.join(sweep, "tbt.png")
code, out, err = capacity(sweep, "--x", X, "--metric", "p90_slo_tbt_s", "--phase", "chat", "--target", "<= 0.1",
                          "--out", png)
check(code == 0, f"capacity.py exit {code}: {err}")
mean, lo, hi = means.get(expected, (math.nan, "", ""))
line = f"smallest {X} meeting {METRIC} <= 0.1: {label(expected)} (mean {mean:.4g}, 95% CI {float(lo):.4g}-{float(hi):.4g})"
check(out.strip() == line, f"the answer line:\n  {out.strip()!r}\nexpected\n  {line!r}")
check(os.path.isfile(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"{png} is a PNG")

# The same answer from results.csv (interval computed from the rows) and with the target in ms;
# the default plot name; the report keeps what was there and holds one section for the metric.
code, out2, err = capacity(os.path.join(sweep, "results.csv"), "--x", X, "--metric", METRIC, "--target", "<=100ms")
check(code == 0 and f": {label(expected)} (mean {mean:.4g}" in out2 and "<= 100ms (0.1)" in out2,
      f"results.csv and 100ms: {out2!r} {err}")
check(os.path.isfile(os.path.join(sweep, "capacity_chat_p90_slo_tbt_s.png")), "default plot DIR/capacity_chat_p90_slo_tbt_s.png")
text = open(report).read()
check(text.startswith(head), "report.md: what was there before the Capacity section is kept")
check(text.count("\n## Capacity\n") == 1 and text.count(f"capacity.py begin: {METRIC} against {X}") == 1,
      f"report.md: one Capacity section; rerunning replaces the metric's part, not a second one:\n{text}")
check(f"### {METRIC} <= 100ms (0.1) against {X}" in text and f"| {label(expected)} | 3 |" in text,
      "report.md: the latest target and the table")

# A target no point meets: says so and names the best (smallest mean) point.
code, out, err = capacity(sweep, "--x", X, "--metric", METRIC, "--target", "< 1us")
best = min(means, key=lambda x: means[x][0])
check(code == 0 and out.startswith(f"no swept value of {X} meets {METRIC} < 1us") and
      f"the best is {X}={label(best)} (mean {means[best][0]:.4g}" in out, f"no point meets the target: {out!r} {err}")
# ">=" with the first point's mean as the target: the first point meets it (the TBT falls with more instances).
code, out, err = capacity(sweep, "--x", X, "--metric", METRIC, "--target", f">= {means[min(means)][0]:.6g}")
check(code == 0 and f": {label(min(means))} (" in out, f">= target: {out!r} {err}")

# Errors: exit 1 with "capacity.py: " and what is available.
code, out, err = capacity(sweep, "--x", X, "--metric", "p90_tbt_z", "--target", "<= 0.1")
check(code == 1 and err.startswith("capacity.py: unknown metric column") and METRIC in err and "chat.p90_ttft_s" in err,
      f"unknown metric lists the columns: exit {code} {err!r}")
code, out, err = capacity(sweep, "--x", "platform.groups.prefill.count", "--metric", METRIC, "--target", "<= 0.1")
check(code == 1 and err.startswith("capacity.py: ") and f"swept: {X}" in err, f"--x not swept: exit {code} {err!r}")
code, out, err = capacity(sweep, "--x", X, "--metric", METRIC, "--target", "<= 2 parsecs")
check(code == 1 and "unit 'parsecs' is not understood" in err and "ms" in err, f"unknown unit: exit {code} {err!r}")
code, out, err = capacity(sweep, "--x", X, "--metric", METRIC, "--target", "about 2s")
check(code == 1 and err.startswith("capacity.py: target"), f"no operator: exit {code} {err!r}")
code, out, err = capacity(os.path.join(sweep, "nothing_here"), "--x", X, "--metric", METRIC, "--target", "<= 1")
check(code == 1 and "no such file or directory" in err, f"missing file: exit {code} {err!r}")
bad = scratch_dir()
with open(os.path.join(sweep, "summary.csv")) as f, open(os.path.join(bad, "summary.csv"), "w") as g:
    rows = list(csv.reader(f))
    for r in rows[1:]:
        r[1] = "v" + r[1]
    csv.writer(g, lineterminator="\n").writerows(rows)
code, out, err = capacity(bad, "--x", X, "--metric", METRIC, "--target", "<= 0.1")
check(code == 1 and "'v1'" in err and "is not a number" in err, f"non-numeric x: exit {code} {err!r}")

# Two axes: one answer per value of the other axis, each the smallest meeting it in summary.csv.
two = scratch_dir()
run("sweep", SCENARIO, "--out", two, "--grid", f"{X}=1,2,3", "--grid", "phases.chat.workload.rate_scale=0.5,1",
    "--seeds", "2", *BASE)
code, out, err = capacity(two, "--x", X, "--metric", METRIC, "--target", "<= 0.1")
lines = out.strip().splitlines()
check(code == 0 and len(lines) == 2, f"two axes: one line per rate_scale: {out!r} {err}")
for (rate,), m in summary_means(two, METRIC, ["phases.chat.workload.rate_scale"]).items():
    x = smallest_meeting(m, 0.1)
    mine = [ln for ln in lines if f"with phases.chat.workload.rate_scale={rate}:" in ln or
            f"with phases.chat.workload.rate_scale={rate};" in ln]
    want = f": {label(x)} (mean" if x is not None else "no swept value"
    check(len(mine) == 1 and want in mine[0], f"rate_scale {rate}: expected {x}, got {mine}")

shutil.rmtree(sweep, ignore_errors=True)
shutil.rmtree(two, ignore_errors=True)
shutil.rmtree(bad, ignore_errors=True)
finish()
