"""`llsim plan` against the exhaustive grid on three scenarios of scenarios/plan/ (serving
instances, KVCache pool servers, the checkpoint interval): the same answer with at most a third
of the runs; resuming; an infeasible plan; bad command lines. About 50 s on 2 cores (the
checkpoint grid is 156 runs). The frontier plot (analysis/plan_plot.py): its axes in words with
units, the currency the runs' accounting names; each point labelled with its axis values."""
import csv
import json
import os
import subprocess
import sys

from harness import LLSIM, ROOT, check, finish, run, scratch_dir


def plan(*args, expect=0):
    code, out, err = run("plan", *args, "--quiet", expect=expect)
    return out, err


def answer(out_dir):
    with open(os.path.join(out_dir, "answer.json")) as f:
        return json.load(f)


CASES = [
    ("serving instances", "scenarios/plan/serve_instances.yaml",
     ["--axis", "platform.groups.gpu.count=1..32", "--target", "chat.slo_attainment>=0.95", "--seeds", "3"]),
    ("pool servers", "scenarios/plan/pool_size.yaml",
     ["--axis", "platform.groups.kv.count=1..16", "--target", "chat.mean_ttft_s<=2.2"]),
    ("checkpoint interval", "scenarios/plan/checkpoint_interval.yaml",
     ["--unimodal", "phases.train.checkpoint.policy.interval=10min..200min:5min", "--target", "train.goodput>=0.8",
      "--seeds", "4"]),
]
for name, scenario, args in CASES:
    out = scratch_dir()
    plan(scenario, *args, "--jobs", "2", "--out", out)
    searched = answer(out)
    plan(scenario, *args, "--jobs", "2", "--out", out, "--exhaustive")
    grid = answer(out)
    print(f"{name}: search {searched['points_run']} points, grid {grid['points_run']} points; "
          f"answer {searched['point']} / {grid['point']}")
    check(searched["feasible"] and grid["feasible"], f"{name}: both find an answer")
    check(searched["point"] == grid["point"], f"{name}: the search's answer {searched['point']} is the grid's "
          f"{grid['point']}")
    check(grid["points_run"] == grid["grid_points"], f"{name}: the exhaustive run ran every point")
    check(searched["points_run"] * 3 <= grid["grid_points"],
          f"{name}: at most a third of the runs: {searched['points_run']} of {grid['grid_points']} points")
checkpoint_grid = out  # the last case's full grid, plotted below

# The instances plan again: every run kept, the same answer, the counts in report.md.
out = scratch_dir()
_, args = CASES[0][1], CASES[0][2]
first, _ = plan(CASES[0][1], *args, "--out", out)
again, _ = plan(CASES[0][1], *args, "--out", out)
check(first.splitlines()[0] == again.splitlines()[0] == "answer: platform.groups.gpu.count=15",
      f"the same answer on resuming: {first!r} / {again!r}")
report = open(os.path.join(out, "report.md")).read()
check("(7 points x 3 seeds; 0 run now, 21 kept from before) against 96 for the full grid (32 points)" in report,
      f"report.md counts the runs: {report[:900]}")
check("## Answer" in report and "**platform.groups.gpu.count=15**" in report and "## Frontier" in report,
      "report.md gives the answer and the frontier")
with open(os.path.join(out, "points.csv")) as f:
    rows = list(csv.DictReader(f))
check(len(rows) == 7 and sum(r["answer"] == "1" for r in rows) == 1, f"points.csv: one row per point: {len(rows)}")
check(all(r["meets"] == ("1" if float(r["target0_low"]) >= 0.95 else "0") for r in rows),
      "a point meets the target when its 95% interval's lower bound does")
_, err = plan(CASES[0][1], "--axis", "platform.groups.gpu.count=1..8", "--target", "chat.slo_attainment>=0.95",
              "--out", out, expect=2)
check("holds the runs of another plan" in err and "its axes differ" in err,
      f"another plan in the same directory is refused, saying what differs: {err}")

# A looser target where cost still falls past the first instance count that meets it (fewer
# instances run longer): the search walks on to the grid's answer, and warns.
out2 = scratch_dir()
code, stdout, err = run("plan", CASES[0][1], "--axis", "platform.groups.gpu.count=1..32", "--target",
                        "chat.p99_ttft_s<=20", "--seeds", "3", "--jobs", "2", "--out", out2, "--quiet")
