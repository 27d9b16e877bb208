"""The training phase's paper scenarios: the Sunway 10T checkpoint (naive about 3 h, balanced
about 10 min, writing and reading, each within 30%), Daly's interval within 2% of the best
goodput of a sweep, and multi-level checkpoints blocking only for the node-local levels."""
from harness import check, check_close, finish, phase_metrics


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

# Multi-level: blocking = node-local write + partner copy, far below the file-system write, and a
# better goodput than blocking writes under a Llama-3-like failure rate.
ML = "scenarios/paper/multilevel.yaml"
multilevel = phase_metrics(ML, "train")
blocking = phase_metrics(ML, "train", "phases.train.checkpoint.mode={impl: blocking}")
check(multilevel["checkpoint_blocking_s"] < 0.01 * multilevel["checkpoint_write_s"],
      f"multilevel blocks {multilevel['checkpoint_blocking_s']} s vs a {multilevel['checkpoint_write_s']} s write")
check(multilevel["local_write_s"] <= multilevel["checkpoint_blocking_s"] <= 3 * multilevel["local_write_s"],
      "multilevel blocking is the node-local levels' time")
check(multilevel["goodput"] > blocking["goodput"] + 0.1,
      f"multilevel goodput {multilevel['goodput']} vs blocking {blocking['goodput']}")
check_close(multilevel["job_mtbf_s"], 3.1 * 3600, 0.001, "Llama-3-like job MTBF")

finish()
