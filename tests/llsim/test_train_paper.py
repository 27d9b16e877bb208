"""The training phase's paper scenarios: the Sunway 10T checkpoint (naive about 3 h, balanced
about 10 min, writing and reading, each within 30%), Daly's interval within 2% of the best
goodput of a sweep, and multi-level checkpoints blocking for the node-local levels and for the
previous flush."""
import csv
import os

from harness import check, check_close, finish, phase_metrics, run, scratch_dir, summary


SUNWAY = "scenarios/paper/sunway_10t_checkpoint.yaml"
naive = phase_metrics(SUNWAY, "ckpt")
balanced = phase_metrics(SUNWAY, "ckpt", "phases.ckpt.checkpoint.layout={impl: balanced}")
for what in ["checkpoint_write_s", "checkpoint_read_s"]:
    check_close(naive[what], 3 * 3600, 0.30, f"sunway naive {what}")
    check_close(balanced[what], 600, 0.30, f"sunway balanced {what}")
    check(naive[what] > 10 * balanced[what], f"sunway: naive {what} not an order of magnitude slower")

# Young/Daly: the same failures for every interval; Daly within 2% of the best goodput.
YD = "scenarios/paper/young_daly.yaml"
daly = phase_metrics(YD, "train")
best = max(phase_metrics(YD, "train", f"phases.train.checkpoint.policy={{impl: fixed, interval: {m}min}}")["goodput"]
           for m in [30, 60, 75, 90, 105, 120, 150, 180])
best = max(best, daly["goodput"])
check(daly["goodput"] >= 0.98 * best, f"daly goodput {daly['goodput']} vs best of the sweep {best}")

# Multi-level: a checkpoint blocks for the node-local write and the partner copy, and, when the
# previous checkpoint is still being flushed to the file system, for the rest of that flush (the
# node-local slot it occupies is needed). Each row of the per-checkpoint CSV must show exactly
# that, and the summary's mean is the CSV's mean (the mean Daly's policy uses).
ML = "scenarios/paper/multilevel.yaml"
ml_out = scratch_dir()
run("run", ML, "--quiet", "--out", ml_out)
multilevel = summary(ml_out)["phases"]["train"]
rows = list(csv.DictReader(open(os.path.join(ml_out, "train_checkpoints.csv"))))
local_levels = min(float(r["blocking_s"]) for r in rows)
waited = 0
for prev, row in zip(rows, rows[1:]):
    flush_left = max(0.0, float(prev["durable_s"]) - float(row["start_s"]))
    expected = local_levels + flush_left
    if abs(float(row["blocking_s"]) - expected) > 1e-6 * max(1.0, expected):
        check(False, f"multilevel checkpoint {row['checkpoint']}: blocked {row['blocking_s']} s, "
                     f"expected {expected} (node-local levels + flush left)")
        break
    waited += flush_left > 0
check(waited > 0, "no multilevel checkpoint waited for a flush: the case is not exercised")
check_close(multilevel["checkpoint_blocking_s"], sum(float(r["blocking_s"]) for r in rows) / len(rows), 1e-6,
            "summary blocking time is the CSV's mean")
check(local_levels >= multilevel["local_write_s"], "the node-local levels include the local write")
check(multilevel["checkpoint_blocking_s"] < 0.05 * multilevel["checkpoint_write_s"],
      f"multilevel blocks {multilevel['checkpoint_blocking_s']} s vs a {multilevel['checkpoint_write_s']} s write")
blocking = phase_metrics(ML, "train", "phases.train.checkpoint.mode={impl: blocking}")
check(multilevel["goodput"] > blocking["goodput"] + 0.1,
      f"multilevel goodput {multilevel['goodput']} vs blocking {blocking['goodput']}")
check_close(multilevel["job_mtbf_s"], 3.1 * 3600, 0.001, "Llama-3-like job MTBF")

finish()
