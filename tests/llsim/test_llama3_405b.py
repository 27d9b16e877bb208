"""scenarios/paper/llama3_405b.yaml through llsim: the job's interruptions per class against the
rates the scenario gives its components (taken from the paper's Table 5 counts over 54 days and
16,384 GPUs, so this checks the aggregation of components into hosts and hosts into the job,
not the paper), its MTBF against the paper's 54 d / 419, the planned stops, and the time
accounting. The effective training time is reported with its assumptions in
docs/results/llama3_405b.md."""
import json
import math
import os

from harness import check, check_close, finish, run_out, summary

SCENARIO = "scenarios/paper/llama3_405b.yaml"
HOSTS = 2048
UNIT = {"h": 3600, "d": 86400}

out = run_out(SCENARIO)
m = summary(out)["phases"]["train"]
with open(os.path.join(out, "resolved.json")) as f:
    components = json.load(f)["faults"][0]["components"]

# Expected failures per class over the run: each component's units x count / MTBF x makespan.
expected = {}
for c in components:
    mtbf = float(c["mtbf"][:-1]) * UNIT[c["mtbf"][-1]]
    units = HOSTS // c["shared_by"] * c["count"]
    expected[c["class"]] = expected.get(c["class"], 0) + units / mtbf * m["makespan_s"]
for cls, mean in sorted(expected.items()):
    got = m[f"interruptions_{cls}"]
    check(abs(got - mean) <= 3 * math.sqrt(mean),
          f"{cls}: {got} interruptions within 3 sigma of the {mean:.1f} its rates give over the run")
check(m["interruptions_maintenance"] == math.floor(m["makespan_s"] / (27.6 * 3600)),
      f"a planned stop every 27.6 h: {m['interruptions_maintenance']}")
check_close(m["job_mtbf_s"], 54 * 86400 / 419, 1e-4, "job MTBF: the paper's 54 days / 419 unexpected interruptions")
check(m["failures"] == sum(m[f"interruptions_{c}"] for c in expected), "every failure has a class")
check_close(m["checkpoint_bytes"] / m["checkpoints"], 405e9 * 14, 1e-9, "a checkpoint: 405B x 14 B")
lost = sum(m[f"lost_{c}_s"] for c in expected)
check_close(lost, m["wasted_s"] + m["restarting_s"], 1e-9, "time lost per class adds up")
check_close(m["lost_maintenance_s"], m["maintenance_s"], 1e-12, "planned stops cost their time")
# Every failure waits for the spare (5 min) and the delay (15 min) unless another cuts it short.
check(m["restarts"] * 1200 <= m["restarting_s"] <= m["failures"] * (1200 + m["checkpoint_read_s"]),
      "restarting: 20 min and a read per restart")

finish()