searched = answer(out2)
run("plan", CASES[0][1], "--axis", "platform.groups.gpu.count=1..32", "--target", "chat.p99_ttft_s<=20", "--seeds",
    "3", "--jobs", "2", "--out", out2, "--quiet", "--exhaustive")
check(searched["point"] == answer(out2)["point"] == {"platform.groups.gpu.count": "11"},
      f"p99 TTFT plan: search {searched['point']}, grid {answer(out2)['point']}")
check("warning: the objective gets better along --axis platform.groups.gpu.count" in err,
      f"the search says where its assumption failed: {err}")

# Another objective: the least energy meeting the same SLO is found by the same runs.
plan(CASES[0][1], *args, "--out", out, "--objective", "run.energy_kwh")
check(answer(out)["objective"] == "run.energy_kwh", "--objective names the metric minimized")

# --maximize flips the objective: over the whole grid of 1 to 4 instances (every point meets an
# attainment >= 0), the cheapest run is the answer, and with --maximize the dearest.
out3 = scratch_dir()
grid = ["--axis", "platform.groups.gpu.count=1..4", "--target", "chat.slo_attainment>=0", "--out", out3, "--exhaustive"]
plan(CASES[0][1], *grid)
with open(os.path.join(out3, "points.csv")) as f:
    costs = {r["platform.groups.gpu.count"]: float(r["objective"]) for r in csv.DictReader(f)}
cheapest = answer(out3)["point"]["platform.groups.gpu.count"]
plan(CASES[0][1], *grid, "--maximize")
dearest = answer(out3)["point"]["platform.groups.gpu.count"]
check(cheapest == min(costs, key=costs.get) and dearest == max(costs, key=costs.get) and cheapest != dearest,
      f"minimize picks {cheapest}, --maximize {dearest}, of costs {costs}")

# Infeasible: no instance count reaches an attainment above 1; the most capable point is run, the
# plan says so (exit 3) and names the closest it found.
out = scratch_dir()
code, stdout, _ = run("plan", CASES[0][1], "--axis", "platform.groups.gpu.count=1..32", "--target",
                      "chat.slo_attainment>1", "--out", out, "--quiet", expect=3)
check(stdout.startswith("infeasible: no point meets the targets; closest: platform.groups.gpu.count="),
      f"infeasible plan says so: {stdout}")
check(not answer(out)["feasible"] and answer(out)["points_run"] == 1, "one run: the corner of the axis missed")
check("No point meets the targets." in open(os.path.join(out, "report.md")).read(), "report.md says so")

# Bad command lines: exit 2, nothing run.
for extra, text in [
    (["--axis", "platform.groups.gpu.count=1..32", "--target", "chat.slo_atainment>=0.9"],
     "--target chat.slo_atainment: no such metric in this scenario's summary.json; the metrics of chat.*:"),
    (["--axis", "platform.groups.gpu.count=1..32", "--target", "chat.slo_attainment>=0.9", "--objective", "run.price"],
     "the metrics of run.*: run.cost, run.energy_kwh"),
    (["--axis", "platform.groups.gpu.count=1..32", "--target", "slo>=0.9"], "its metrics: simulated_time_s"),
    (["--axis", "platform.groups.gpu.count=1..32", "--target", "chat.slo_attainment=0.9"], "--target expects"),
    (["--axis", "platform.groups.gpu.count=4..1", "--target", "chat.slo_attainment>=0.9"], "expected LO <= HI"),
    (["--axis", "platform.groups.gpu.count=1.5..4", "--target", "chat.slo_attainment>=0.9"],
     "a range without :STEP takes whole numbers"),
    (["--axis", "phases.chat.slo.ttft=1s..4min:1s", "--target", "chat.slo_attainment>=0.9"],
     "LO, HI and STEP take the same unit"),
    (["--axis", "platform.groups.gpu.count=0..4", "--target", "chat.slo_attainment>=0.9"], "platform.groups.gpu.count"),
    (["--target", "chat.slo_attainment>=0.9"], "needs at least one --axis or --unimodal"),
    (["--axis", "platform.groups.gpu.count=1..4", "--unimodal", "phases.chat.slo.ttft=1s,2s", "--unimodal",
      "phases.chat.slo.tbt=1s,2s", "--target", "chat.slo_attainment>=0.9"], "at most one --unimodal axis"),
    (["--axis", "platform.groups.gpu.count=1..4", "--set", "platform.groups.gpu.count=3", "--target",
      "chat.slo_attainment>=0.9"], "sets a path the plan searches"),
    (["--axis", "platform.groups.gpu.count=1..4", "--seeds", "0"], "--seeds expects a whole number"),
]:
    out = os.path.join(scratch_dir(), "out")
    _, err = plan(CASES[0][1], *extra, "--out", out, expect=2)
    check(text in err, f"bad plan {extra}: error says {text!r}: {err.strip()}")
    check(not os.path.exists(out), f"bad plan {extra}: nothing written")

