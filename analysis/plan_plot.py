#!/usr/bin/env python3
"""Draw the cost/target frontier of an `llsim plan` directory.

usage: analysis/plan_plot.py PLAN_DIR     (writes PLAN_DIR/plots/pareto_<k>.png)

For each target k of the plan (PLAN_DIR/answer.json), the objective (x) against the target's
metric (y) at every point the plan ran (PLAN_DIR/points.csv): points that meet every target in
blue, the others in grey, the frontier joined by a line, the target as a dashed line and the
answer as a star. Means over the seeds, with their 95% intervals as error bars when there are
several seeds. Needs matplotlib (apt-get install python3-matplotlib; run with /usr/bin/python3).
"""
import csv
import json
import os
import sys

from llsim_runs import pyplot, save_plot


def number(text):
    return float(text) if text not in ("", None) else float("nan")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: analysis/plan_plot.py PLAN_DIR")
    plan_dir = sys.argv[1]
    try:
        with open(os.path.join(plan_dir, "answer.json")) as f:
            answer = json.load(f)
        with open(os.path.join(plan_dir, "points.csv")) as f:
            rows = list(csv.DictReader(f))
    except (OSError, ValueError) as e:
        sys.exit(f"plan_plot.py: {plan_dir} is not an llsim plan directory: {e}")
    plt = pyplot("plan_plot.py")
    os.makedirs(os.path.join(plan_dir, "plots"), exist_ok=True)
    for k, target in enumerate(answer["targets"]):
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
        save_plot(fig, ax, os.path.join(plan_dir, "plots", f"pareto_{k}.png"), answer["objective"], target["metric"],
                  f"{answer['objective']} against {target['metric']}")
        plt.close(fig)


if __name__ == "__main__":
    main()
