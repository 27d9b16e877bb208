#!/usr/bin/env python3
"""Draw the cost/target frontier of an `llsim plan` directory.

usage: analysis/plan_plot.py PLAN_DIR     (writes PLAN_DIR/plots/pareto_<k>.png)

For each target k of the plan (PLAN_DIR/answer.json), the objective (x) against the target's
metric (y) at every point the plan ran (PLAN_DIR/points.csv): points that meet every target in
blue, the others in grey, the frontier joined by a line, the target as a dashed line and the
answer as a star. Means over the seeds, with their 95% intervals as error bars when there are
several seeds. Each point is labelled with its axis values, the axes named once in the title
(15; 15, 4 for two axes; points at one place share a label: 1, 1s; 1, 2s); past MAX_LABELS
points, only the frontier and the answer are. The axes are the metrics in words with their units
(run cost (USD): a cost in the currency the runs' accounting names). Needs matplotlib
(apt-get install python3-matplotlib; run with /usr/bin/python3).
"""
import csv
import glob
import json
import math
import os
import sys

from llsim_runs import pyplot, save_plot

MAX_LABELS = 12
# A metric name's ending and the unit it stands for: the naming rule every declared metric follows
# (tests/unit/metrics_test.cpp). Costs are in the accounting's currency, energies in kWh.
UNIT_ENDINGS = [("_per_s", "1/s"), ("_rps", "requests/s"), ("_Bps", "B/s"), ("_s", "s"), ("_kwh", "kWh")]


def number(text):
    return float(text) if text not in ("", None) else float("nan")


def axis_title(metric, currency):
    """A metric in words with its unit: 'run.cost' -> 'run cost (USD)', 'chat.p99_ttft_s' ->
    'chat p99 ttft (s)', 'chat.slo_attainment' -> 'chat slo attainment' (a ratio or count)."""
    words, unit = metric, None
    name = metric.rsplit(".", 1)[-1]
    for ending, ending_unit in UNIT_ENDINGS:
        if name.endswith(ending):
            words, unit = metric[:-len(ending)], ending_unit
            break
    else:
        if name.startswith("cost"):
            unit = currency
        elif name.startswith("kwh_"):
            words, unit = metric[:-len(name)] + "energy" + name[3:], "kWh"
        elif "bytes" in name:
            unit = "B"
    words = words.replace(".", " ").replace("_", " ")
    return f"{words} ({unit})" if unit else words


def short_names(paths):
    """The axes' paths by their last two parts (gpu.count), or as many more as keep them apart."""
    n = 2
    while len({".".join(p.split(".")[-n:]) for p in paths}) < len(paths):
        n += 1
    return [".".join(p.split(".")[-n:]) for p in paths]


def read_plan(plan_dir):
    """answer.json, the rows of points.csv, the axes' paths (plan.json) and the currency the runs
    report (accounting.currency of their summary.json; one scenario, so one currency)."""
    with open(os.path.join(plan_dir, "answer.json")) as f:
        answer = json.load(f)
    with open(os.path.join(plan_dir, "points.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(plan_dir, "plan.json")) as f:
        paths = [axis["path"] for axis in json.load(f)["axes"]]
    summaries = sorted(glob.glob(os.path.join(plan_dir, "runs", "*", "summary.json")))
    currency = "currency"  # the unit's name in `llsim models`, when no run is there to name it
    if summaries:
        with open(summaries[0]) as f:
            currency = json.load(f)["accounting"]["currency"]
    return {"answer": answer, "rows": rows, "paths": paths, "currency": currency}


def plot_target(plt, plan, k, path):
    """Draws target k into `path`; returns the figure, still open."""
    answer, rows = plan["answer"], plan["rows"]
    target = answer["targets"][k]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for meets, colour, label in [("1", "tab:blue", "meets every target"), ("0", "0.6", "misses a target")]:
        chosen = [r for r in rows if r["meets"] == meets]
        if not chosen:
            continue
        xs = [number(r["objective"]) for r in chosen]
        ys = [number(r[f"target{k}_mean"]) for r in chosen]
        lows = [number(r[f"target{k}_low"]) for r in chosen]
        highs = [number(r[f"target{k}_high"]) for r in chosen]
        if all(v == v for v in lows):
            ax.errorbar(xs, ys, yerr=[[y - lo for y, lo in zip(ys, lows)], [hi - y for y, hi in zip(ys, highs)]],
                        fmt="o", color=colour, label=label, capsize=2)
        else:
            ax.plot(xs, ys, "o", color=colour, label=label)
    frontier = sorted((number(r["objective"]), number(r[f"target{k}_mean"])) for r in rows if r["frontier"] == "1")
    if frontier:
        ax.plot([x for x, _ in frontier], [y for _, y in frontier], "-", color="tab:green", label="frontier")
    ax.axhline(target["value"], linestyle="--", color="tab:red", label=f"target {target['text']}")
    best = [r for r in rows if r["answer"] == "1"]
    if best:
        ax.plot([number(best[0]["objective"])], [number(best[0][f"target{k}_mean"])], "*", markersize=16,
                color="tab:orange", label="answer" if answer["feasible"] else "closest (infeasible)")
    # Values only, the axes named once in the title: short labels cover fewer neighbours.
    labelled = rows if len(rows) <= MAX_LABELS else [r for r in rows if r["frontier"] == "1" or r["answer"] == "1"]
    places = {}
    for r in labelled:
        place = (number(r["objective"]), number(r[f"target{k}_mean"]))
        if all(math.isfinite(v) for v in place):
            places.setdefault(place, []).append(", ".join(r[p] for p in plan["paths"]))
    for place, labels in places.items():
        ax.annotate("; ".join(labels), place, xytext=(4, 4), textcoords="offset points", fontsize="x-small")
    which = "" if labelled is rows else " (the frontier's and the answer's)"
    save_plot(fig, ax, path, axis_title(answer["objective"], plan["currency"]),
              axis_title(target["metric"], plan["currency"]),
              f"{answer['objective']} against {target['metric']}\n"
              f"points labelled {', '.join(short_names(plan['paths']))}{which}")
    return fig


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: analysis/plan_plot.py PLAN_DIR")
    plan_dir = sys.argv[1]
    try:
        plan = read_plan(plan_dir)
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"plan_plot.py: {plan_dir} is not an llsim plan directory: {e}")
    plt = pyplot("plan_plot.py")
    os.makedirs(os.path.join(plan_dir, "plots"), exist_ok=True)
    for k in range(len(plan["answer"]["targets"])):
        plt.close(plot_target(plt, plan, k, os.path.join(plan_dir, "plots", f"pareto_{k}.png")))


if __name__ == "__main__":
    main()