# The frontier plot, with the answer marked (needs matplotlib, as --plot does for runs).
out = scratch_dir()
run("plan", CASES[0][1], *args, "--out", out, "--quiet", "--plot")
check(os.path.exists(os.path.join(out, "plots", "pareto_0.png")), "--plot draws plots/pareto_0.png")
check("![pareto_0](plots/pareto_0.png)" in open(os.path.join(out, "report.md")).read(), "report.md shows the plot")

# What the plot says. An axis is a metric in words with its unit, from the metric's name (the rule
# every declared metric follows); a cost is in the runs' accounting.currency.
sys.path.insert(0, os.path.join(ROOT, "analysis"))
import matplotlib  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import plan_plot  # noqa: E402

for metric, title in [("run.cost", "run cost (EUR)"), ("run.energy_kwh", "run energy (kWh)"),
                      ("chat.slo_attainment", "chat slo attainment"), ("chat.goodput_rps", "chat goodput (requests/s)"),
                      ("services.kv.pool_peak_bytes", "services kv pool peak bytes (B)"),
                      ("chat.cost_per_M_output_tokens", "chat cost per M output tokens (EUR)"),
                      ("chat.kwh_per_M_output_tokens", "chat energy per M output tokens (kWh)"),
                      ("simulated_time_s", "simulated time (s)")]:
    check(plan_plot.axis_title(metric, "EUR") == title, f"{metric} titled {plan_plot.axis_title(metric, 'EUR')!r}")
# Two axes, every point run, costs in EUR: the SLO's TTFT changes neither the cost nor the p99 TTFT,
# so each instance count's two points are at one place and share a label.
out = scratch_dir()
run("plan", CASES[0][1], "--axis", "platform.groups.gpu.count=1..3", "--axis", "phases.chat.slo.ttft=1s,2s", "--target",
    "chat.p99_ttft_s<=1000", "--set", "accounting.currency=EUR", "--exhaustive", "--out", out, "--quiet", "--plot")
fig = plan_plot.plot_target(plt, plan_plot.read_plan(out), 0, os.path.join(scratch_dir(), "pareto_0.png"))
ax = fig.axes[0]
check((ax.get_xlabel(), ax.get_ylabel()) == ("run cost (EUR)", "chat p99 ttft (s)"),
      f"the plot's axes: {ax.get_xlabel()!r}, {ax.get_ylabel()!r}")
check(ax.get_title().endswith("\npoints labelled gpu.count, slo.ttft"), f"the title names the axes: {ax.get_title()!r}")
labels = sorted(t.get_text() for t in ax.texts)
check(labels == ["1, 1s; 1, 2s", "2, 1s; 2, 2s", "3, 1s; 3, 2s"], f"the points' labels: {labels}")
plt.close(fig)
# The checkpoint interval's 39 points: only the frontier and the answer are labelled, and the title says so.
plan = plan_plot.read_plan(checkpoint_grid)
fig = plan_plot.plot_target(plt, plan, 0, os.path.join(scratch_dir(), "pareto_0.png"))
ax = fig.axes[0]
named = sorted(r["phases.train.checkpoint.policy.interval"] for r in plan["rows"]
               if r["frontier"] == "1" or r["answer"] == "1")
check(len(plan["rows"]) == 39 and sorted(t.get_text() for t in ax.texts) == named,
      f"labels of the frontier {named}: {[t.get_text() for t in ax.texts]}")
check(ax.get_title().endswith("points labelled policy.interval (the frontier's and the answer's)") and
      ax.get_xlabel() == "run cost (USD)" and ax.get_ylabel() == "train goodput",
      f"the checkpoint plot's titles: {ax.get_title()!r}, {ax.get_xlabel()!r}, {ax.get_ylabel()!r}")
plt.close(fig)
finish()
